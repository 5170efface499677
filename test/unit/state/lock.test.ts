import { mkdir, readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WfsyncError } from '../../../src/errors.js';
import { ExitCode } from '../../../src/exit-codes.js';
import { acquireLock, type StateLock } from '../../../src/state/lock.js';
import { commandFromArgv, type LockHolder } from '../../../src/state/lock-holder.js';
import { deadPid, tempDir } from './helpers.js';

const held: StateLock[] = [];
afterEach(async () => {
  await Promise.all(held.splice(0).map((l) => l.release()));
});

async function lock(statePath: string, options: Parameters<typeof acquireLock>[1]): Promise<StateLock> {
  const acquired = await acquireLock(statePath, { retryMs: 5, ...options });
  held.push(acquired);
  return acquired;
}

async function statePath(): Promise<string> {
  return join(await tempDir(), 'state', 'prod.json');
}

async function writeHolder(path: string, holder: Partial<LockHolder>, ageMs = 0): Promise<void> {
  const full = {
    pid: 1,
    hostname: hostname(),
    startedAt: '2025-01-02T03:04:05.000Z',
    command: 'wfsync sync',
  };
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, JSON.stringify({ ...full, ...holder }));
  const when = new Date(Date.now() - ageMs);
  await utimes(path, when, when);
}

async function failure(promise: Promise<unknown>): Promise<WfsyncError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WfsyncError);
  return error as WfsyncError;
}

