import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonOutput } from '../helpers/json-output.js';
import { createOutside, DEV_KEY, PROJECT, pendingFor, setup } from './promotion-harness.js';

/**
 * Promoting a delete (issue 28), the built CLI against the emulator: a file removed, development synced with delete
 * allowed (wfsync deletes the Development workflow, which leaves a pending change), then the production target,
 * which allows `delete`, applies exactly that change and verifies with the Production key that the copy is gone.
 */

const REMOVED = 'order-shipped';
const KEPT = PROJECT.filter((id) => id !== REMOVED);

const identifiers = (workflows: Array<{ triggers: Array<{ identifier: string }> }>) =>
  workflows.map((w) => w.triggers[0]!.identifier).sort();

/** Both environments synced and promoted, then the file of REMOVED removed. */
async function promotedThenRemoved(options: { productionAllow?: string } = {}) {
  const world = await setup(options);
  expect((await world.run(['sync', '--target', 'development', '--quiet'])).status).toBe(0);
  expect((await world.run(['sync', '--target', 'production', '--quiet'])).status).toBe(0);
  const sourceId = world.emulator.workflows().find((w) => w.triggers[0]!.identifier === REMOVED)!._id;
  const copyId = world.emulator.productionWorkflows().find((w) => w._parentId === sourceId)!._id;
  rmSync(join(world.cwd, `workflows/${REMOVED}.yaml`));
  return { ...world, sourceId, copyId };
}

