/**
 * Worker thread entry (runs from dist/ only): checks or parses the chunks of files the main thread sends (pool.ts),
 * one at a time, and answers each with its outcomes or parsed files in the same order. An exception here is a bug; it
 * reaches the main thread as the worker's `error` event and fails the run.
 *
 * Parsing needs only parse-file.ts. The validators and rules (check-file.ts) load on first need: a chunk to check in
 * full, or a file the fast path could not vouch for. A worker that only parses, the usual case, never loads them.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { CheckSetup } from './check-file.js';
import { type ParsedFile, readParsedFile } from './parse-file.js';
import type { ChunkRequest, ChunkResult } from './pool.js';

// yaml's parser reads `process.env.LOG_TOKENS` once per token, and process.env is a native interceptor, slow to
// query: a frozen plain copy made parsing ~22% cheaper in a worker (measured on the benchmark's files). A worker's
// process.env is its own copy, so nothing outside this thread sees the change, and nothing here writes to it.
process.env = Object.freeze({ ...process.env });

const setup = workerData as CheckSetup;
const port = parentPort;
if (port === null) throw new Error('worker.js must run in a worker thread');

let checking: Promise<typeof import('./check-file.js')> | undefined;
const checkFile = () => {
  checking ??= import('./check-file.js');
  return checking;
};

async function answer({ files, mode }: ChunkRequest): Promise<ChunkResult> {
  if (mode === 'check') {
    const { checkDefinitionFile } = await checkFile();
    return { outcomes: files.map((file) => checkDefinitionFile(file, setup)) };
  }
  const read = files.map((file) => readParsedFile(file, setup));
  // The usual chunk, every file read by the fast path: as JSON (see ParsedFile), cheaper to send and receive.
  if (read.every((file) => 'parsed' in file)) return { parsedJson: JSON.stringify(read) };
  if (read.every((file): file is ParsedFile => !('declined' in file))) return { parsed: read };
  const { settleParsedFile } = await checkFile();
  return { parsed: read.map((file) => settleParsedFile(file, setup)) };
}

// One chunk at a time, answered in the order received, even when one waits for check-file.ts to load. A failure
// rejects the chain for good: unhandled, it ends the worker with an `error` event.
let queue: Promise<void> = Promise.resolve();
port.on('message', (request: ChunkRequest) => {
  queue = queue.then(async () => port.postMessage(await answer(request)));
});
