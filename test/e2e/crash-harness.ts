/**
 * The SIGKILL harness of the crash tests (crash.test.ts for creates, crash-update.test.ts for updates): a seeded
 * PRNG, a sync killed at a moment counted from a request the emulator answered, and the checks after any run.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, expect } from 'vitest';
import { type EmulatorOptions, type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { checkState } from '../../src/state/check.js';
import { syntheticDefinition } from '../bench/synthetic.mjs';
import { useTempProjects } from '../helpers/temp-project.js';
import { BIN, ROOT, type RunResult } from './helpers.js';

/** mulberry32: a small seeded PRNG, so a failure can be replayed. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Give the emulator's `onRequest` to this: the current run's wait for its kill timer's start. */
export const killTimer: { onRequest?: (method: string) => void } = {};

/**
 * Start the CLI; SIGKILL it `killAfterMs` after the emulator answered its first request, or with `fromFirstPost` its
 * first POST (unless it ended first). Counting from a request rather than the spawn puts the kills among lookups,
 * creates and state writes instead of in start-up, which takes a varying few hundred ms; counting from the first
 * POST lands kills among creates however long the lookups take on a loaded machine.
 */
export async function syncKilledAt(
  cwd: string,
  env: Record<string, string>,
  kill: { afterMs: number; fromFirstPost: boolean; method?: string },
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
    killTimer.onRequest = (method) => {
      if (!kill.fromFirstPost || method === (kill.method ?? 'POST')) resolve();
    };
  });
  await Promise.race([started.then(() => sleep(kill.afterMs)), ended]);
  killTimer.onRequest = undefined;
  child.kill('SIGKILL');
  const result = await ended;
  // Requests the killed process left in flight still finish on the emulator (it is the service: it does not know
  // the client died). Let them land, so they cannot start the next run's kill timer.
  await sleep(100);
  return result;
}

/** After any run, finished or killed: a readable state file whose every entry is true; no duplicate anywhere. */
export function expectConsistent(statePath: string, em: RunningEmulator, after: string): void {
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

/**
 * Registers the cleanup of each test's emulator and project, and returns what starts them: an emulator whose
 * requests drive killTimer, and a project of `count` synthetic workflows whose `dev` target is that emulator, with
 * these extra target settings (one YAML line each, e.g. `concurrency: 8`).
 */
export function useCrashRuns(): (options: {
  emulator: Omit<EmulatorOptions, 'onRequest'>;
  count: number;
  settings: readonly string[];
}) => Promise<{ emulator: RunningEmulator; cwd: string; env: Record<string, string> }> {
  const emulators: RunningEmulator[] = [];
  const makeProject = useTempProjects('wfsync-e2e-');
  afterEach(async () => {
    await Promise.all(emulators.splice(0).map((em) => em.close()));
  });
  return async ({ emulator: options, count, settings }) => {
    const em = await startEmulator({
      ...options,
      onRequest: (record) => killTimer.onRequest?.(record.method),
    });
    emulators.push(em);
    const files: Record<string, string> = {};
    for (let i = 0; i < count; i++) files[`workflows/wf-${i}.yaml`] = syntheticDefinition(i);
    const cwd = makeProject(files);
    cpSync(join(ROOT, 'schemas'), join(cwd, 'schemas'), { recursive: true });
    const target = ['  dev:', `    baseUrl: ${em.url}`, '    apiKeyEnv: DEV_KEY'];
    target.push(
      `    notificationGroupId: ${em.notificationGroupId}`,
      ...settings.map((line) => `    ${line}`),
    );
    writeFileSync(join(cwd, 'wfsync.config.yaml'), ['targets:', ...target, ''].join('\n'));
    return { emulator: em, cwd, env: { DEV_KEY: em.apiKey } };
  };
}
