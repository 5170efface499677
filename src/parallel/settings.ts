import { UsageError } from '../errors.js';

export interface WorkerSettings {
  /** Worker threads that help the main thread in a large run; 0 checks every file on the main thread alone. */
  workers: number;
  /** Fewest files worth starting workers for. */
  minFiles: number;
}

/**
 * A worker costs ~150 ms of CPU (~250 ms of wall time) before its first file, and its JIT warms up from cold
 * again; meanwhile a single thread already gets help from V8's GC and compiler threads on a second core. Since valid
 * files parse on the fast path (definitions/fast-parse.ts) a file costs about half what it did, so that start-up
 * weighs more: measured on 2 CPUs (benchmark files, a shared machine), workers lost ~15% at 2,000-4,000 files, about
 * broke even at 5,000-6,000 and won ~10% at 10,000.
 */
export const DEFAULT_MIN_FILES_FOR_WORKERS = 5000;

/**
 * `WFSYNC_WORKERS` (how many worker threads help the main thread; 0 turns them off) and `WFSYNC_WORKERS_MIN_FILES`
 * (the threshold), for machines where the default (one worker per available CPU besides the main thread's, from
 * DEFAULT_MIN_FILES_FOR_WORKERS files) is wrong, and for tests.
 */
export function resolveWorkerSettings(env: NodeJS.ProcessEnv, availableCpus: number): WorkerSettings {
  return {
    workers: wholeNumber(env, 'WFSYNC_WORKERS') ?? Math.max(0, availableCpus - 1),
    minFiles: wholeNumber(env, 'WFSYNC_WORKERS_MIN_FILES') ?? DEFAULT_MIN_FILES_FOR_WORKERS,
  };
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return undefined;
  if (!/^\s*\d{1,6}\s*$/.test(raw)) throw new UsageError(`${name} must be a whole number, got "${raw}"`);
  return Number(raw);
}
