import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonOutput } from '../helpers/json-output.js';
import { createOutside, DEV_KEY, PROD_KEY, PROJECT, pendingFor, setup } from './promotion-harness.js';

/**
 * Promotion to Production (issue 28), the built CLI against the emulator: a `development` target synced as any, and a
 * `production` target promoted from it through the changes API (the world: promotion-harness.ts).
 */

describe('promotion from development to production', () => {
  it('plans 5 promotes (exit 2, the Production key only reads), applies exactly those 5, then does nothing', async () => {
    const { emulator, cwd, run } = await setup();
    expect((await run(['sync', '--target', 'development', '--quiet'])).status).toBe(0);
    const outside = await createOutside(emulator, 'another team');

    const planned = await run(['plan', '--target', 'production', '--format', 'json', '--quiet']);
    expect(planned.status).toBe(2);
    const plan = parseJsonOutput('plan', planned.stdout);
    expect(plan.items.map((i: { identifier: string; action: string }) => [i.identifier, i.action])).toEqual(
      PROJECT.map((id) => [id, 'promote']),
    );
    expect(plan.summary).toMatchObject({ promote: 5, inSync: 0 });
    expect(planned.seen.filter((s) => s.method !== 'GET')).toEqual([]);
    expect(planned.seen.some((s) => s.key === 'production')).toBe(true);
    // The pull request comment and the annotations show the production plan as for any target.
    const comment = await run(['plan', '--target', 'production', '--format', 'markdown', '--quiet']);
    expect(comment.status).toBe(2);
    expect(comment.stdout).toContain('| ↑ promote | 5 |');
    expect(comment.stdout).toContain(
      '- Once approved, `wfsync sync --target production` will promote 5 workflows to Production (their pending changes only): `comment-mention`, `invoice-overdue`, `order-shipped`, `password-reset`, `trial-ending`.',
    );
    const annotations = await run(['plan', '--target', 'production', '--format', 'github', '--quiet']);
    expect(annotations.stdout).toContain(
      '::notice file=workflows/order-shipped.yaml,title=wfsync plan (promote)::order-shipped: promote',
    );

    const synced = await run(['sync', '--target', 'production', '--format', 'json', '--quiet']);
    expect(synced.status).toBe(0);
    const result = parseJsonOutput('sync', synced.stdout);
    expect(result.summary).toMatchObject({ promoted: 5, failed: 0 });
    expect(synced.seen.filter((s) => s.key === 'production' && s.method !== 'GET')).toEqual([]);
    const applied = synced.seen.filter((s) => s.method === 'POST');
    expect(applied).toHaveLength(5);
    expect(
      applied.every((s) => s.key === 'development' && /^\/v1\/changes\/[0-9a-f]{24}\/apply$/.test(s.path)),
    ).toBe(true);
    // Another team's pending change stays pending; the project's are gone.
    expect([...pendingFor(emulator)]).toEqual([outside]);
    const copies = emulator.productionWorkflows();
    expect(copies.map((w) => w.triggers[0]!.identifier).sort()).toEqual(PROJECT);
    const sources = new Map(emulator.workflows().map((w) => [w._id, w.triggers[0]!.identifier]));
    for (const copy of copies) expect(sources.get(String(copy._parentId))).toBe(copy.triggers[0]!.identifier);
    // The production target's state records Production's ids; the development target's state is left as it was.
    const state = JSON.parse(readFileSync(join(cwd, '.wfsync/state/production.json'), 'utf8'));
    expect(
      Object.fromEntries(
        Object.entries(state.workflows).map(([id, entry]) => [id, (entry as { id: string }).id]),
      ),
    ).toEqual(Object.fromEntries(copies.map((w) => [w.triggers[0]!.identifier, w._id])));

    const again = await run(['sync', '--target', 'production', '--quiet']);
    expect(again.status).toBe(0);
    expect(again.seen.filter((s) => s.method !== 'GET')).toEqual([]);
    const replanned = await run(['plan', '--target', 'production', '--quiet']);
    expect(replanned.status).toBe(0);
    expect(replanned.stdout).toContain('No changes. 5 workflows in sync.');
  });

  it('a dashboard edit in Development after its sync: that workflow needs a person (exit 6) and is not promoted', async () => {
    const { emulator, run } = await setup();
    expect((await run(['sync', '--target', 'development', '--quiet'])).status).toBe(0);
    const edited = emulator.editWorkflow('order-shipped', (w) => {
      w.description = 'edited in the dashboard';
    });

    const planned = await run(['plan', '--target', 'production', '--quiet']);
    expect(planned.status).toBe(6);
    expect(planned.stdout).toContain('~ drifted  order-shipped');
    expect(planned.stdout).toContain('promoting would ship an unreviewed edit');

    const synced = await run(['sync', '--target', 'production', '--format', 'json', '--quiet']);
    expect(synced.status).toBe(6);
    const result = parseJsonOutput('sync', synced.stdout);
    expect(result.summary).toMatchObject({ promoted: 4, drifted: 1 });
    expect(pendingFor(emulator)).toEqual(new Set([edited._id]));
    expect(emulator.productionWorkflows().map((w) => w.triggers[0]!.identifier)).not.toContain(
      'order-shipped',
    );
  });

  it('an edit of a field the file does not declare is caught by the recorded version', async () => {
    const { emulator, run } = await setup();
    expect((await run(['sync', '--target', 'development', '--quiet'])).status).toBe(0);
    emulator.editWorkflow('trial-ending', (w) => {
      w.data = { undeclared: true };
    });
    const planned = await run(['plan', '--target', 'production', '--quiet']);
    expect(planned.status).toBe(6);
    expect(planned.stdout).toContain('~ drifted  trial-ending');
    expect(planned.stdout).toContain('in fields the file does not declare');
  });

  it('not synced to development yet: "sync development first" (exit 6); nothing is applied', async () => {
    const { emulator, run } = await setup();
    const planned = await run(['plan', '--target', 'production', '--quiet']);
    expect(planned.status).toBe(6);
    expect(planned.stdout).toContain('? missing remotely  order-shipped');
    expect(planned.stdout).toContain('sync it first (`wfsync sync --target development`)');
    const synced = await run(['sync', '--target', 'production', '--quiet']);
    expect(synced.status).toBe(6);
    expect(synced.seen.filter((s) => s.method === 'POST')).toEqual([]);
    expect(emulator.productionWorkflows()).toEqual([]);
  });

  it('finds the project’s pending changes behind pages of other changes', async () => {
    const { emulator, run } = await setup();
    expect((await run(['sync', '--target', 'development', '--quiet'])).status).toBe(0);
    // Newest first: 230 newer changes of other workflows push the project's to the third page of 100.
    for (let n = 0; n < 230; n++) await createOutside(emulator, `other ${n}`);
    const synced = await run(['sync', '--target', 'production', '--format', 'json', '--quiet']);
    expect(synced.status).toBe(0);
    expect(parseJsonOutput('sync', synced.stdout).summary).toMatchObject({ promoted: 5 });
    const pages = synced.seen.filter((s) => s.path.startsWith('/v1/changes?'));
    expect(pages.map((s) => new URL(s.path, 'http://x').searchParams.get('page'))).toEqual(['0', '1', '2']);
    expect(pendingFor(emulator).size).toBe(230);
  });

  it('sync --plan: applies exactly a reviewed promotion; refused (exit 2, nothing applied) once Development changed', async () => {
    const { emulator, run } = await setup();
    expect((await run(['sync', '--target', 'development', '--quiet'])).status).toBe(0);
    expect((await run(['plan', '--target', 'production', '--out', 'reviewed.json', '--quiet'])).status).toBe(
      2,
    );
    emulator.editWorkflow('trial-ending', (w) => {
      w.data = { undeclared: true };
    });
    const stale = await run(['sync', '--target', 'production', '--plan', 'reviewed.json', '--quiet']);
    expect(stale.status).toBe(2);
    expect(stale.stderr).toContain(
      'trial-ending: the Development workflow it promotes changed since the plan was made',
    );
    expect(stale.seen.filter((s) => s.method === 'POST')).toEqual([]);
    expect(emulator.productionWorkflows()).toEqual([]);

    const { emulator: fresh, run: again } = await setup();
    expect((await again(['sync', '--target', 'development', '--quiet'])).status).toBe(0);
    expect(
      (await again(['plan', '--target', 'production', '--out', 'reviewed.json', '--quiet'])).status,
    ).toBe(2);
    const applied = await again(['sync', '--target', 'production', '--plan', 'reviewed.json', '--quiet']);
    expect(applied.status).toBe(0);
    expect(fresh.productionWorkflows()).toHaveLength(5);
  });

  it("doctor: the promoted target's Production key is what it should be; a Development key there is a warning", async () => {
    const { run } = await setup();
    const fine = await run(['doctor', '--target', 'production']);
    expect(fine.status).toBe(0);
    expect(fine.stdout).toMatch(
      /ok {4}key's environment +"Production" \(derived from another one\): target "production" is promoted from "development", and its key only reads/,
    );
    const wrong = await run(['doctor', '--target', 'production'], { PROD_KEY: DEV_KEY });
    expect(wrong.stdout).toContain(
      'warn  key\'s environment    "Development" is not derived from another environment: target "production" is promoted from "development" and needs a Production key',
    );
  });

  it('a Production key on the development side is refused before any write (exit 4)', async () => {
    const { emulator, run } = await setup();
    const refused = await run(['sync', '--target', 'production'], { DEV_KEY: PROD_KEY });
    expect(refused.status).toBe(4);
    expect(refused.stderr).toContain(
      '"production" promotes from "development", which needs a Development key',
    );
    expect(refused.seen.filter((s) => s.method !== 'GET')).toEqual([]);
    expect(emulator.productionWorkflows()).toEqual([]);
  });
});
