import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { WfsyncError } from '../../../src/errors.js';
import { acquireLock, type LockOptions } from '../../../src/state/lock.js';
import { commandFromArgv, type LockHolder } from '../../../src/state/lock-holder.js';
import {
  ALIVE_PID,
  DEAD_PID,
  type FakeLockEnv,
  fakeLockEnv,
  HOST,
  holder,
  hookedFs,
  lockText,
  OTHER_USERS_PID,
  OUR_PID,
  T0,
  writeLockFile,
} from '../../helpers/lock-fakes.js';
import { osError, tempDir } from './helpers.js';

/**
 * acquireLock's decisions, in-process: a fake clock, sleep, process table, timers and exit hook (lock-fakes.ts)
 * over real files in a temp dir. lock-process.test.ts keeps the one test between real processes.
 */

async function statePath(): Promise<string> {
  return join(await tempDir(), 'state', 'prod.json');
}

/** The holder acquireLock writes with the fake env, taken at `now`. */
function ours(now = T0, command = 'wfsync sync'): LockHolder {
  return { pid: OUR_PID, hostname: HOST, startedAt: new Date(now).toISOString(), command };
}

function acquire(path: string, env: FakeLockEnv, options: Partial<LockOptions> = {}) {
  return acquireLock(path, { timeoutMs: 0, command: 'wfsync sync', env, ...options });
}

async function failure(promise: Promise<unknown>): Promise<WfsyncError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WfsyncError);
  return error as WfsyncError;
}

function lockedBy(path: string, who: string, waited = ''): string {
  return (
    `the state is locked by ${who}: another wfsync is working on this target${waited}. If that process is no ` +
    `longer running (it was on another host, or its pid was reused), delete ${path}.lock by hand.`
  );
}

const ALIVE = `pid ${ALIVE_PID} on host ${HOST} (wfsync sync, since 2025-01-01T00:00:00.000Z)`;

async function files(path: string): Promise<string[]> {
  return (await readdir(dirname(path))).sort();
}

describe('acquireLock: a free lock', () => {
  it('creates the directory and a lock file holding our details, and releases it', async () => {
    const path = await statePath();
    const env = fakeLockEnv();
    const lock = await acquire(path, env);
    expect(lock.path).toBe(`${path}.lock`);
    expect(lock.holder).toEqual(ours());
    expect(await readFile(`${path}.lock`, 'utf8')).toBe(lockText(ours()));
    expect(env.sleeps).toEqual([]);
    await lock.release();
    expect(await files(path)).toEqual([]);
  });

  it('names the command from argv when none is given, never its flags', async () => {
    const lock = await acquireLock(await statePath(), { timeoutMs: 0, env: fakeLockEnv() });
    expect(lock.holder.command).toBe(commandFromArgv(process.argv));
    await lock.release();
  });

  it('refreshes the heartbeat through its own handle, every 5 s unless told otherwise', async () => {
    const path = await statePath();
    const fs = hookedFs();
    const env = fakeLockEnv({ fs });
    const lock = await acquire(path, env);
    const other = await acquire(join(dirname(path), 'other.json'), env, { heartbeatMs: 10 });
    expect(env.timers.map((t) => t.ms)).toEqual([5_000, 10]);

    env.clock.now = T0 + 7_000;
    env.timers[0]?.tick();
    const [handle] = fs.handles.get(`${path}.lock`) ?? [];
    expect(handle?.touches.map((t) => t.mtime)).toEqual([new Date(T0 + 7_000)]);
    await handle?.touches[0]?.done;
    expect((await stat(`${path}.lock`)).mtimeMs).toBe(T0 + 7_000);
    await Promise.all([lock.release(), other.release()]);
  });

  it('stops the heartbeat and its exit hook on release, once however often it is released', async () => {
    const path = await statePath();
    const fs = hookedFs();
    const env = fakeLockEnv({ fs });
    const lock = await acquire(path, env);
    expect(env.timers[0]?.stops).toBe(0);
    expect(env.exitHandlers[0]?.offs).toBe(0);
    const first = lock.release();
    expect(lock.release()).toBe(first);
    await first;
    await lock.release();
    expect(env.timers[0]?.stops).toBe(1);
    expect(env.exitHandlers[0]?.offs).toBe(1);
    expect(fs.handles.get(`${path}.lock`)?.[0]?.closes).toBe(1);
    expect(await files(path)).toEqual([]);
  });

  it('removes its lock at exit, but only while it is its own', async () => {
    const path = await statePath();
    const env = fakeLockEnv();
    const lock = await acquire(path, env);
    const [atExit] = env.exitHandlers;
    expect(env.exitHandlers).toHaveLength(1);

    await writeLockFile(`${path}.lock`, holder({ pid: ALIVE_PID }));
    atExit?.fn();
    expect(JSON.parse(await readFile(`${path}.lock`, 'utf8'))).toEqual(holder({ pid: ALIVE_PID }));

    await writeLockFile(`${path}.lock`, lockText(ours()));
    atExit?.fn();
    expect(await files(path)).toEqual([]);
    expect(() => atExit?.fn()).not.toThrow();
    await lock.release();
  });

  it('on release leaves a lock that is no longer its own, and one already gone', async () => {
    const path = await statePath();
    const env = fakeLockEnv();
    const replaced = await acquire(path, env);
    await writeLockFile(`${path}.lock`, holder());
    await replaced.release();
    expect(JSON.parse(await readFile(`${path}.lock`, 'utf8'))).toEqual(holder());

    await rm(`${path}.lock`);
    const gone = await acquire(path, env);
    await rm(`${path}.lock`);
    await expect(gone.release()).resolves.toBeUndefined();
  });

  it('says so when it cannot read its lock to release it', async () => {
    const path = await statePath();
    const lock = await acquire(path, fakeLockEnv());
    await rm(`${path}.lock`);
    await mkdir(`${path}.lock`);
    const error = await failure(lock.release());
    expect(error.message).toMatch(
      new RegExp(`^cannot release the lock file ${path}\\.lock: is a directory \\(EISDIR`),
    );
    expect(error.cause).toMatchObject({ code: 'EISDIR' });
  });
});

