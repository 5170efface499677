/** Checks files on worker threads: chunks handed out on demand, outcomes put back in file order. */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { CheckSetup, FileOutcome } from './check-file.js';

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
 * Small chunks balance the load at the end of the run (a worker that finishes early takes the next one), large
 * ones save messages; about 8 chunks per worker, at most 100 files (~50 ms of work) each.
 */
export function chunkSize(files: number, workers: number): number {
  return Math.max(1, Math.min(100, Math.ceil(files / (workers * 8))));
}

/** The outcome of every file, in the order of `files`, checked on `count` worker threads. */
export async function checkFilesInWorkers(
  files: readonly string[],
  setup: CheckSetup,
  count: number,
): Promise<FileOutcome[]> {
  const outcomes: FileOutcome[] = new Array(files.length);
  const size = chunkSize(files.length, count);
  let next = 0;

  const drive = (worker: Worker): Promise<void> =>
    new Promise((resolve, reject) => {
      let start = 0;
      const send = () => {
        if (next >= files.length) {
          resolve();
          return;
        }
        start = next;
        next = Math.min(files.length, start + size);
        const request: ChunkRequest = { files: files.slice(start, next) };
        worker.postMessage(request);
      };
      worker.on('message', (result: ChunkResult) => {
        result.outcomes.forEach((outcome, i) => {
          outcomes[start + i] = outcome;
        });
        send();
      });
      worker.once('error', reject);
      // After resolve() the pool terminates the worker; an exit before that means it died mid-chunk.
      worker.once('exit', (code) =>
        reject(new Error(`a validation worker stopped early (exit code ${code})`)),
      );
      send();
    });

  const workers = Array.from({ length: count }, () => new Worker(WORKER_URL, { workerData: setup }));
  try {
    await Promise.all(workers.map(drive));
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
  return outcomes;
}
