import { UsageError } from '../errors.js';

export interface WorkerSettings {
  /** Worker threads that help the main thread in a large run; 0 checks every file on the main thread alone. */
  workers: number;
  /** Fewest files worth starting workers for. */
  minFiles: number;
}

/**
 * A worker costs ~100 ms of start-up before its first answer and warms its JIT up from cold, while one thread alone
 * already keeps a second core busy with V8's background compiling and GC (a run uses ~1.2 cores): on 2 CPUs two
 * threads compete for that core. Workers pay anyway from some size on because they parse and the main thread
 * validates (pool.ts), each thread warming up half the code. Measured on 2 CPUs (benchmark files, the main thread
 * plus one worker against the main thread alone, best of 5): 5,000 files 0.75 s vs 0.72 s, 6,000 0.79 vs 0.78,
 * 8,000 0.84 vs 0.89, 10,000 0.98 vs 1.02, 20,000 1.32 vs 1.57. So workers start from 8,000 files; more CPUs would
 * pay sooner (WFSYNC_WORKERS_MIN_FILES).
 */
export const DEFAULT_MIN_FILES_FOR_WORKERS = 8_000;

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
