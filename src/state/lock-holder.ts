import { WfsyncError } from '../errors.js';
import { parseJson } from '../json.js';
import { fsFailure } from './atomic-write.js';
import type { LockEnv } from './lock-env.js';

/** Who holds a state lock: written into the lock file by the holder, read by whoever waits for it. */
export interface LockHolder {
  pid: number;
  hostname: string;
  /** ISO timestamp of when the lock was taken. */
  startedAt: string;
  /** What the holder runs, for humans (`wfsync sync`); never carries flags, which may hold secrets. */
  command: string;
}

export type LockInspection =
  | { state: 'free' }
  | {
      state: 'held';
      /** Undefined when the file is empty or unreadable (its creator may be writing it right now). */
      holder: LockHolder | undefined;
      /** The heartbeat: when the holder last touched the file. */
      mtime: Date;
      stale: boolean;
    };

/**
 * Look at a lock file and decide whether its holder is gone. On this host the pid answers at once (a SIGKILLed
 * sync must not block the next run); another host's pid means nothing here, so only a heartbeat (mtime) older
 * than `staleMs` does. A file without a readable holder is stale only by age: its creator died between creating
 * and writing it.
 */
export async function inspectLock(path: string, staleMs: number, env: LockEnv): Promise<LockInspection> {
  let text: string;
  let mtime: Date;
  try {
    text = await env.fs.readFile(path);
    mtime = (await env.fs.stat(path)).mtime;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'free' };
    throw fsFailure(`read the lock file ${path}`, error);
  }
  const holder = parseHolder(text);
  const expired = env.now() - mtime.getTime() > staleMs;
  const stale =
    holder === undefined
      ? expired
      : holder.hostname === env.hostname()
        ? !isProcessAlive(holder.pid, env.kill)
        : expired;
  return { state: 'held', holder, mtime, stale };
}

export function parseHolder(text: string): LockHolder | undefined {
  let value: unknown;
  try {
    value = parseJson(text);
  } catch {
    // Not JSON (a torn or foreign file) or nested past the limit: value stays undefined, which holds no holder.
  }
  // Object(): null and primitives become objects without these properties.
  const { pid, hostname, startedAt, command } = Object(value) as Record<string, unknown>;
  if (!isPid(pid)) return undefined;
  if (typeof hostname !== 'string' || typeof startedAt !== 'string' || typeof command !== 'string')
    return undefined;
  return { pid, hostname, startedAt, command };
}

/** Larger values are no pid (pid_t is 32 bits): kill() rejects them, which must not read as "alive" forever. */
const MAX_PID = 2 ** 31 - 1;

/** pid 0 and negative pids address process groups in kill(): never treat them as one process. */
function isPid(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) > 0 && (value as number) <= MAX_PID;
}

/** Signal 0 checks existence only. EPERM: alive, but another user's. A reused pid looks alive (see the timeout hint). */
export function isProcessAlive(pid: number, kill: LockEnv['kill']): boolean {
  try {
    kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** `pid 123 on host build-7 (wfsync sync, since 2025-01-02T03:04:05.000Z)`. */
export function describeHolder(holder: LockHolder | undefined): string {
  if (holder === undefined)
    return 'a process that has not written its details (the lock file is empty or unreadable)';
  const command = holder.command === '' ? '' : `${holder.command}, `;
  return `pid ${holder.pid} on host ${holder.hostname} (${command}since ${holder.startedAt})`;
}

export function lockTimeout(path: string, holder: LockHolder | undefined, timeoutMs: number): WfsyncError {
  const waited = timeoutMs > 0 ? ` (waited ${formatDuration(timeoutMs)}; raise it with --lock-timeout)` : '';
  return new WfsyncError(
    `the state is locked by ${describeHolder(holder)}: another wfsync is working on this target${waited}. ` +
      `If that process is no longer running (it was on another host, or its pid was reused), delete ${path} by hand.`,
  );
}

function formatDuration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${ms}ms`;
}

/** `wfsync sync` from `node bin/wfsync.cjs sync --target prod`: positional words only, flags may carry secrets. */
export function commandFromArgv(argv: readonly string[]): string {
  const words: string[] = [];
  for (const arg of argv.slice(2)) {
    if (arg.startsWith('-') || words.length === 2) break;
    words.push(arg);
  }
  return ['wfsync', ...words].join(' ');
}