describe('acquireLock: file system failures', () => {
  it('names the state directory it cannot create', async () => {
    const path = await statePath();
    const fs = hookedFs({
      mkdir: () => {
        throw osError('EACCES', 'mkdir');
      },
    });
    const error = await failure(acquire(path, fakeLockEnv({ fs })));
    expect(error.message).toBe(
      `cannot create the state directory ${dirname(path)}: permission denied (EACCES: simulated, mkdir)`,
    );
    expect(error.cause).toMatchObject({ code: 'EACCES' });
  });

  it('names the lock file it cannot create', async () => {
    const path = await statePath();
    const fs = hookedFs({
      open: () => {
        throw osError('EROFS', 'open');
      },
    });
    const error = await failure(acquire(path, fakeLockEnv({ fs })));
    expect(error.message).toBe(
      `cannot create the lock file ${path}.lock: read-only file system (EROFS: simulated, open)`,
    );
    expect(error.cause).toMatchObject({ code: 'EROFS' });
  });

  it.each(['writeFile', 'sync'] as const)(
    'removes a lock file it could not %s, closing it, and names it',
    async (step) => {
      const path = await statePath();
      const fs = hookedFs({
        [step]: () => {
          throw osError('ENOSPC', step);
        },
        close: () => {
          throw osError('EIO', 'close');
        },
      });
      const error = await failure(acquire(path, fakeLockEnv({ fs })));
      expect(error.message).toBe(
        `cannot write the lock file ${path}.lock: disk full (ENOSPC: simulated, ${step})`,
      );
      expect(error.cause).toMatchObject({ code: 'ENOSPC' });
      expect(fs.handles.get(`${path}.lock`)?.[0]?.closes).toBe(1);
      expect(await files(path)).toEqual([]);
    },
  );
});

