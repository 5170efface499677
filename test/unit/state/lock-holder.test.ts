import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WfsyncError } from '../../../src/errors.js';
import { ExitCode } from '../../../src/exit-codes.js';
import {
  commandFromArgv,
  describeHolder,
  inspectLock,
  isProcessAlive,
  lockTimeout,
  parseHolder,
} from '../../../src/state/lock-holder.js';
import {
  ALIVE_PID,
  DEAD_PID,
  fakeLockEnv,
  holder,
  OTHER_USERS_PID,
  T0,
  writeLockFile,
} from '../../helpers/lock-fakes.js';
import { osError, tempDir } from './helpers.js';

const VALID = { pid: 7, hostname: 'build-7', startedAt: '2025-01-02T03:04:05.000Z', command: 'wfsync sync' };

describe('parseHolder', () => {
  it.each([
    ['a complete holder', JSON.stringify(VALID), VALID],
    ['extra fields, which it drops', JSON.stringify({ ...VALID, extra: 1 }), VALID],
    ['an empty command', JSON.stringify({ ...VALID, command: '' }), { ...VALID, command: '' }],
    [
      'an empty host (judged as another host)',
      JSON.stringify({ ...VALID, hostname: '' }),
      { ...VALID, hostname: '' },
    ],
    ['pid 1', JSON.stringify({ ...VALID, pid: 1 }), { ...VALID, pid: 1 }],
    ['the largest pid', JSON.stringify({ ...VALID, pid: 2 ** 31 - 1 }), { ...VALID, pid: 2 ** 31 - 1 }],
    ['pid 0 (a process group in kill)', JSON.stringify({ ...VALID, pid: 0 }), undefined],
    ['pid -1 (every process in kill)', JSON.stringify({ ...VALID, pid: -1 }), undefined],
    ['pid 1.5', JSON.stringify({ ...VALID, pid: 1.5 }), undefined],
    ['pid 2^31 (no pid, kill rejects it)', JSON.stringify({ ...VALID, pid: 2 ** 31 }), undefined],
    ['pid "7", a string', JSON.stringify({ ...VALID, pid: '7' }), undefined],
    ['pid null', JSON.stringify({ ...VALID, pid: null }), undefined],
    ['no pid', JSON.stringify({ ...VALID, pid: undefined }), undefined],
    ['no host', JSON.stringify({ ...VALID, hostname: undefined }), undefined],
    ['a host that is a number', JSON.stringify({ ...VALID, hostname: 7 }), undefined],
    ['no startedAt', JSON.stringify({ ...VALID, startedAt: undefined }), undefined],
    ['a startedAt that is a number', JSON.stringify({ ...VALID, startedAt: 1 }), undefined],
    ['no command', JSON.stringify({ ...VALID, command: undefined }), undefined],
    ['a command that is an array', JSON.stringify({ ...VALID, command: ['wfsync'] }), undefined],
    ['an empty file (being written)', '', undefined],
    ['half a file', JSON.stringify(VALID).slice(0, 20), undefined],
    ['not JSON', 'pid=7', undefined],
    [
      'a holder nested 100,000 deep',
      JSON.stringify({ ...VALID, command: 'DEEP' }).replace('"DEEP"', `${'['.repeat(1e5)}${']'.repeat(1e5)}`),
      undefined,
    ],
    ['null', 'null', undefined],
    ['a number', '7', undefined],
    ['a string', '"7"', undefined],
    ['an array', JSON.stringify([7, 'build-7']), undefined],
  ])('%s', (_name, text, expected) => {
    expect(parseHolder(text)).toEqual(expected);
  });
});

describe('isProcessAlive', () => {
  it.each([
    ['a process that answers', ALIVE_PID, true],
    ['a process of another user (EPERM): alive, only not ours to signal', OTHER_USERS_PID, true],
    ['no such process (ESRCH)', DEAD_PID, false],
  ])('%s', (_name, pid, alive) => {
    const env = fakeLockEnv();
    expect(isProcessAlive(pid, env.kill)).toBe(alive);
    expect(env.kills).toEqual([pid]);
  });

  it('takes any other failure of kill for alive: a lock it cannot judge is not taken', () => {
    const env = fakeLockEnv();
    env.processes.set(77, 'EINVAL');
    expect(isProcessAlive(77, env.kill)).toBe(true);
  });
});

