import { unlinkSync } from 'node:fs';
import { mkdir, open, rm, stat } from 'node:fs/promises';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { readProjectText } from '../definitions/read-capped.js';
import { workingBoundary } from '../fs-boundary.js';

/** A lock file holds a few hundred bytes; one past this is not read (a foreign file where the lock should be). */
const MAX_LOCK_BYTES = 64 * 1024;

/** A lock file's text, read through the project boundary (never through a link leading out of the project). */
function readLockText(path: string): string {
  return readProjectText(path, MAX_LOCK_BYTES, workingBoundary());
}

/**
 * The effects the state lock's decisions depend on: the clock, the process table, this host's name, timers and
 * the few file operations. acquireLock takes them from here (the real ones by default) so that tests can drive
 * every decision in-process: a fake clock and sleep, a `kill` that answers ESRCH or EPERM, a file that changes
 * between two reads.
 */
export interface LockEnv {
  /** Milliseconds since the epoch: deadlines, heartbeat ages, the holder's startedAt. */
  now(): number;
  /** Wait `ms`; rejects when `signal` aborts. */
  sleep(ms: number, signal: AbortSignal | undefined): Promise<void>;
  /** `process.kill(pid, 0)`: returns if the process exists, throws ESRCH if not, EPERM if it is another user's. */
  kill(pid: number, signal: 0): void;
  hostname(): string;
  /** This process's pid, written into the lock. */
  pid: number;
  /** Call `tick` every `ms` without keeping the process alive; returns the function that stops it. */
  every(ms: number, tick: () => void): () => void;
  /** Call `fn` when the process exits; returns the function that unregisters it. */
  onExit(fn: () => void): () => void;
  fs: LockFs;
}

export interface LockFs {
  mkdir(path: string, options: { recursive: true }): Promise<unknown>;
  /** Only ever 'wx': create, failing with EEXIST when the file is there. */
  open(path: string, flags: 'wx'): Promise<LockFileHandle>;
  /** The file's text (UTF-8). */
  readFile(path: string): Promise<string>;
  stat(path: string): Promise<{ mtime: Date }>;
  /** Remove the file if it is there: gone already is no error. */
  rm(path: string): Promise<void>;
  /** For the 'exit' handler, where nothing asynchronous runs any more. */
  readFileSync(path: string): string;
  unlinkSync(path: string): void;
}

export interface LockFileHandle {
  /** Write `text` as UTF-8. */
  writeFile(text: string): Promise<void>;
  sync(): Promise<void>;
  utimes(atime: Date, mtime: Date): Promise<void>;
  close(): Promise<void>;
}

export const nodeLockEnv: LockEnv = {
  now: () => Date.now(),
  sleep: (ms, signal) => sleep(ms, undefined, { signal }),
  kill: (pid, signal) => {
    process.kill(pid, signal);
  },
  hostname: () => hostname(),
  pid: process.pid,
  every: (ms, tick) => {
    const timer = setInterval(tick, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
  onExit: (fn) => {
    process.on('exit', fn);
    return () => {
      process.off('exit', fn);
    };
  },
  fs: {
    mkdir,
    open,
    readFile: async (path) => readLockText(path),
    stat,
    rm: (path) => rm(path, { force: true }),
    readFileSync: readLockText,
    unlinkSync,
  },
};
