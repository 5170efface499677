import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startContractFake } from '../helpers/contract-fake/index.js';
import { git } from '../helpers/git.js';
import { contractFakeProject } from './contract-fake-project.js';
import { makeProject, runCli } from './helpers.js';
import { EXAMPLE_IDENTIFIERS, startTarget, type TargetRun } from './plan-sync-target.js';

/**
 * Deletes, the built CLI against the emulator: a removed file is deleted on the service only where the target
 * allows it, after a fresh read, never with a Production key; without `allow` nothing changes from before.
 */

const PROD_KEY = 'wfs_production_key_0123456789abcdef';
const GONE = 'monthly-usage-report';
const writes = (run: TargetRun) =>
  run.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);

async function syncedThenRemoved() {
  const target = await startTarget({ emulator: { productionKeys: [PROD_KEY] } });
  expect((await target.run(['sync'])).status).toBe(0);
  const id = target.state()!.workflows[GONE]!.id;
  rmSync(join(target.cwd, `workflows/${GONE}.yaml`));
  return { target, id };
}

describe('a removed file, delete allowed (--allow delete)', () => {
  it('plan says delete (exit 2); sync deletes exactly that workflow, verifies, drops it from state; again: nothing', async () => {
    const { target, id } = await syncedThenRemoved();
    const planned = await target.run(['plan', '--allow', 'delete', '--format', 'json']);
    expect(planned.status).toBe(2);
    const plan = JSON.parse(planned.stdout);
    expect(plan.summary).toMatchObject({ delete: 1, inSync: 8, orphaned: 0 });
    expect(plan.items.find((i: { identifier: string }) => i.identifier === GONE)).toMatchObject({
      action: 'delete',
      remoteId: id,
    });
    expect(writes(planned)).toEqual([]);

    const synced = await target.run(['sync', '--allow', 'delete']);
    expect(synced.status).toBe(0);
    expect(synced.stdout).toContain(`- deleted  ${GONE}\n    id: ${id}\n    deleted on the service\n`);
    expect(synced.stdout).toContain('Sync: 0 created, 1 deleted, 8 in sync, 0 drifted, 0 failed, 0 skipped.');
    expect(writes(synced)).toEqual([`DELETE /v1/workflows/${id}`]);
    expect(target.stored()).toEqual(EXAMPLE_IDENTIFIERS.filter((i) => i !== GONE));
    expect(Object.keys(target.state()!.workflows)).not.toContain(GONE);

    const again = await target.run(['sync', '--allow', 'delete']);
    expect(again.status).toBe(0);
    expect(writes(again)).toEqual([]);
  });

  it('the target allows it in the config: the same, with no flag', async () => {
    const { target, id } = await syncedThenRemoved();
    const config = join(target.cwd, 'wfsync.config.yaml');
    writeFileSync(config, `${readFileSync(config, 'utf8')}    allow: [create, delete]\n`);
    const synced = await target.run(['sync']);
    expect(synced.status).toBe(0);
    expect(writes(synced)).toEqual([`DELETE /v1/workflows/${id}`]);
  });

  it('a reviewed plan (plan --out, sync --plan) covers the delete; a dashboard edit in between refuses it', async () => {
    const { target, id } = await syncedThenRemoved();
    const planFile = join(target.cwd, 'plan.json');
    expect((await target.run(['plan', '--allow', 'delete', '--out', planFile])).status).toBe(2);
    target.emulator.editWorkflow(id, (w) => {
      w.name = 'monthly usage report (edited)';
    });
    const stale = await target.run(['sync', '--allow', 'delete', '--plan', planFile]);
    expect(stale.status).toBe(2);
    expect(stale.stderr).toContain(`${GONE}: the workflow on the service changed since the plan was made`);
    expect(writes(stale)).toEqual([]);
    expect(target.stored()).toContain(GONE);
  });

  it('a reviewed plan applied as it was: deleted', async () => {
    const { target, id } = await syncedThenRemoved();
    const planFile = join(target.cwd, 'plan.json');
    expect((await target.run(['plan', '--allow', 'delete', '--out', planFile])).status).toBe(2);
    const synced = await target.run(['sync', '--allow', 'delete', '--plan', planFile]);
    expect(synced.status).toBe(0);
    expect(writes(synced)).toEqual([`DELETE /v1/workflows/${id}`]);
  });

  it('a tampered plan is refused: an item that was not planned as a delete is stale', async () => {
    const { target } = await syncedThenRemoved();
    const planFile = join(target.cwd, 'plan.json');
    expect((await target.run(['plan', '--out', planFile])).status).toBe(6);
    const plan = JSON.parse(readFileSync(planFile, 'utf8'));
    for (const item of plan.items) if (item.identifier === GONE) item.action = 'delete';
    writeFileSync(planFile, JSON.stringify(plan));
    const refused = await target.run(['sync', '--plan', planFile]);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toContain(`${GONE}: was "delete" in the plan, is "orphaned" now`);
    expect(writes(refused)).toEqual([]);
  });

  it('a Production key: exit 4 before any write, state and service untouched', async () => {
    const { target } = await syncedThenRemoved();
    const before = target.state();
    for (const args of [
      ['plan', '--allow', 'delete'],
      ['sync', '--allow', 'delete'],
    ]) {
      const run = await target.run(args, { DEV_KEY: PROD_KEY });
      expect(run.status, args.join(' ')).toBe(4);
      expect(run.stderr).toContain('only a Development-environment key may write them');
      expect(run.stderr).toContain(`(delete ${GONE})`);
      expect(writes(run)).toEqual([]);
    }
    expect(target.state()).toEqual(before);
    expect(target.stored()).toContain(GONE);
  });
});

