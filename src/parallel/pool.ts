/**
 * Checks files on the main thread and worker threads together: chunks handed out on demand, workers parsing for the
 * main thread to validate (or checking in full), outcomes put back in file order.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { CheckSetup, FileOutcome } from './check-file.js';
import type { ParsedFile } from './parse-file.js';
import type { WorkerSettings } from './settings.js';

/**
 * A chunk of files for a worker: `check` them in full (checkDefinitionFile), or only `parse` them
 * (parseDefinitionFile) for the main thread to validate (checkParsedFile).
 */
export interface ChunkRequest {
  files: string[];
  mode: 'check' | 'parse';
}

/**
 * A worker's answer to a chunk, one entry per file in its order. `parsedJson`: ParsedFile[] as JSON, for a chunk
 * whose every entry is `parsed` (see ParsedFile).
 */
export type ChunkResult = { outcomes: FileOutcome[] } | { parsed: ParsedFile[] } | { parsedJson: string };

/** How this thread checks a file; and, when it can, how it validates a file a worker parsed. */
export interface FileChecker {
  check(file: string): FileOutcome;
  /** Without it (the validate cache's misses, whose outcomes need the bytes), workers check every file in full. */
  checkParsed?(file: string, parsed: ParsedFile): FileOutcome;
}

/** The worker entry beside this code: dist/ is flat (scripts/build.mjs), so beside the chunk that holds it. */
const WORKER_URL = new URL('./worker.js', import.meta.url);

/**
 * Workers run the built JavaScript: from dist/ the entry exists; from the TypeScript sources (under vitest) it does
 * not, and callers check on the main thread instead.
 */
export function workersAvailable(): boolean {
  return existsSync(fileURLToPath(WORKER_URL));
}

/**
 * The outcome of every file, in the order of `files`: checked by `checker` on this thread alone, or helped by worker
 * threads when there are files enough (`settings.minFiles`) to pay for starting them, and workers can run at all.
 */
export async function checkFiles(
  files: readonly string[],
  setup: CheckSetup,
  settings: WorkerSettings,
  checker: FileChecker,
): Promise<{ outcomes: FileOutcome[]; workers: number }> {
  const useWorkers =
    settings.workers > 0 && files.length >= Math.max(2, settings.minFiles) && workersAvailable();
  if (!useWorkers) return { outcomes: files.map((file) => checker.check(file)), workers: 0 };
  // Files enough for every thread (this one included) to get a chunk or more.
  const workers = Math.min(settings.workers, files.length - 1);
  return { outcomes: await checkFilesInWorkers(files, setup, workers, checker), workers };
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

/** Parsed chunks per worker that may wait for this thread before workers check files in full instead. */
const PARSED_BACKLOG = 4;

/**
 * What a worker does with the next chunk: `parse` it for this thread to validate, unless this thread cannot validate
 * parsed files (`pipeline` false) or already has `waiting` parsed chunks piled up; with enough workers, validating
 * all they parse would make this thread the bottleneck, and they `check` in full. Pure.
 */
export function nextChunkMode(pipeline: boolean, waiting: number, workers: number): ChunkRequest['mode'] {
  return pipeline && waiting < PARSED_BACKLOG * workers ? 'parse' : 'check';
}

/** Pieces a chunk is cut into when this thread checks files of its own between validating parsed chunks. */
const OWN_PIECES = 10;

/**
 * The outcome of every file, in the order of `files`, checked by this thread and `count` worker threads at once.
 *
 * Workers parse files and this thread validates them, where it can (`checker.checkParsed`): reading and parsing are
 * about 60% of a file's work, the rules most of the rest, and each thread then warms its JIT up on its own half of
 * the code instead of both on all of it (on 2 CPUs, 10,000 files, as first measured: 1.17 s against 1.31 s when both
 * checked in full). While no parsed chunk waits, this thread checks a few files of its own in full (it has every
 * module loaded already, where a worker costs ~100 ms of start-up before its first answer); when parsed chunks pile
 * up, workers check in full too.
 */
export async function checkFilesInWorkers(
  files: readonly string[],
  setup: CheckSetup,
  count: number,
  checker: FileChecker,
): Promise<FileOutcome[]> {
  const outcomes: FileOutcome[] = new Array(files.length);
  const size = chunkSize(files.length, count + 1);
  let next = 0;
  /** The next chunk's first index and files (`limit` at most), or undefined when every file is handed out. */
  const take = (limit = size): { start: number; files: string[] } | undefined => {
    if (next >= files.length) return undefined;
    const start = next;
    next = Math.min(files.length, start + limit);
    return { start, files: files.slice(start, next) };
  };
  /** Chunks workers parsed, for this thread to validate, oldest first. */
  const parsedChunks: Array<{ start: number; parsed: ParsedFile[] }> = [];
  let driving = count; // workers with chunks still to answer
  let failed = false;
  let wake: (() => void) | undefined; // this thread waiting for a worker's answer
  const notify = (): void => {
    const resolve = wake;
    wake = undefined;
    resolve?.();
  };
  const checkParsed = checker.checkParsed;
  const pipeline = checkParsed !== undefined;
  const ownPiece = pipeline ? Math.ceil(size / OWN_PIECES) : size;

  const drive = (worker: Worker): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      const pending: number[] = []; // first index of each chunk sent and not answered, oldest first
      const send = (): boolean => {
        const chunk = take();
        if (chunk === undefined) return false;
        pending.push(chunk.start);
        const request: ChunkRequest = {
          files: chunk.files,
          mode: nextChunkMode(pipeline, parsedChunks.length, count),
        };
        worker.postMessage(request);
        return true;
      };
      worker.on('message', (result: ChunkResult) => {
        const start = pending.shift() ?? 0; // a worker answers its chunks in the order it got them
        if ('parsedJson' in result) {
          parsedChunks.push({ start, parsed: JSON.parse(result.parsedJson) as ParsedFile[] });
        } else if ('parsed' in result) parsedChunks.push({ start, parsed: result.parsed });
        else
          result.outcomes.forEach((outcome, i) => {
            outcomes[start + i] = outcome;
          });
        if (!send() && pending.length === 0) resolve();
        notify();
      });
      worker.once('error', reject);
      // After resolve() the pool terminates the worker; an exit before that means it died mid-chunk.
      worker.once('exit', (code) =>
        reject(new Error(`a validation worker stopped early (exit code ${code})`)),
      );
      for (let i = 0; i < CHUNKS_IN_FLIGHT; i++) if (!send()) break;
      if (pending.length === 0) resolve();
    }).then(
      () => {
        driving--;
        notify();
      },
      (error: unknown) => {
        failed = true;
        notify();
        throw error;
      },
    );

  /** This thread's share: a chunk at a time, yielding in between so that workers' answers are taken in. */
  const own = async (): Promise<void> => {
    while (!failed) {
      const parsed = parsedChunks.shift();
      // Small pieces of its own, so that a parsed chunk never waits long for this thread (nor piles up).
      const chunk = parsed === undefined ? take(ownPiece) : undefined;
      if (parsed !== undefined && checkParsed !== undefined) {
        parsed.parsed.forEach((entry, i) => {
          const index = parsed.start + i;
          outcomes[index] = checkParsed(files[index]!, entry);
        });
      } else if (chunk !== undefined) {
        chunk.files.forEach((file, i) => {
          outcomes[chunk.start + i] = checker.check(file);
        });
      } else if (driving === 0) {
        return;
      } else {
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
        continue;
      }
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
