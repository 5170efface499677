import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { FaultOptions } from '../../src/emulator/index.js';
import { EXAMPLE_IDENTIFIERS, startTarget, type Target } from './plan-sync-target.js';

/**
 * A sick network and a second sync: whatever happens, every workflow exists exactly once. Faults are seeded; the
 * retry settings leave room for the unlucky draws (10 attempts per request), and the client-side rate cap is
 * lifted so that only the emulator's faults shape the run.
 */

const RETRIES = ['retries: { maxAttempts: 10, budget: 200 }', 'rateLimit: 1000'];

/** Each workflow once on the service and in state, under its declared identifier. */
function expectEachOnce(target: Target): void {
  expect(target.stored()).toEqual(EXAMPLE_IDENTIFIERS);
  const names = target.emulator.workflows().map((w) => w.name);
  expect(new Set(names).size).toBe(names.length);
  const state = target.state()!;
  expect(Object.keys(state.workflows).sort()).toEqual(EXAMPLE_IDENTIFIERS);
  expect(state.pending).toEqual({});
  for (const workflow of target.emulator.workflows()) {
    expect(state.workflows[workflow.triggers[0]!.identifier]?.id).toBe(workflow._id);
  }
}

const FAULTS: Array<[string, FaultOptions, number]> = [
  ['lost responses (the create happened, its answer never arrived)', { resetAfterRate: 0.3 }, 11],
  ['500s', { errorRate: 0.3 }, 12],
  ['bursts of 429 with Retry-After', { rateLimitBurst: { every: 10, count: 1 } }, 13],
];

describe('sync under faults (seeded)', () => {
  it.each(FAULTS)('%s: every workflow created exactly once; exit 0', async (_, faults, seed) => {
    const target = await startTarget({ emulator: { seed, faults }, targetConfig: RETRIES });
    const sync = await target.run(['sync']);
    expect(sync.stdout).toContain('Sync: 9 created, 0 in sync, 0 drifted, 0 failed, 0 skipped.');
    expect(sync.status).toBe(0);
    // The faults did happen (otherwise this test proves nothing).
    expect(sync.requests.filter((r) => r.fault !== undefined).length).toBeGreaterThan(0);
    expectEachOnce(target);

    target.emulator.setFaults(undefined);
    const plan = await target.run(['plan']);
    expect(plan.stdout).toContain('No changes. 9 workflows in sync.');
    expect(plan.status).toBe(0);
    expect(plan.posts).toBe(0);
  });

  it('every fault at once, then a second sync on a healthy service: still each workflow once', async () => {
    const faults: FaultOptions = {
      resetAfterRate: 0.15,
      resetBeforeRate: 0.1,
      errorRate: 0.1,
      truncateBodyRate: 0.1,
      htmlErrorRate: 0.1,
    };
    const target = await startTarget({ emulator: { seed: 21, faults }, targetConfig: RETRIES });
    const first = await target.run(['sync']);
    expect(first.stderr).not.toContain('unexpected error');
    expect(new Set(first.requests.map((r) => r.fault).filter(Boolean)).size).toBeGreaterThan(2);
    // Whatever the first run could not finish (a create whose outcome it could not learn), the next one settles
    // on a healthy service; nothing is ever created twice.
    target.emulator.setFaults(undefined);
    const second = await target.run(['sync']);
    expect(second.status).toBe(0);
    expectEachOnce(target);
    expect(first.posts + second.posts).toBeGreaterThanOrEqual(9);
  });
});

describe('two syncs of one target at once', () => {
  it('one waits for the lock of the other: each workflow is created exactly once', async () => {
    const target = await startTarget({ emulator: { faults: { latencyMs: [20, 40] } } });
    const [a, b] = await Promise.all([target.run(['sync']), target.run(['sync'])]);
    expect([a.status, b.status]).toEqual([0, 0]);
    const created = [a, b].map((r) => Number(/^Sync: (\d+) created/m.exec(r.stdout)?.[1]));
    expect(created.sort()).toEqual([0, 9]);
    expect(target.emulator.requests().filter((r) => r.method === 'POST')).toHaveLength(9);
    expectEachOnce(target);
    expect(existsSync(`${target.statePath}.lock`)).toBe(false);
  });
});