describe('inspectLock', () => {
  const STALE_MS = 60_000;

  async function inspect(
    content: object | string | undefined,
    ageMs: number,
    setup = (_: ReturnType<typeof fakeLockEnv>) => {},
  ) {
    const path = join(await tempDir(), 'prod.json.lock');
    if (content !== undefined) await writeLockFile(path, content, T0 - ageMs);
    const env = fakeLockEnv();
    setup(env);
    return { seen: await inspectLock(path, STALE_MS, env), env };
  }

  it('finds no file free', async () => {
    const { seen, env } = await inspect(undefined, 0);
    expect(seen).toEqual({ state: 'free' });
    expect(env.kills).toEqual([]);
  });

  it.each([
    // On this host the pid decides at once, whatever the heartbeat's age.
    ['this host, alive, old heartbeat', holder({ pid: ALIVE_PID }), 10 * STALE_MS, false, [ALIVE_PID]],
    [
      'this host, another user (EPERM)',
      holder({ pid: OTHER_USERS_PID }),
      10 * STALE_MS,
      false,
      [OTHER_USERS_PID],
    ],
    ['this host, dead, fresh heartbeat', holder({ pid: DEAD_PID }), 0, true, [DEAD_PID]],
    // Another host's pid means nothing here: only the heartbeat's age, never kill().
    ['another host, heartbeat just touched', holder({ hostname: 'build-7', pid: DEAD_PID }), 0, false, []],
    [
      'another host, heartbeat exactly staleMs old',
      holder({ hostname: 'build-7', pid: DEAD_PID }),
      STALE_MS,
      false,
      [],
    ],
    [
      'another host, heartbeat 1 ms past staleMs',
      holder({ hostname: 'build-7', pid: ALIVE_PID }),
      STALE_MS + 1,
      true,
      [],
    ],
    ['an empty host, fresh', holder({ hostname: '', pid: DEAD_PID }), STALE_MS, false, []],
    ['an empty host, old', holder({ hostname: '', pid: ALIVE_PID }), STALE_MS + 1, true, []],
    // No readable holder: its creator may be writing it right now, so only age makes it stale; no kill(0).
    ['an empty file, fresh', '', STALE_MS, false, []],
    ['an empty file, old', '', STALE_MS + 1, true, []],
    ['pid 0 on this host, fresh', holder({ pid: 0 }), 0, false, []],
    ['pid -1 on this host, old', holder({ pid: -1 }), STALE_MS + 1, true, []],
    ['no host, fresh', { pid: DEAD_PID, startedAt: 'x', command: 'y' }, 0, false, []],
  ])('%s: stale %s', async (_name, content, ageMs, stale, kills) => {
    const { seen, env } = await inspect(content, ageMs);
    expect(seen).toMatchObject({ state: 'held', stale, mtime: new Date(T0 - ageMs) });
    expect(env.kills).toEqual(kills);
  });

  it('returns the holder it read, or undefined when there is none', async () => {
    expect((await inspect(holder(), 0)).seen).toMatchObject({ holder: holder() });
    expect((await inspect('{"pid": 7', 0)).seen).toMatchObject({ holder: undefined });
  });

  it('reports a lock file it cannot read, naming it', async () => {
    const path = join(await tempDir(), 'prod.json.lock');
    await mkdir(path);
    const error = await inspectLock(path, STALE_MS, fakeLockEnv()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(WfsyncError);
    expect((error as Error).message).toMatch(
      new RegExp(`^cannot read the lock file ${path}: is a directory \\(EISDIR`),
    );
    expect((error as Error).cause).toMatchObject({ code: 'EISDIR' });
  });

  it('finds a file that vanishes between reading it and its stat free', async () => {
    const path = join(await tempDir(), 'prod.json.lock');
    await writeLockFile(path, holder());
    const env = fakeLockEnv();
    env.fs = {
      ...env.fs,
      stat: async () => {
        throw osError('ENOENT', 'stat');
      },
    };
    expect(await inspectLock(path, STALE_MS, env)).toEqual({ state: 'free' });
  });

  it('uses the clock of its env, not the machine clock', async () => {
    const { seen } = await inspect('', STALE_MS + 1, (env) => {
      env.clock.now = T0 - 2;
    });
    expect(seen).toMatchObject({ stale: false });
  });
});

describe('describeHolder', () => {
  it.each([
    [holder(), 'pid 1001 on host this-host (wfsync sync, since 2025-01-01T00:00:00.000Z)'],
    [holder({ command: '' }), 'pid 1001 on host this-host (since 2025-01-01T00:00:00.000Z)'],
    [undefined, 'a process that has not written its details (the lock file is empty or unreadable)'],
  ])('%o', (input, text) => {
    expect(describeHolder(input)).toBe(text);
  });
});

describe('lockTimeout', () => {
  const tail =
    'If that process is no longer running (it was on another host, or its pid was reused), delete /s/prod.json.lock by hand.';

  it.each([
    [0, ''],
    [-5, ''],
    [1, ' (waited 1ms; raise it with --lock-timeout)'],
    [250, ' (waited 250ms; raise it with --lock-timeout)'],
    [1_000, ' (waited 1s; raise it with --lock-timeout)'],
    [1_500, ' (waited 1500ms; raise it with --lock-timeout)'],
    [60_000, ' (waited 60s; raise it with --lock-timeout)'],
  ])('after %i ms: %j', (timeoutMs, waited) => {
    const error = lockTimeout('/s/prod.json.lock', holder(), timeoutMs);
    expect(error).toBeInstanceOf(WfsyncError);
    expect(error.exitCode).toBe(ExitCode.Failure);
    expect(error.message).toBe(
      'the state is locked by pid 1001 on host this-host (wfsync sync, since 2025-01-01T00:00:00.000Z): ' +
        `another wfsync is working on this target${waited}. ${tail}`,
    );
  });

  it('names a holder that has not written its details', () => {
    expect(lockTimeout('/s/prod.json.lock', undefined, 0).message).toBe(
      'the state is locked by a process that has not written its details (the lock file is empty or unreadable): ' +
        `another wfsync is working on this target. ${tail}`,
    );
  });
});

describe('commandFromArgv', () => {
  it.each([
    [['node', 'bin/wfsync.cjs'], 'wfsync'],
    [['node', 'bin/wfsync.cjs', 'sync'], 'wfsync sync'],
    [['node', 'bin/wfsync.cjs', 'sync', '--api-key', 'secret'], 'wfsync sync'],
    [['node', 'wfsync', 'state', 'rebuild', 'extra'], 'wfsync state rebuild'],
    [['node', 'wfsync', 'state', 'forget', '--target', 'prod', 'x'], 'wfsync state forget'],
    [['node', 'wfsync', '--api-key=secret', 'sync'], 'wfsync'],
    [['node', 'wfsync', '-v', 'sync'], 'wfsync'],
  ])('%j → %s', (argv, command) => {
    expect(commandFromArgv(argv)).toBe(command);
  });
});
