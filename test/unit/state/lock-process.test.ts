import { type ChildProcess, fork } from 'node:child_process';
import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readState } from '../../../src/state/read.js';
import { buildForChild } from './child-build.js';
import { TARGET, tempDir } from './helpers.js';

/**
 * Real processes running the real code: the one end-to-end check that the lock's O_EXCL protocol excludes between
 * processes (its decisions are tested in-process, with a fake clock and process table, in lock-acquire.test.ts).
 */
let built: string;
beforeAll(async () => {
  built = await mkdtemp(join(tmpdir(), 'wfsync-state-child-'));
  await buildForChild(['src/state/lock.ts', 'src/state/store.ts'], built);
  for (const name of ['lock-child.mjs', 'writer-child.mjs']) {
    await copyFile(join(import.meta.dirname, 'children', name), join(built, name));
  }
});
afterAll(async () => {
  await rm(built, { recursive: true, force: true });
});

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

interface Message {
  type: 'ready' | 'acquired' | 'failed' | 'released';
  message?: string;
  holder?: { pid: number };
}

/** A child with an inbox: `next()` resolves with its next message (or rejects if it exits first). */
function start(script: string, args: string[]): { child: ChildProcess; next: () => Promise<Message> } {
  const child = fork(join(built, script), args, { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  children.push(child);
  const inbox: Message[] = [];
  const waiting: Array<{ resolve: (m: Message) => void; reject: (e: Error) => void }> = [];
  child.on('message', (m) => {
    const waiter = waiting.shift();
    if (waiter) waiter.resolve(m as Message);
    else inbox.push(m as Message);
  });
  child.on('exit', (code, signal) => {
    for (const w of waiting.splice(0))
      w.reject(new Error(`child exited (${code ?? signal}) before replying`));
  });
  const next = (): Promise<Message> => {
    const queued = inbox.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  };
  return { child, next };
}

async function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await new Promise<void>((resolve) => child.once('exit', () => resolve()));
}

async function holdingChild(statePath: string) {
  const started = start('lock-child.mjs', [statePath, '0']);
  expect((await started.next()).type).toBe('ready');
  started.child.send('go');
  expect(await started.next()).toMatchObject({ type: 'acquired', holder: { pid: started.child.pid } });
  return started;
}

describe('the state lock between processes', () => {
  it('lets exactly one of several processes racing for a stale lock take it', async () => {
    const statePath = join(await tempDir(), 'prod.json');
    const dead = await holdingChild(statePath);
    dead.child.kill('SIGKILL');
    await exited(dead.child);

    const racers = Array.from({ length: 6 }, () => start('lock-child.mjs', [statePath, '0']));
    for (const racer of racers) expect((await racer.next()).type).toBe('ready');
    for (const racer of racers) racer.child.send('go');
    const outcomes = await Promise.all(racers.map((r) => r.next()));
    const winners = outcomes.filter((o) => o.type === 'acquired');
    expect(winners).toHaveLength(1);
    for (const loser of outcomes.filter((o) => o.type !== 'acquired')) {
      expect(loser).toMatchObject({
        type: 'failed',
        message: expect.stringContaining('the state is locked by'),
      });
    }
    expect(await readdir(join(statePath, '..'))).toEqual(['prod.json.lock']);
  });

  it('never leaves a torn state file when the writer is SIGKILLed mid-write', async () => {
    const statePath = join(await tempDir(), 'prod.json');
    const writer = fork(join(built, 'writer-child.mjs'), [statePath], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    children.push(writer);
    let durable = -1;
    await new Promise<void>((resolve) => {
      writer.on('message', (i) => {
        durable = Math.max(durable, i as number);
        if (durable >= 40 && writer.kill('SIGKILL')) resolve();
      });
    });
    await exited(writer);
    const saved = await readState(statePath, TARGET);
    const count = Object.keys(saved.workflows).length;
    // Everything the writer was told was durable is there, in order, with nothing half-written.
    expect(count).toBeGreaterThan(durable);
    expect(Object.keys(saved.workflows)).toEqual(
      Array.from({ length: count }, (_, i) => `w-${String(i).padStart(6, '0')}`),
    );
  });
});
