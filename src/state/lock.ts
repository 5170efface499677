import { readFileSync, unlinkSync } from 'node:fs';
import { type FileHandle, mkdir, open, readFile, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { WfsyncError } from '../errors.js';
import { describeFsError } from './atomic-write.js';
import { commandFromArgv, inspectLock, type LockHolder, lockTimeout } from './lock-holder.js';

export { commandFromArgv, type LockHolder } from './lock-holder.js';

export interface LockOptions {
  /** How long to wait for another holder (`--lock-timeout`); 0 fails at once. */
  timeoutMs: number;
  /** Called once, when the lock is first found held by a live holder and wfsync starts waiting. */
  onWait?: (holder: LockHolder) => void;
  signal?: AbortSignal;
  /** Shown to whoever waits; default `wfsync <subcommand>` from argv, never flags (they may hold secrets). */
  command?: string;
  /** How often the holder refreshes the lock's mtime. Default 5 s. */
  heartbeatMs?: number;
  /** A lock of another host whose heartbeat is older than this is stale. Default 60 s. */
  staleMs?: number;
  /** Poll period while waiting. Default 250 ms. */
  retryMs?: number;
}

export interface StateLock {
  /** The lock file: `${statePath}.lock`. */
  readonly path: string;
  readonly holder: LockHolder;
  /** Remove the lock if it is still ours. Idempotent. */
  release(): Promise<void>;
}

const noop = (): void => undefined;

/**
 * An advisory lock so two syncs of one target cannot both create. `${statePath}.lock` is created with O_EXCL and
 * holds {pid, hostname, startedAt, command}; its mtime is a heartbeat while held.
 *
 * Hand-written rather than proper-lockfile: that library decides staleness by mtime alone, so a SIGKILLed sync
 * (CI cancelling a job, OOM) blocks every later run for the whole stale period. Here a holder on this host whose
 * pid is gone is stale at once; the mtime rule is kept only for holders on other hosts (a shared volume).
 * A stale lock is removed under a second O_EXCL file (`.lock.takeover`) after re-checking it there, so two
 * waiters that both found it stale cannot both take it (one removes it; the other re-checks and sees the winner's
 * live lock). Remaining window: a taker SIGKILLed while holding `.takeover` for its few microseconds.
 *
 * Released by release(), on a normal process exit, or found stale by pid after a crash or a signal.
 */
export async function acquireLock(statePath: string, options: LockOptions): Promise<StateLock> {
  const path = `${statePath}.lock`;
  const staleMs = options.staleMs ?? 60_000;
  const holder: LockHolder = {
    pid: process.pid,
    hostname: hostname(),
    startedAt: new Date().toISOString(),
    command: options.command ?? commandFromArgv(process.argv),
  };
  const text = `${JSON.stringify(holder, null, 2)}\n`;
  try {
    await mkdir(dirname(path), { recursive: true });
  } catch (error) {
    throw new WfsyncError(`cannot create the state directory ${dirname(path)}: ${describeFsError(error)}`, {
      cause: error,
    });
  }
  const deadline = Date.now() + Math.max(0, options.timeoutMs);
  let announced = false;
  for (;;) {
    options.signal?.throwIfAborted();
    const handle = await tryCreate(path, text);
    if (handle !== undefined)
      return hold({ path, handle, text, holder, heartbeatMs: options.heartbeatMs ?? 5_000 });
    const seen = await inspectLock(path, staleMs);
    if (seen.state === 'free') continue;
    if (seen.stale && (await removeStaleLock(path, staleMs, text))) continue;
    if (Date.now() >= deadline) throw lockTimeout(path, seen.holder, options.timeoutMs);
    if (!announced && seen.holder !== undefined) {
      announced = true;
      options.onWait?.(seen.holder);
    }
    const pause = Math.max(1, Math.min(options.retryMs ?? 250, deadline - Date.now()));
    await sleep(pause, undefined, options.signal ? { signal: options.signal } : {}).catch(
      (error: unknown) => {
        options.signal?.throwIfAborted();
        throw error;
      },
    );
  }
}

/** The lock file, written and fsynced, or undefined when someone else holds it. */
async function tryCreate(path: string, text: string): Promise<FileHandle | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw new WfsyncError(`cannot create the lock file ${path}: ${describeFsError(error)}`, { cause: error });
  }
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
    return handle;
  } catch (error) {
    await handle.close().catch(noop);
    await rm(path, { force: true }).catch(noop);
    throw new WfsyncError(`cannot write the lock file ${path}: ${describeFsError(error)}`, { cause: error });
  }
}

/** True when the stale lock is gone (removed here or by someone else); false when that is not (yet) decided. */
async function removeStaleLock(path: string, staleMs: number, text: string): Promise<boolean> {
  const guardPath = `${path}.takeover`;
  let guard: FileHandle;
  try {
    guard = await open(guardPath, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw new WfsyncError(`cannot create ${guardPath}: ${describeFsError(error)}`, { cause: error });
    }
    // Someone is taking over right now, or died doing it: a dead taker's guard must not block everyone forever.
    const taker = await inspectLock(guardPath, staleMs);
    if (taker.state === 'held' && taker.stale) await rm(guardPath, { force: true });
    return taker.state === 'free' || taker.stale;
  }
  try {
    // Our holder details, so that if we die here the next taker finds this guard stale by pid.
    await guard.writeFile(text, 'utf8');
    const again = await inspectLock(path, staleMs);
    if (again.state === 'free') return true;
    if (!again.stale) return false;
    await rm(path, { force: true });
    return true;
  } catch (error) {
    throw new WfsyncError(`cannot remove the stale lock file ${path}: ${describeFsError(error)}`, {
      cause: error,
    });
  } finally {
    await guard.close().catch(noop);
    await rm(guardPath, { force: true }).catch(noop);
  }
}

function hold(input: {
  path: string;
  handle: FileHandle;
  text: string;
  holder: LockHolder;
  heartbeatMs: number;
}): StateLock {
  const { path, handle, text, holder } = input;
  // Touch our own inode through the handle: if the file were ever replaced, we must not refresh someone else's.
  const heartbeat = setInterval(() => {
    const now = new Date();
    handle.utimes(now, now).catch(noop);
  }, input.heartbeatMs);
  heartbeat.unref();
  // 'exit' covers normal ends and process.exit; after a signal or a crash, the pid check finds the lock stale.
  const onExit = (): void => removeIfOursSync(path, text);
  process.on('exit', onExit);
  let released: Promise<void> | undefined;
  const release = async (): Promise<void> => {
    clearInterval(heartbeat);
    process.off('exit', onExit);
    await handle.close().catch(noop);
    await removeIfOurs(path, text);
  };
  return {
    path,
    holder,
    release: () => {
      released ??= release();
      return released;
    },
  };
}

/** Remove the lock only if it still holds our details: after a takeover it is someone else's. */
async function removeIfOurs(path: string, text: string): Promise<void> {
  let current: string;
  try {
    current = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw new WfsyncError(`cannot release the lock file ${path}: ${describeFsError(error)}`, {
      cause: error,
    });
  }
  if (current === text) await rm(path, { force: true });
}

function removeIfOursSync(path: string, text: string): void {
  try {
    if (readFileSync(path, 'utf8') === text) unlinkSync(path);
  } catch {
    // Exiting anyway: a lock left behind is found stale by pid on the next run.
  }
}
