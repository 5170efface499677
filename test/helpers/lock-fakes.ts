import { mkdir, utimes, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { LockEnv, LockFileHandle, LockFs } from '../../src/state/lock-env.js';
import { nodeLockEnv } from '../../src/state/lock-env.js';
import type { LockHolder } from '../../src/state/lock-holder.js';

/** An error as node:fs or process.kill throws it, with its code and syscall. */
export function osError(code: string, syscall: string): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(`${code}: simulated, ${syscall}`);
  error.code = code;
  error.syscall = syscall;
  return error;
}

/** The fake clock's start, this host's name and our pid in a fake environment. */
export const T0 = Date.parse('2025-01-02T03:04:05.000Z');
export const HOST = 'this-host';
export const OUR_PID = 4242;
/** Pids the fake process table knows (any other pid answers ESRCH: no such process). */
export const ALIVE_PID = 1001;
export const OTHER_USERS_PID = 1002;
export const DEAD_PID = 1003;

export interface FakeLockEnv extends LockEnv {
  clock: { now: number };
  /** Every pause asked for, in order; each advances the clock by that much. */
  sleeps: number[];
  /** The pids kill() was asked about. */
  kills: number[];
  /** pid → 'alive', or the code kill() throws (ESRCH when absent). */
  processes: Map<number, string>;
  timers: Array<{ ms: number; tick: () => void; stops: number }>;
  exitHandlers: Array<{ fn: () => void; offs: number }>;
}

/**
 * A LockEnv with a fake clock, process table, timers and exit hooks, over the real file system (tests use temp
 * dirs). `onSleep` runs during each pause: the moment another process would act.
 */
export function fakeLockEnv(
  options: { fs?: LockFs; onSleep?: (pause: number) => void | Promise<void> } = {},
): FakeLockEnv {
  const env: FakeLockEnv = {
    clock: { now: T0 },
    sleeps: [],
    kills: [],
    processes: new Map([
      [ALIVE_PID, 'alive'],
      [OTHER_USERS_PID, 'EPERM'],
    ]),
    timers: [],
    exitHandlers: [],
    now: () => env.clock.now,
    sleep: async (ms, signal) => {
      env.sleeps.push(ms);
      env.clock.now += ms;
      await options.onSleep?.(ms);
      signal?.throwIfAborted();
    },
    kill: (pid) => {
      env.kills.push(pid);
      const answer = env.processes.get(pid) ?? 'ESRCH';
      if (answer !== 'alive') throw osError(answer, 'kill');
    },
    hostname: () => HOST,
    pid: OUR_PID,
    every: (ms, tick) => {
      const timer = { ms, tick, stops: 0 };
      env.timers.push(timer);
      return () => {
        timer.stops++;
      };
    },
    onExit: (fn) => {
      const handler = { fn, offs: 0 };
      env.exitHandlers.push(handler);
      return () => {
        handler.offs++;
      };
    },
    fs: options.fs ?? nodeLockEnv.fs,
  };
  return env;
}

export function holder(overrides: Partial<LockHolder> = {}): LockHolder {
  return {
    pid: ALIVE_PID,
    hostname: HOST,
    startedAt: '2025-01-01T00:00:00.000Z',
    command: 'wfsync sync',
    ...overrides,
  };
}

/** Write a lock (or guard) file: an object as JSON, a string as is; its heartbeat (mtime) at `mtimeMs`. */
export async function writeLockFile(path: string, content: object | string, mtimeMs = T0): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content));
  const when = new Date(mtimeMs);
  await utimes(path, when, when);
}

/** What acquireLock writes into its lock file for `holder`. */
export function lockText(holder: LockHolder): string {
  return `${JSON.stringify(holder, null, 2)}\n`;
}

export interface RecordingHandle extends LockFileHandle {
  closes: number;
  /** The heartbeat's utimes calls, and their promises (the heartbeat does not wait for them). */
  touches: Array<{ mtime: Date; done: Promise<void> }>;
}

/**
 * The real file operations, with hooks: `open` may throw or act before opening (another process acting
 * between two steps), `rm` may throw, and every handle records its closes and heartbeat touches.
 */
export function hookedFs(
  hooks: {
    mkdir?: (path: string) => void;
    open?: (path: string) => void | Promise<void>;
    rm?: (path: string) => void;
    readFile?: (path: string) => void | Promise<void>;
    writeFile?: (path: string) => void;
    sync?: (path: string) => void;
    close?: (path: string) => void;
  } = {},
): LockFs & { handles: Map<string, RecordingHandle[]> } {
  const real = nodeLockEnv.fs;
  const handles = new Map<string, RecordingHandle[]>();
  return {
    ...real,
    handles,
    mkdir: async (path, options) => {
      hooks.mkdir?.(path);
      return real.mkdir(path, options);
    },
    rm: async (path) => {
      hooks.rm?.(path);
      return real.rm(path);
    },
    readFile: async (path) => {
      await hooks.readFile?.(path);
      return real.readFile(path);
    },
    open: async (path, flags) => {
      await hooks.open?.(path);
      const handle = await real.open(path, flags);
      const recording: RecordingHandle = {
        closes: 0,
        touches: [],
        writeFile: async (text) => {
          hooks.writeFile?.(path);
          return handle.writeFile(text);
        },
        sync: async () => {
          hooks.sync?.(path);
          return handle.sync();
        },
        utimes: (atime, mtime) => {
          const done = handle.utimes(atime, mtime);
          recording.touches.push({ mtime, done });
          return done;
        },
        close: async () => {
          recording.closes++;
          await handle.close();
          hooks.close?.(path);
        },
      };
      handles.set(path, [...(handles.get(path) ?? []), recording]);
      return recording;
    },
  };
}
