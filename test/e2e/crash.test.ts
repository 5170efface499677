import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkState } from '../../src/state/check.js';
import { expectConsistent, prng, syncKilledAt, useCrashRuns } from './crash-harness.js';
import { runCli } from './helpers.js';

/**
 * SIGKILL a sync of 200 workflows at random moments (a seeded PRNG: 0–1500 ms after the run's first request, or
 * 0–300 ms after its first POST for every other kill, against an emulator answering in 5–20 ms at concurrency 8), run
 * it again after each kill, then once to completion. Whatever moment the kill lands on (start-up, lookups, a create in flight, a state write), the state
 * file stays readable and nothing is ever created twice; at the end the service holds each workflow exactly once
 * and state records all of them. Only correctness is asserted, never timing.
 */

const COUNT = 200;
const KILLS = 15;
const SEED = 20240501;

const startCrashRun = useCrashRuns();

describe('crash safety: sync SIGKILLed at random moments', () => {
  it(`${COUNT} workflows, ${KILLS} kills, then a full run: each workflow exactly once`, async () => {
    const random = prng(SEED);
    const { emulator, cwd, env } = await startCrashRun({
      emulator: { seed: SEED, faults: { latencyMs: [5, 20] } },
      count: COUNT,
      settings: [
        'concurrency: 8',
        // No client-side cap: the emulator has no rate limit, and kills should meet many requests in flight.
        'rateLimit: 100000',
      ],
    });
    mkdirSync(join(cwd, '.wfsync'), { recursive: true });
    const statePath = join(cwd, '.wfsync/state/dev.json');

    let killedWhileCreating = 0;
    for (let kill = 1; kill <= KILLS; kill++) {
      const postsBefore = emulator.requests().filter((r) => r.method === 'POST').length;
      // Every other kill, the first included, counts from the first POST, so some land among creates whatever the
      // machine's load: a first kill counted from the first request could come after a run that created everything.
      const fromFirstPost = kill % 2 === 1;
      const delayMs = Math.floor(random() * (fromFirstPost ? 300 : 1500));
      const result = await syncKilledAt(cwd, env, { afterMs: delayMs, fromFirstPost });
      const posts = emulator.requests().filter((r) => r.method === 'POST').length - postsBefore;
      if (result.signal === 'SIGKILL' && posts > 0) killedWhileCreating++;
      // A run that finished before its kill must have succeeded.
      if (result.signal === null) expect(result.status, result.stdout + result.stderr).toBe(0);
      expectConsistent(
        statePath,
        emulator,
        `kill ${kill} at ${delayMs} ms after the first ${fromFirstPost ? 'POST' : 'request'}`,
      );
    }
    // The test is only worth something if kills hit creates in flight.
    expect(killedWhileCreating).toBeGreaterThan(0);

    const final = await runCli(['sync', '--target', 'dev', '--quiet'], { cwd, env });
    expect(final.stderr).toBe('');
    expect(final.stdout).toMatch(/^Sync: \d+ created, \d+ in sync, 0 drifted, 0 failed, 0 skipped\.$/m);
    expect(final.status).toBe(0);
    expectConsistent(statePath, emulator, 'the final run');

    const names = emulator.workflows().map((w) => w.name);
    expect(names.sort()).toEqual(Array.from({ length: COUNT }, (_, i) => `bench workflow ${i}`).sort());
    const state = checkState(JSON.parse(readFileSync(statePath, 'utf8')));
    if ('problem' in state) throw new Error(state.problem);
    expect(Object.keys(state.state.workflows)).toHaveLength(COUNT);
    expect(state.state.pending).toEqual({});
    expect(existsSync(`${statePath}.lock`)).toBe(false);

    // And the service agrees: nothing left to do, nothing sent.
    const before = emulator.requests().length;
    const plan = await runCli(['plan', '--target', 'dev', '--quiet'], { cwd, env });
    expect(plan.stdout).toContain(`No changes. ${COUNT} workflows in sync.`);
    expect(plan.status).toBe(0);
    expect(
      emulator
        .requests()
        .slice(before)
        .filter((r) => r.method === 'POST'),
    ).toEqual([]);
  }, 120_000);
});
