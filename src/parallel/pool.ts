/**
 * Checks files on the main thread and worker threads together: chunks handed out on demand, outcomes put back in
 * file order.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { CheckSetup, FileOutcome } from './check-file.js';
import type { WorkerSettings } from './settings.js';

export interface ChunkRequest {
  files: string[];
}

export interface ChunkResult {
  outcomes: FileOutcome[];
}

const WORKER_URL = new URL('./worker.js', import.meta.url);

/**
 * Workers run compiled JavaScript: from dist/ the entry exists; from the TypeScript sources (under vitest) it does
 * not, and callers check on the main thread instead.
 */
export function workersAvailable(): boolean {
  return existsSync(fileURLToPath(WORKER_URL));
}

/**
 * The outcome of every file, in the order of `files`: checked by `check` on this thread alone, or helped by worker
 * threads when there are files enough (`settings.minFiles`) to pay for starting them, and workers can run at all.
 */
export async function checkFiles(
  files: readonly string[],
  setup: CheckSetup,
  settings: WorkerSettings,
  check: (file: string) => FileOutcome,
): Promise<{ outcomes: FileOutcome[]; workers: number }> {
  const useWorkers =
    settings.workers > 0 && files.length >= Math.max(2, settings.minFiles) && workersAvailable();
  if (!useWorkers) return { outcomes: files.map((file) => check(file)), workers: 0 };
  // Files enough for every thread (this one included) to get a chunk or more.
  const workers = Math.min(settings.workers, files.length - 1);
  return { outcomes: await checkFilesInWorkers(files, setup, workers, check), workers };
}

/**
 * Small chunks balance the load at the end of the run (a thread that finishes early takes the next one), large
 * ones save messages; about 8 chunks per thread, at most 100 files (~10-20 ms of work) each.
 */
export function chunkSize(files: number, threads: number): number {
  return Math.max(1, Math.min(100, Math.ceil(files / (threads * 8))));
}

/** Chunks a worker holds at once: it starts the next one while the main thread is busy with its own. */
const CHUNKS_IN_FLIGHT = 2;

/**
 * The outcome of every file, in the order of `files`, checked by `check` on this thread and by `count` worker
 * threads at once. The main thread checks a chunk at a time between serving the workers: it has every module
 * loaded and warm already, where a worker costs ~150 ms of start-up before its first file.
 */
export async function checkFilesInWorkers(
  files: readonly string[],
  setup: CheckSetup,
  count: number,
  check: (file: string) => FileOutcome,
): Promise<FileOutcome[]> {
  const outcomes: FileOutcome[] = new Array(files.length);
  const size = chunkSize(files.length, count + 1);
  let next = 0;
  /** The next chunk's first index and files, or undefined when every file is handed out. */
  const take = (): { start: number; files: string[] } | undefined => {
    if (next >= files.length) return undefined;
    const start = next;
    next = Math.min(files.length, start + size);
    return { start, files: files.slice(start, next) };
  };

  const drive = (worker: Worker): Promise<void> =>
    new Promise((resolve, reject) => {
      const pending: number[] = []; // first index of each chunk sent and not answered, oldest first
      const send = (): boolean => {
        const chunk = take();
        if (chunk === undefined) return false;
        pending.push(chunk.start);
        const request: ChunkRequest = { files: chunk.files };
        worker.postMessage(request);
        return true;
      };
      worker.on('message', (result: ChunkResult) => {
        const start = pending.shift() ?? 0; // a worker answers its chunks in the order it got them
        result.outcomes.forEach((outcome, i) => {
          outcomes[start + i] = outcome;
        });
        if (!send() && pending.length === 0) resolve();
      });
      worker.once('error', reject);
      // After resolve() the pool terminates the worker; an exit before that means it died mid-chunk.
      worker.once('exit', (code) =>
        reject(new Error(`a validation worker stopped early (exit code ${code})`)),
      );
      for (let i = 0; i < CHUNKS_IN_FLIGHT; i++) if (!send()) break;
      if (pending.length === 0) resolve();
    });

  /** This thread's share: a chunk at a time, yielding in between so the workers' answers get their next chunk. */
  const own = async (): Promise<void> => {
    for (let chunk = take(); chunk !== undefined; chunk = take()) {
      const { start } = chunk;
      chunk.files.forEach((file, i) => {
        outcomes[start + i] = check(file);
      });
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  };

  const workers = Array.from({ length: count }, () => new Worker(WORKER_URL, { workerData: setup }));
  try {
    await Promise.all([...workers.map(drive), own()]);
  } catch (error) {
    next = files.length; // hand out nothing more: this thread stops after its current chunk
    throw error;
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  return outcomes;
}