describe('without state: a pull request that removes a file (--base)', () => {
  it("deleted when the service holds the base's version; a workflow no base defined is never touched", async () => {
    const target = await startTarget();
    git(target.cwd, 'init', '-q', '-b', 'main');
    git(target.cwd, 'add', '-A');
    git(target.cwd, 'commit', '-q', '-m', 'workflows');
    expect((await target.run(['sync'])).status).toBe(0);
    // CI keeps no state; someone created another workflow in the dashboard, which no file defines.
    rmSync(target.statePath);
    const created = await fetch(`${target.emulator.url}/v1/workflows`, {
      method: 'POST',
      headers: { authorization: `ApiKey ${target.emulator.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        name: 'dashboard only',
        notificationGroupId: target.emulator.notificationGroupId,
        steps: [{ template: { type: 'in_app', content: 'Hi' } }],
      }),
    });
    expect(created.status).toBe(201);
    git(target.cwd, 'checkout', '-q', '-b', 'remove');
    git(target.cwd, 'rm', '-q', `workflows/${GONE}.yaml`);
    git(target.cwd, 'commit', '-q', '-m', 'remove');

    const planned = await target.run(['plan', '--base', 'main', '--allow', 'delete', '--format', 'json']);
    expect(planned.status).toBe(2);
    const items = JSON.parse(planned.stdout).items as Array<{
      identifier: string;
      action: string;
      file?: string;
    }>;
    expect(items.filter((i) => i.action !== 'in-sync')).toEqual([
      expect.objectContaining({ identifier: GONE, action: 'delete', file: `workflows/${GONE}.yaml` }),
    ]);
    const synced = await target.run(['sync', '--base', 'main', '--allow', 'delete']);
    expect(synced.status).toBe(0);
    expect(writes(synced)).toEqual([expect.stringMatching(/^DELETE \/v1\/workflows\/[0-9a-f]{24}$/)]);
    expect(target.stored()).toEqual(
      ['dashboard-only', ...EXAMPLE_IDENTIFIERS.filter((i) => i !== GONE)].sort(),
    );
    // Without --base nothing tells wfsync it ever knew the removed one: nothing more to do.
    expect(writes(await target.run(['sync', '--allow', 'delete']))).toEqual([]);
    expect(target.stored()).toContain('dashboard-only');
  });
});

describe('a removed file, delete not allowed (the default)', () => {
  it('orphaned (exit 6) as before, saying how to allow it; sync sends nothing and keeps state', async () => {
    const { target } = await syncedThenRemoved();
    const planned = await target.run(['plan']);
    expect(planned.status).toBe(6);
    expect(planned.stdout).toContain(
      'next: no definition has this identifier any more, and target `dev` does not allow sync to delete: add ' +
        "`delete` to the target's `allow` in wfsync.config.yaml (or add `--allow delete` to the command) for sync to " +
        `delete it, or delete it in the dashboard, then run \`wfsync state forget ${GONE} --target dev\`.`,
    );
    const synced = await target.run(['sync']);
    expect(synced.status).toBe(6);
    expect(writes(synced)).toEqual([]);
    expect(target.stored()).toEqual(EXAMPLE_IDENTIFIERS);
    expect(Object.keys(target.state()!.workflows)).toContain(GONE);
  });
});

describe('against the contract fake (written from the contract, not the emulator)', () => {
  const closers: Array<() => Promise<void> | void> = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  it("the DELETE's answer lost: the read back finds it gone, deleted, state dropped; the next sync writes nothing", async () => {
    const fake = await startContractFake({
      dropResponse: { method: 'DELETE', path: /^\/v1\/workflows\//, nth: 1 },
    });
    closers.push(() => fake.close());
    const cwd = makeProject(
      contractFakeProject(fake, ['password-reset', 'trial-ending'], ['create', 'delete']),
    );
    closers.push(() => rmSync(cwd, { recursive: true, force: true }));
    const run = (args: string[]) =>
      runCli([...args, '--target', 'fake'], { cwd, env: { FAKE_KEY: fake.devKey } });
    expect((await run(['sync'])).status).toBe(0);
    rmSync(join(cwd, 'workflows/trial-ending.yaml'));

    const synced = await run(['sync']);
    expect(synced.status).toBe(0);
    expect(synced.stdout).toContain('its answer was lost, a read found it gone');
    expect(fake.workflows().map((w) => (w.triggers as Array<{ identifier: string }>)[0]!.identifier)).toEqual(
      ['password-reset'],
    );
    const state = JSON.parse(readFileSync(join(cwd, '.wfsync/state/fake.json'), 'utf8'));
    expect(Object.keys(state.workflows)).toEqual(['password-reset']);
    const before = fake.requests.length;
    expect((await run(['sync'])).status).toBe(0);
    expect(fake.requests.slice(before).filter((r) => r.method !== 'GET')).toEqual([]);
  });
});
