import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { checkState } from '../../src/state/check.js';
import { syntheticDefinition } from '../bench/synthetic.mjs';
import { BIN, makeProject, ROOT, type RunResult, runCli } from './helpers.js';

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
      if (!kill.fromFirstPost || method === 'POST') resolve();
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

describe('crash safety: sync SIGKILLed at random moments', () => {
  it(`${COUNT} workflows, ${KILLS} kills, then a full run: each workflow exactly once`, async () => {
    const random = prng(SEED);
    emulator = await startEmulator({
      seed: SEED,
      faults: { latencyMs: [5, 20] },
      onRequest: (record) => onRequest?.(record.method),
    });
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
        '    concurrency: 8',
        // No client-side cap: the emulator has no rate limit, and kills should meet many requests in flight.
        '    rateLimit: 100000',
        '',
      ].join('\n'),
    );
    mkdirSync(join(cwd, '.wfsync'), { recursive: true });
    const env = { DEV_KEY: emulator.apiKey };
    const statePath = join(cwd, '.wfsync/state/dev.json');

    let killedWhileCreating = 0;
    for (let kill = 1; kill <= KILLS; kill++) {
      const postsBefore = emulator.requests().filter((r) => r.method === 'POST').length;
      // Every other kill counts from the first POST, so some land among creates whatever the machine's load.
      const fromFirstPost = kill % 2 === 0;
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