describe('promoting a delete from development to production', () => {
  it('plans the delete (exit 2, only GETs), applies exactly its change, finds the copy gone, then does nothing', async () => {
    const { emulator, cwd, run, sourceId, copyId } = await promotedThenRemoved({
      productionAllow: '[create, delete]',
    });
    const deleted = await run(['sync', '--target', 'development', '--allow', 'delete', '--quiet']);
    expect(deleted.status).toBe(0);
    expect(deleted.stdout).toContain(`- deleted  ${REMOVED}`);
    const outside = await createOutside(emulator, 'another team');
    const change = emulator.pendingChanges().find((c) => c._entityId === sourceId)!;

    const planned = await run(['plan', '--target', 'production', '--format', 'json', '--quiet']);
    expect(planned.status).toBe(2);
    const plan = parseJsonOutput('plan', planned.stdout);
    expect(plan.summary).toMatchObject({ delete: 1, inSync: 4, orphaned: 0, promote: 0 });
    expect(plan.items.find((i: { identifier: string }) => i.identifier === REMOVED)).toMatchObject({
      action: 'delete',
      sourceId,
      remoteId: copyId,
      stateId: copyId,
    });
    expect(planned.seen.filter((s) => s.method !== 'GET')).toEqual([]);
    expect(planned.seen.some((s) => s.key === 'production' && s.path === `/v1/workflows/${copyId}`)).toBe(
      true,
    );
    const human = await run(['plan', '--target', 'production']);
    expect(human.status).toBe(2);
    expect(human.stdout).toMatch(new RegExp(`^- delete +${REMOVED}$`, 'm'));
    expect(human.stdout).toContain('+++ /dev/null');
    expect(human.stdout).toContain(
      "development deleted its workflow: `wfsync sync --target production` will apply that pending delete in development, deleting Production's copy, and drop it from state.",
    );
    expect(human.stdout).toContain(
      'Plan: 0 to promote, 1 to delete, 4 in sync. Run "wfsync sync --target production" to delete.',
    );
    const comment = await run(['plan', '--target', 'production', '--format', 'markdown', '--quiet']);
    expect(comment.stdout).toContain(
      `will DELETE 1 workflow in Production (by applying their pending deletes in Development, nothing else): \`${REMOVED}\``,
    );
    const annotations = await run(['plan', '--target', 'production', '--format', 'github', '--quiet']);
    expect(annotations.stdout).toContain(`title=wfsync plan (delete)::${REMOVED}: delete`);

    const synced = await run(['sync', '--target', 'production', '--format', 'json', '--quiet']);
    expect(synced.status).toBe(0);
    const result = parseJsonOutput('sync', synced.stdout);
    expect(result.summary).toMatchObject({ deleted: 1, failed: 0, inSync: 4 });
    expect(synced.seen.filter((s) => s.method !== 'GET')).toEqual([
      { key: 'development', method: 'POST', path: `/v1/changes/${change._id}/apply` },
    ]);
    // Verified with the Production key: its copy read back (a 404) after the apply.
    const apply = synced.seen.findIndex((s) => s.method === 'POST');
    expect(
      synced.seen.slice(apply).some((s) => s.key === 'production' && s.path === `/v1/workflows/${copyId}`),
    ).toBe(true);
    expect([...pendingFor(emulator)]).toEqual([outside]);
    expect(identifiers(emulator.productionWorkflows())).toEqual(KEPT);
    const state = JSON.parse(readFileSync(join(cwd, '.wfsync/state/production.json'), 'utf8'));
    expect(Object.keys(state.workflows).sort()).toEqual(KEPT);

    const again = await run(['sync', '--target', 'production', '--quiet']);
    expect(again.status).toBe(0);
    expect(again.seen.filter((s) => s.method !== 'GET')).toEqual([]);
    const replanned = await run(['plan', '--target', 'production', '--quiet']);
    expect(replanned.status).toBe(0);
    expect(replanned.stdout).toContain('No changes. 4 workflows in sync.');
  }, 120_000);

  it('without delete allowed on production: orphaned, its next naming the setting; --allow delete then promotes it', async () => {
    const { emulator, run, copyId } = await promotedThenRemoved();
    expect((await run(['sync', '--target', 'development', '--allow', 'delete', '--quiet'])).status).toBe(0);

    const planned = await run(['plan', '--target', 'production', '--quiet']);
    expect(planned.status).toBe(6);
    expect(planned.stdout).toContain(`- orphaned  ${REMOVED}`);
    expect(planned.stdout).toContain(
      'Target `production` does not allow sync to delete: add `delete` to `targets.production.allow` in wfsync.config.yaml (or add `--allow delete` to the command)',
    );
    const synced = await run(['sync', '--target', 'production']);
    expect(synced.status).toBe(6);
    expect(synced.seen.filter((s) => s.method !== 'GET')).toEqual([]);
    expect(emulator.productionWorkflows().map((w) => w._id)).toContain(copyId);
    // Production is view-only: the notice names the way a copy goes there, never the dashboard's delete.
    expect(synced.stderr).toContain(
      '1 workflow in state no longer has a definition and is not deleted (see each "next"): Production is view-only, ' +
        'so a copy goes only when its delete in development is promoted (delete the workflow with ' +
        '`wfsync sync --target development`, then sync this target with `delete` allowed), or run ' +
        '`wfsync state forget <identifier> --target production` to stop tracking it',
    );
    expect(synced.stderr).not.toContain('dashboard');

    const allowed = await run(['sync', '--target', 'production', '--allow', 'delete', '--quiet']);
    expect(allowed.status).toBe(0);
    expect(allowed.stdout).toContain(`- deleted  ${REMOVED}`);
    expect(identifiers(emulator.productionWorkflows())).toEqual(KEPT);
  }, 60_000);

  it('development not synced yet (its workflow still there): a person syncs development first (exit 6)', async () => {
    const { emulator, run, copyId } = await promotedThenRemoved({ productionAllow: '[create, delete]' });
    const planned = await run(['plan', '--target', 'production', '--quiet']);
    expect(planned.status).toBe(6);
    expect(planned.stdout).toContain(`- orphaned  ${REMOVED}`);
    expect(planned.stdout).toContain(
      'development still has its workflow (or its state still records it): delete it there first (`wfsync sync --target development`, with `delete` allowed on `development`), then promote the delete.',
    );
    const synced = await run(['sync', '--target', 'production', '--quiet']);
    expect(synced.status).toBe(6);
    expect(synced.seen.filter((s) => s.method !== 'GET')).toEqual([]);
    expect(emulator.productionWorkflows().map((w) => w._id)).toContain(copyId);
  });

  it('its change applied but state not yet dropped (a crash): the re-run only drops it, sending nothing', async () => {
    const { emulator, cwd, run, sourceId } = await promotedThenRemoved({
      productionAllow: '[create, delete]',
    });
    expect((await run(['sync', '--target', 'development', '--allow', 'delete', '--quiet'])).status).toBe(0);
    // What a sync that stopped right after its apply leaves: the copy gone, the entry still in state.
    const change = emulator.pendingChanges().find((c) => c._entityId === sourceId)!;
    const applied = await fetch(`${emulator.url}/v1/changes/${change._id}/apply`, {
      method: 'POST',
      headers: { authorization: `ApiKey ${DEV_KEY}` },
    });
    expect(applied.status).toBe(201);

    const planned = await run(['plan', '--target', 'production', '--quiet']);
    expect(planned.status).toBe(2);
    expect(planned.stdout).toContain(
      'no definition has this identifier any more and Production no longer has it: `wfsync sync --target production` will drop it from state (nothing is sent).',
    );
    const synced = await run(['sync', '--target', 'production', '--quiet']);
    expect(synced.status).toBe(0);
    expect(synced.seen.filter((s) => s.method !== 'GET')).toEqual([]);
    const state = JSON.parse(readFileSync(join(cwd, '.wfsync/state/production.json'), 'utf8'));
    expect(Object.keys(state.workflows).sort()).toEqual(KEPT);
  });
});