describe('acquireLock: a lock held by a live process', () => {
  it.each([
    ['a process of this host', holder({ pid: ALIVE_PID }), ALIVE],
    [
      'a process of another user (EPERM)',
      holder({ pid: OTHER_USERS_PID }),
      `pid ${OTHER_USERS_PID} on host ${HOST} (wfsync sync, since 2025-01-01T00:00:00.000Z)`,
    ],
    [
      'another host, with a fresh heartbeat',
      holder({ pid: DEAD_PID, hostname: 'build-7' }),
      `pid ${DEAD_PID} on host build-7 (wfsync sync, since 2025-01-01T00:00:00.000Z)`,
    ],
    [
      'a process that has not written its details yet',
      '',
      'a process that has not written its details (the lock file is empty or unreadable)',
    ],
  ])('fails at once with timeout 0: %s', async (_name, content, who) => {
    const path = await statePath();
    await writeLockFile(`${path}.lock`, content, T0 - 60_000);
    const env = fakeLockEnv();
    const onWait = vi.fn();
    const error = await failure(acquire(path, env, { onWait }));
    expect(error.message).toBe(lockedBy(path, who));
    expect(onWait).not.toHaveBeenCalled();
    expect(env.sleeps).toEqual([]);
    expect(await files(path)).toEqual(['prod.json.lock']);
  });

  it('takes a negative timeout for 0', async () => {
    const path = await statePath();
    await writeLockFile(`${path}.lock`, holder());
    const env = fakeLockEnv();
    const error = await failure(acquire(path, env, { timeoutMs: -1_000 }));
    expect(error.message).toBe(lockedBy(path, ALIVE));
    expect(env.sleeps).toEqual([]);
  });

  it.each([
    // timeout, retry → the pauses until the deadline
    [1_000, undefined, [250, 250, 250, 250], '1s'],
    [1_000, 300, [300, 300, 300, 100], '1s'],
    [250, 1_000, [250], '250ms'],
    [3, 0, [1, 1, 1], '3ms'],
    [1_500, 1_000, [1_000, 500], '1500ms'],
  ])(
    'waits %i ms polling every %s ms: %j, then says how long it waited',
    async (timeoutMs, retryMs, pauses, waited) => {
      const path = await statePath();
      await writeLockFile(`${path}.lock`, holder());
      const env = fakeLockEnv();
      const onWait = vi.fn();
      const error = await failure(
        acquire(path, env, { timeoutMs, onWait, ...(retryMs === undefined ? {} : { retryMs }) }),
      );
      expect(error.message).toBe(lockedBy(path, ALIVE, ` (waited ${waited}; raise it with --lock-timeout)`));
      expect(env.sleeps).toEqual(pauses);
      expect(env.clock.now).toBe(T0 + timeoutMs);
      expect(onWait.mock.calls).toEqual([[holder()]]);
    },
  );

  it('takes the lock once its holder releases it, having announced the holder once', async () => {
    const path = await statePath();
    await writeLockFile(`${path}.lock`, holder());
    let polls = 0;
    const env = fakeLockEnv({
      onSleep: async () => {
        if (++polls === 3) await rm(`${path}.lock`);
      },
    });
    const onWait = vi.fn();
    const lock = await acquire(path, env, { timeoutMs: 60_000, onWait });
    expect(env.sleeps).toEqual([250, 250, 250]);
    expect(onWait.mock.calls).toEqual([[holder()]]);
    expect(lock.holder).toEqual(ours());
    expect(JSON.parse(await readFile(`${path}.lock`, 'utf8'))).toEqual(ours());
    await lock.release();
  });

  it('announces a holder only once it has written its details', async () => {
    const path = await statePath();
    await writeLockFile(`${path}.lock`, '');
    const onWait = vi.fn();
    const env = fakeLockEnv({
      onSleep: async () => {
        if (env.sleeps.length === 1) {
          expect(onWait).not.toHaveBeenCalled();
          await writeLockFile(`${path}.lock`, holder());
        }
      },
    });
    await failure(acquire(path, env, { timeoutMs: 1_000, onWait }));
    expect(env.sleeps).toHaveLength(4);
    expect(onWait.mock.calls).toEqual([[holder()]]);
  });

  it('tries again at once when the lock vanishes between its create and its look', async () => {
    const path = await statePath();
    let first = true;
    const fs = hookedFs({
      open: (file) => {
        if (file === `${path}.lock` && first) {
          first = false;
          throw osError('EEXIST', 'open');
        }
      },
    });
    const env = fakeLockEnv({ fs });
    const lock = await acquire(path, env);
    expect(lock.holder).toEqual(ours());
    expect(env.sleeps).toEqual([]);
    await lock.release();
  });
});