describe('acquireLock', () => {
  it('creates the lock file next to the state file with the holder, and removes it on release', async () => {
    const path = await statePath();
    const acquired = await lock(path, { timeoutMs: 0, command: 'wfsync sync' });
    expect(acquired.path).toBe(`${path}.lock`);
    const content = JSON.parse(await readFile(acquired.path, 'utf8'));
    expect(content).toEqual({
      pid: process.pid,
      hostname: hostname(),
      startedAt: expect.any(String),
      command: 'wfsync sync',
    });
    expect(acquired.holder).toEqual(content);
    await acquired.release();
    await acquired.release();
    expect(await readdir(join(path, '..'))).toEqual([]);
  });

  it('fails at once with timeout 0, naming the holder and how to remove a stale lock', async () => {
    const path = await statePath();
    const first = await lock(path, { timeoutMs: 0, command: 'wfsync sync' });
    const error = await failure(lock(path, { timeoutMs: 0 }));
    expect(error.exitCode).toBe(ExitCode.Failure);
    expect(error.message).toBe(
      `the state is locked by pid ${process.pid} on host ${hostname()} (wfsync sync, since ${first.holder.startedAt}): ` +
        'another wfsync is working on this target. If that process is no longer running (it was on another host, ' +
        `or its pid was reused), delete ${path}.lock by hand.`,
    );
  });

  it('says how long it waited when the timeout runs out', async () => {
    const path = await statePath();
    await lock(path, { timeoutMs: 0 });
    const error = await failure(lock(path, { timeoutMs: 30 }));
    expect(error.message).toContain('(waited 30ms; raise it with --lock-timeout)');
  });

  it('waits for the holder, announcing it once, and takes the lock when it is released', async () => {
    const path = await statePath();
    const first = await lock(path, { timeoutMs: 0, command: 'wfsync sync' });
    // Release only once the waiter is known to be waiting: no timing involved.
    const onWait = vi.fn((_holder: LockHolder) => void first.release());
    const second = await lock(path, { timeoutMs: 60_000, onWait });
    expect(onWait).toHaveBeenCalledTimes(1);
    expect(onWait.mock.calls[0]?.[0]).toEqual(first.holder);
    expect(JSON.parse(await readFile(second.path, 'utf8')).startedAt).toBe(second.holder.startedAt);
  });

  it('stops waiting when aborted', async () => {
    const path = await statePath();
    await lock(path, { timeoutMs: 0 });
    const controller = new AbortController();
    const reason = new Error('interrupted');
    const waiting = lock(path, {
      timeoutMs: 60_000,
      signal: controller.signal,
      onWait: () => controller.abort(reason),
    });
    await expect(waiting).rejects.toBe(reason);
  });

  it('takes over at once the lock of a process of this host that is gone', async () => {
    const path = await statePath();
    const pid = await deadPid();
    await writeHolder(`${path}.lock`, { pid });
    const onWait = vi.fn();
    const acquired = await lock(path, { timeoutMs: 0, onWait });
    expect(acquired.holder.pid).toBe(process.pid);
    expect(onWait).not.toHaveBeenCalled();
    expect((await readdir(join(path, '..'))).sort()).toEqual(['prod.json.lock']);
  });

  it('respects the lock of another host while its heartbeat is fresh, and takes it over once it is old', async () => {
    const path = await statePath();
    await writeHolder(`${path}.lock`, { hostname: 'build-agent-7', pid: process.pid }, 0);
    const error = await failure(lock(path, { timeoutMs: 0, staleMs: 60_000 }));
    expect(error.message).toContain('locked by pid');
    expect(error.message).toContain('on host build-agent-7');

    await writeHolder(`${path}.lock`, { hostname: 'build-agent-7', pid: process.pid }, 120_000);
    const acquired = await lock(path, { timeoutMs: 0, staleMs: 60_000 });
    expect(acquired.holder.hostname).toBe(hostname());
  });

  it('treats an empty lock file as being written, until it is old enough to be a crash', async () => {
    const path = await statePath();
    await mkdir(join(path, '..'), { recursive: true });
    await writeFile(`${path}.lock`, '');
    const error = await failure(lock(path, { timeoutMs: 0, staleMs: 60_000 }));
    expect(error.message).toContain('locked by a process that has not written its details');
    const old = new Date(Date.now() - 120_000);
    await utimes(`${path}.lock`, old, old);
    await expect(lock(path, { timeoutMs: 0, staleMs: 60_000 })).resolves.toBeDefined();
  });

  it('clears the takeover guard of a taker that died mid-takeover', async () => {
    const path = await statePath();
    const pid = await deadPid();
    await writeHolder(`${path}.lock`, { pid });
    await writeHolder(`${path}.lock.takeover`, { pid });
    const acquired = await lock(path, { timeoutMs: 0 });
    expect(acquired.holder.pid).toBe(process.pid);
    expect((await readdir(join(path, '..'))).sort()).toEqual(['prod.json.lock']);
  });

  it('refreshes the heartbeat while held', async () => {
    const path = await statePath();
    const acquired = await lock(path, { timeoutMs: 0, heartbeatMs: 10 });
    const old = new Date(Date.now() - 3_600_000);
    await utimes(acquired.path, old, old);
    await vi.waitFor(
      async () => {
        expect((await stat(acquired.path)).mtimeMs).toBeGreaterThan(old.getTime() + 1_000);
      },
      { timeout: 10_000, interval: 10 },
    );
  });

  it('does not remove a lock that is no longer its own on release', async () => {
    const path = await statePath();
    const acquired = await lock(path, { timeoutMs: 0 });
    await writeHolder(acquired.path, { hostname: 'other-host', pid: 4242 });
    await acquired.release();
    expect(JSON.parse(await readFile(acquired.path, 'utf8')).hostname).toBe('other-host');
  });
});

describe('commandFromArgv', () => {
  it('keeps the subcommand and never a flag or what follows it', () => {
    expect(commandFromArgv(['node', 'bin/wfsync.cjs', 'sync', '--api-key', 'secret'])).toBe('wfsync sync');
    expect(commandFromArgv(['node', 'wfsync', 'state', 'rebuild', 'extra'])).toBe('wfsync state rebuild');
    expect(commandFromArgv(['node', 'wfsync', '--api-key=secret', 'sync'])).toBe('wfsync');
  });
});
