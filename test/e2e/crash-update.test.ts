import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkState } from '../../src/state/check.js';
import { syntheticDefinition } from '../bench/synthetic.mjs';
import { expectConsistent, prng, syncKilledAt, useCrashRuns } from './crash-harness.js';
import { runCli } from './helpers.js';

/**
 * Issue 27: SIGKILL a sync that updates 20 workflows at random moments (a seeded PRNG: 0–800 ms after the run's first
 * request, or 0–150 ms after its first PUT for every other kill), while half the PUTs land and lose their response.
 * After every kill the state file is readable and nothing was created; once the service answers again one sync
 * converges (the journal's interrupted updates recorded or redone), every copy equals its file, every step keeps its
 * template, and the next sync writes nothing. Only correctness is asserted, never timing. The harness
 * (syncKilledAt, expectConsistent) is crash.test.ts's.
 */

const COUNT = 20;
const KILLS = 25;
const SEED = 20261207;

const startCrashRun = useCrashRuns();

describe('crash safety: a sync of updates SIGKILLed at random moments, with dropped responses', () => {
  it(`${COUNT} workflows updated, ${KILLS} kills: every copy equals its file, no create, no lost template`, async () => {
    const random = prng(SEED);
    const { emulator, cwd, env } = await startCrashRun({
      emulator: { seed: SEED },
      count: COUNT,
      settings: ['concurrency: 4', 'rateLimit: 100000', 'allow: [create, update]'],
    });
    const statePath = join(cwd, '.wfsync/state/dev.json');
    expect((await runCli(['sync', '--target', 'dev', '--quiet'], { cwd, env })).status).toBe(0);
    const templates = () =>
      new Map(emulator!.workflows().map((w) => [w.name, w.steps.map((s) => s._templateId as string)]));
    const before = templates();
    for (let i = 0; i < COUNT; i++)
      writeFileSync(
        join(cwd, 'workflows', `wf-${i}.yaml`),
        syntheticDefinition(i).replace('description: Synthetic', 'description: Edited synthetic'),
      );
    // Half the PUTs land and lose their response; every request takes 5–20 ms.
    emulator.setFaults({ latencyMs: [5, 20], resetAfterRate: 0.5, only: ['PUT'] });
    const posts = () => emulator!.requests().filter((r) => r.method === 'POST').length;
    const createdAtStart = posts();

    let killedWhileUpdating = 0;
    for (let kill = 1; kill <= KILLS; kill++) {
      const putsBefore = emulator.requests().filter((r) => r.method === 'PUT').length;
      const fromFirstPost = kill % 2 === 0;
      const delayMs = Math.floor(random() * (fromFirstPost ? 150 : 800));
      const result = await syncKilledAt(cwd, env, { afterMs: delayMs, fromFirstPost, method: 'PUT' });
      const puts = emulator.requests().filter((r) => r.method === 'PUT').length - putsBefore;
      if (result.signal === 'SIGKILL' && puts > 0) killedWhileUpdating++;
      expectConsistent(statePath, emulator, `kill ${kill} at ${delayMs} ms`);
      expect(posts(), `kill ${kill}: nothing is created`).toBe(createdAtStart);
    }
    expect(killedWhileUpdating).toBeGreaterThan(0);

    // The service answers again: one run finishes what is left.
    emulator.setFaults(undefined);
    const final = await runCli(['sync', '--target', 'dev', '--quiet'], { cwd, env });
    expect(final.stderr).toBe('');
    expect(final.stdout).toMatch(
      /^Sync: 0 created, (\d+ updated, )?\d+ in sync, 0 drifted, 0 failed, 0 skipped\.$/m,
    );
    expect(final.status).toBe(0);
    expect(posts()).toBe(createdAtStart);
    expect(templates()).toEqual(before);
    const state = checkState(JSON.parse(readFileSync(statePath, 'utf8')));
    if ('problem' in state) throw new Error(state.problem);
    expect(state.state.pending).toEqual({});
    for (const w of emulator.workflows()) expect(w.description).toMatch(/^Edited synthetic/);

    const writesBefore = emulator.requests().length;
    const again = await runCli(['sync', '--target', 'dev', '--quiet'], { cwd, env });
    expect(again.stdout).toContain(`Sync: 0 created, ${COUNT} in sync, 0 drifted, 0 failed, 0 skipped.`);
    expect(
      emulator
        .requests()
        .slice(writesBefore)
        .filter((r) => r.method !== 'GET'),
    ).toEqual([]);
  }, 240_000);
});
