import { dirname } from 'node:path';
import { BoundaryError, prepareWrite } from '../fs-boundary.js';
import { fsFailure } from './atomic-write.js';
import { type LockEnv, type LockFileHandle, nodeLockEnv } from './lock-env.js';
import { commandFromArgv, inspectLock, type LockHolder, lockTimeout } from './lock-holder.js';

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
  /** For tests: replace the clock, the process checks, timers or file operations (see LockEnv). */
  env?: Partial<LockEnv>;
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
  const env: LockEnv = { ...nodeLockEnv, ...options.env };
  const path = `${statePath}.lock`;
  const staleMs = options.staleMs ?? 60_000;
  const holder: LockHolder = {
    pid: env.pid,
    hostname: env.hostname(),
    startedAt: new Date(env.now()).toISOString(),
    command: options.command ?? commandFromArgv(process.argv),
  };
  const text = `${JSON.stringify(holder, null, 2)}\n`;
  try {
    // No link on the way to the lock file, nor the lock file itself a link (fs-boundary.ts); folders created.
    prepareWrite(path);
    await env.fs.mkdir(dirname(path), { recursive: true });
  } catch (error) {
    if (error instanceof BoundaryError) throw error;
    throw fsFailure(`create the state directory ${dirname(path)}`, error);
  }
  const deadline = env.now() + Math.max(0, options.timeoutMs);
  let announced = false;
  for (;;) {
    options.signal?.throwIfAborted();
    const handle = await tryCreate(env, path, text);
    if (handle !== undefined)
      return hold({ env, path, handle, text, holder, heartbeatMs: options.heartbeatMs ?? 5_000 });
    const seen = await inspectLock(path, staleMs, env);
    if (seen.state === 'free') continue;
    if (seen.stale && (await removeStaleLock(env, path, staleMs, text))) continue;
    if (env.now() >= deadline) throw lockTimeout(path, seen.holder, options.timeoutMs);
    if (!announced && seen.holder !== undefined) {
      announced = true;
      options.onWait?.(seen.holder);
    }
    const pause = Math.max(1, Math.min(options.retryMs ?? 250, deadline - env.now()));
    await env.sleep(pause, options.signal).catch((error: unknown) => {
      options.signal?.throwIfAborted();
      throw error;
    });
  }
}

/** The lock file, written and fsynced, or undefined when someone else holds it. */
async function tryCreate(env: LockEnv, path: string, text: string): Promise<LockFileHandle | undefined> {
  let handle: LockFileHandle;
  try {
    handle = await env.fs.open(path, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw fsFailure(`create the lock file ${path}`, error);
  }
  try {
    await handle.writeFile(text);
    await handle.sync();
    return handle;
  } catch (error) {
    await handle.close().catch(noop);
    await env.fs.rm(path).catch(noop);
    throw fsFailure(`write the lock file ${path}`, error);
  }
}

/** True when the stale lock is gone (removed here or by someone else); false when that is not (yet) decided. */
async function removeStaleLock(env: LockEnv, path: string, staleMs: number, text: string): Promise<boolean> {
  const guardPath = `${path}.takeover`;
  let guard: LockFileHandle;
  try {
    guard = await env.fs.open(guardPath, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      throw fsFailure(`create ${guardPath}`, error);
    }
    // Someone is taking over right now, or died doing it: a dead taker's guard must not block everyone forever.
    const taker = await inspectLock(guardPath, staleMs, env);
    if (taker.state === 'free') return true;
    if (taker.stale) await env.fs.rm(guardPath);
    return taker.stale;
  }
  try {
    // Our holder details, so that if we die here the next taker finds this guard stale by pid.
    await guard.writeFile(text);
    const again = await inspectLock(path, staleMs, env);
    if (again.state === 'free') return true;
    if (!again.stale) return false;
    await env.fs.rm(path);
    return true;
  } catch (error) {
    throw fsFailure(`remove the stale lock file ${path}`, error);
  } finally {
    await guard.close().catch(noop);
    await env.fs.rm(guardPath).catch(noop);
  }
}

function hold(input: {
  env: LockEnv;
  path: string;
  handle: LockFileHandle;
  text: string;
  holder: LockHolder;
  heartbeatMs: number;
}): StateLock {
  const { env, path, handle, text, holder } = input;
  // Touch our own inode through the handle: if the file were ever replaced, we must not refresh someone else's.
  const stopHeartbeat = env.every(input.heartbeatMs, () => {
    const now = new Date(env.now());
    handle.utimes(now, now).catch(noop);
  });
  // 'exit' covers normal ends and process.exit; after a signal or a crash, the pid check finds the lock stale.
  const offExit = env.onExit(() => removeIfOursSync(env, path, text));
  let released: Promise<void> | undefined;
  const release = async (): Promise<void> => {
    stopHeartbeat();
    offExit();
    await handle.close().catch(noop);
    await removeIfOurs(env, path, text);
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
async function removeIfOurs(env: LockEnv, path: string, text: string): Promise<void> {
  let current: string;
  try {
    current = await env.fs.readFile(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw fsFailure(`release the lock file ${path}`, error);
  }
  if (current === text) await env.fs.rm(path);
}

function removeIfOursSync(env: LockEnv, path: string, text: string): void {
  try {
    if (env.fs.readFileSync(path) === text) env.fs.unlinkSync(path);
  } catch {
    // Exiting anyway: a lock left behind is found stale by pid on the next run.
  }
}
