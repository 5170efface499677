import { spawn } from 'node:child_process';
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { checkState } from '../../src/state/check.js';
import { syntheticDefinition } from '../bench/synthetic.mjs';
import { BIN, makeProject, ROOT, type RunResult, runCli } from './helpers.js';

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

/** mulberry32: a small seeded PRNG, so a failure can be replayed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let emulator: RunningEmulator | undefined;
let project: string | undefined;
/** The current run's wait for its kill timer's start: its first answered request, or its first POST. */
let onRequest: ((method: string) => void) | undefined;

afterEach(async () => {
  await emulator?.close();
  emulator = undefined;
  if (project !== undefined) rmSync(project, { recursive: true, force: true });
  project = undefined;
});

/**
 * Start the CLI; SIGKILL it `killAfterMs` after the emulator answered its first request, or with `fromFirstPost` its
 * first POST (unless it ended first). Counting from a request rather than the spawn puts the kills among lookups,
 * creates and state writes instead of in start-up, which takes a varying few hundred ms; counting from the first
 * POST lands kills among creates however long the lookups take on a loaded machine.
 */
async function syncKilledAt(
  cwd: string,
  env: Record<string, string>,
  kill: { afterMs: number; fromFirstPost: boolean },
): Promise<RunResult> {
  const child = spawn(process.execPath, [BIN, 'sync', '--target', 'dev', '--quiet'], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', TZ: 'UTC', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
  });
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  const ended = new Promise<RunResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (status, signal) => resolve({ status, signal, stdout, stderr }));
  });
  const started = new Promise<void>((resolve) => {
    onRequest = (method) => {
      if (!kill.fromFirstPost || method === 'PUT') resolve();
    };
  });
  await Promise.race([started.then(() => sleep(kill.afterMs)), ended]);
  onRequest = undefined;
  child.kill('SIGKILL');
  const result = await ended;
  // Requests the killed process left in flight still finish on the emulator (it is the service: it does not know
  // the client died). Let them land, so they cannot start the next run's kill timer.
  await sleep(100);
  return result;
}

/** After any run, finished or killed: a readable state file whose every entry is true; no duplicate anywhere. */
function expectConsistent(statePath: string, em: RunningEmulator, after: string): void {
  const stored = em.workflows();
  const names = stored.map((w) => w.name);
  expect(new Set(names).size, `a duplicate was created (${after})`).toBe(names.length);
  if (!existsSync(statePath)) return;
  const checked = checkState(JSON.parse(readFileSync(statePath, 'utf8')));
  if ('problem' in checked) throw new Error(`unreadable state file after ${after}: ${checked.problem}`);
  const byId = new Map(stored.map((w) => [w._id, w.triggers[0]!.identifier]));
  for (const [identifier, entry] of Object.entries(checked.state.workflows)) {
    expect(byId.get(entry.id), `state entry ${identifier} (${after})`).toBe(identifier);
  }
}

describe('crash safety: a sync of updates SIGKILLed at random moments, with dropped responses', () => {
  it(`${COUNT} workflows updated, ${KILLS} kills: every copy equals its file, no create, no lost template`, async () => {
    const random = prng(SEED);
    emulator = await startEmulator({ seed: SEED, onRequest: (record) => onRequest?.(record.method) });
    const files: Record<string, string> = {};
    for (let i = 0; i < COUNT; i++) files[`workflows/wf-${i}.yaml`] = syntheticDefinition(i);
    const cwd = makeProject(files);
    project = cwd;
    cpSync(join(ROOT, 'schemas'), join(cwd, 'schemas'), { recursive: true });
    writeFileSync(
      join(cwd, 'wfsync.config.yaml'),
      [
        'targets:',
        '  dev:',
        `    baseUrl: ${emulator.url}`,
        '    apiKeyEnv: DEV_KEY',
        `    notificationGroupId: ${emulator.notificationGroupId}`,
        '    concurrency: 4',
        '    rateLimit: 100000',
        '    allow: [create, update]',
        '',
      ].join('\n'),
    );
    const env = { DEV_KEY: emulator.apiKey };
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
      const result = await syncKilledAt(cwd, env, { afterMs: delayMs, fromFirstPost });
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