describe('acquireLock: aborting', () => {
  it('rejects with the reason before touching the lock when already aborted', async () => {
    const path = await statePath();
    const reason = new Error('interrupted');
    const error = await acquire(path, fakeLockEnv(), { signal: AbortSignal.abort(reason) }).catch((e) => e);
    expect(error).toBe(reason);
    expect(await files(path)).toEqual([]);
  });

  it('stops a pause when aborted, rejecting with the reason', async () => {
    const path = await statePath();
    await writeLockFile(`${path}.lock`, holder());
    const controller = new AbortController();
    const reason = new Error('interrupted');
    const env = fakeLockEnv();
    // A pause that never ends unless aborted, and then rejects as timers/promises does (AbortError).
    env.sleep = (_ms, signal) =>
      new Promise((_resolve, reject) => {
        signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    const waiting = acquire(path, env, {
      timeoutMs: 60_000,
      signal: controller.signal,
      onWait: () => queueMicrotask(() => controller.abort(reason)),
    });
    await expect(waiting).rejects.toBe(reason);
    expect(await files(path)).toEqual(['prod.json.lock']);
  });

  it('passes on a failed pause that was not an abort', async () => {
    const path = await statePath();
    await writeLockFile(`${path}.lock`, holder());
    const env = fakeLockEnv();
    const broken = new Error('timer broke');
    env.sleep = () => Promise.reject(broken);
    const controller = new AbortController();
    await expect(acquire(path, env, { timeoutMs: 60_000, signal: controller.signal })).rejects.toBe(broken);
    await expect(acquire(path, env, { timeoutMs: 60_000 })).rejects.toBe(broken);
  });
});

describe('acquireLock: stale locks', () => {
  it.each([
    ['a dead process of this host, however fresh', holder({ pid: DEAD_PID }), 0, {}],
    [
      'another host, its heartbeat 1 ms past staleMs',
      holder({ hostname: 'build-7' }),
      10_001,
      { staleMs: 10_000 },
    ],
    ['another host, its heartbeat 1 ms past the default 60 s', holder({ hostname: 'build-7' }), 60_001, {}],
    ['a file never written, older than staleMs', '', 10_001, { staleMs: 10_000 }],
    ['pid 0 on this host, older than staleMs', holder({ pid: 0 }), 60_001, {}],
  ])('takes over at once: %s', async (_name, content, ageMs, options) => {
    const path = await statePath();
    await writeLockFile(`${path}.lock`, content, T0 - ageMs);
    const env = fakeLockEnv();
    const onWait = vi.fn();
    const lock = await acquire(path, env, { ...options, onWait });
    expect(JSON.parse(await readFile(`${path}.lock`, 'utf8'))).toEqual(ours());
    expect(await files(path)).toEqual(['prod.json.lock']);
    expect(onWait).not.toHaveBeenCalled();
    expect(env.sleeps).toEqual([]);
    await lock.release();
  });

  it.each([
    [
      'another host, its heartbeat exactly staleMs old',
      holder({ hostname: 'build-7' }),
      10_000,
      { staleMs: 10_000 },
    ],
    ['another host, its heartbeat exactly the default 60 s old', holder({ hostname: 'build-7' }), 60_000, {}],
    ['a file never written, exactly staleMs old', '', 10_000, { staleMs: 10_000 }],
    ['pid 0 on this host, fresh', holder({ pid: 0 }), 0, {}],
  ])('respects: %s', async (_name, content, ageMs, options) => {
    const path = await statePath();
    await writeLockFile(`${path}.lock`, content, T0 - ageMs);
    const env = fakeLockEnv();
    await failure(acquire(path, env, options));
    expect(await files(path)).toEqual(['prod.json.lock']);
    // kill(0) would signal our own process group: a pid that is none is never asked about.
    expect(env.kills).toEqual([]);
  });
});

describe('acquireLock: the takeover guard', () => {
  it('waits for a live taker: neither the stale lock nor its guard is touched', async () => {
    const path = await statePath();
    await writeLockFile(`${path}.lock`, holder({ pid: DEAD_PID }));
    await writeLockFile(`${path}.lock.takeover`, holder({ pid: ALIVE_PID }), T0 - 3_600_000);
    const env = fakeLockEnv();
    const error = await failure(acquire(path, env));
    expect(error.message).toContain(`locked by pid ${DEAD_PID} on host ${HOST}`);
    expect(await files(path)).toEqual(['prod.json.lock', 'prod.json.lock.takeover']);
    expect(JSON.parse(await readFile(`${path}.lock`, 'utf8'))).toEqual(holder({ pid: DEAD_PID }));
  });

  it.each([
    ['a taker that died', holder({ pid: DEAD_PID }), 0],
    ['a taker that died before writing its details', '', 60_001],
  ])('removes the guard of %s, then takes the lock', async (_name, guard, ageMs) => {
    const path = await statePath();
    await writeLockFile(`${path}.lock`, holder({ pid: DEAD_PID }));
    await writeLockFile(`${path}.lock.takeover`, guard, T0 - ageMs);
    const env = fakeLockEnv();
    const lock = await acquire(path, env);
    expect(JSON.parse(await readFile(`${path}.lock`, 'utf8'))).toEqual(ours());
    expect(await files(path)).toEqual(['prod.json.lock']);
    await lock.release();
  });

  it('respects the guard of a taker still writing its details', async () => {
    const path = await statePath();
    await writeLockFile(`${path}.lock`, holder({ pid: DEAD_PID }));
    await writeLockFile(`${path}.lock.takeover`, '', T0 - 60_000);
    await failure(acquire(path, fakeLockEnv()));
    expect(await files(path)).toEqual(['prod.json.lock', 'prod.json.lock.takeover']);
  });

  it('tries again at once when the guard it found is gone by the time it looks', async () => {
    const path = await statePath();
    await writeLockFile(`${path}.lock`, holder({ pid: DEAD_PID }));
    let first = true;
    const fs = hookedFs({
      open: (file) => {
        if (file === `${path}.lock.takeover` && first) {
          first = false;
          throw osError('EEXIST', 'open');
        }
      },
    });
    const env = fakeLockEnv({ fs });
    const lock = await acquire(path, env);
    expect(lock.holder).toEqual(ours());
    expect(env.sleeps).toEqual([]);
    await lock.release();
  });

  it('re-checks the lock under the guard, writing its details there, and leaves a lock that is live again', async () => {
    const path = await statePath();
    await writeLockFile(`${path}.lock`, holder({ pid: DEAD_PID }));
    const guards: string[] = [];
    const fs = hookedFs({
      // Another waiter took over between our look and our guard.
      open: async (file) => {
        if (file === `${path}.lock.takeover`) await writeLockFile(`${path}.lock`, holder({ pid: ALIVE_PID }));
      },
      readFile: async (file) => {
        if (file === `${path}.lock` && fs.handles.has(`${path}.lock.takeover`))
          guards.push(await readFile(`${path}.lock.takeover`, 'utf8'));
      },
    });
    const env = fakeLockEnv({ fs });
    await failure(acquire(path, env));
    expect(guards).toEqual([lockText(ours())]);
    expect(JSON.parse(await readFile(`${path}.lock`, 'utf8'))).toEqual(holder({ pid: ALIVE_PID }));
    expect(await files(path)).toEqual(['prod.json.lock']);
    expect(fs.handles.get(`${path}.lock.takeover`)?.[0]?.closes).toBe(1);
  });

  it('takes the lock when, under the guard, it is found gone', async () => {
    const path = await statePath();
    await writeLockFile(`${path}.lock`, holder({ pid: DEAD_PID }));
    const fs = hookedFs({
      open: async (file) => {
        if (file === `${path}.lock.takeover`) await rm(`${path}.lock`);
      },
    });
    const env = fakeLockEnv({ fs });
    const lock = await acquire(path, env);
    expect(lock.holder).toEqual(ours());
    expect(await files(path)).toEqual(['prod.json.lock']);
    await lock.release();
  });

  it('names the stale lock it cannot remove, and still removes its guard', async () => {
    const path = await statePath();
    await writeLockFile(`${path}.lock`, holder({ pid: DEAD_PID }));
    const fs = hookedFs({
      rm: (file) => {
        if (file === `${path}.lock`) throw osError('EACCES', 'unlink');
      },
    });
    const error = await failure(acquire(path, fakeLockEnv({ fs })));
    expect(error.message).toBe(
      `cannot remove the stale lock file ${path}.lock: permission denied (EACCES: simulated, unlink)`,
    );
    expect(error.cause).toMatchObject({ code: 'EACCES' });
    expect(await files(path)).toEqual(['prod.json.lock']);
    expect(fs.handles.get(`${path}.lock.takeover`)?.[0]?.closes).toBe(1);
  });

  it('names the guard it cannot create', async () => {
    const path = await statePath();
    await writeLockFile(`${path}.lock`, holder({ pid: DEAD_PID }));
    const fs = hookedFs({
      open: (file) => {
        if (file === `${path}.lock.takeover`) throw osError('EACCES', 'open');
      },
    });
    const error = await failure(acquire(path, fakeLockEnv({ fs })));
    expect(error.message).toBe(
      `cannot create ${path}.lock.takeover: permission denied (EACCES: simulated, open)`,
    );
    expect(error.cause).toMatchObject({ code: 'EACCES' });
  });
});
