/**
 * Worker thread entry (runs from dist/ only): checks or parses the chunks of files the main thread sends (pool.ts),
 * one at a time, and answers each with its outcomes or parsed files in the same order. An exception here is a bug; it reaches the main thread as the
 * worker's `error` event and fails the run.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type CheckSetup, checkDefinitionFile, parseDefinitionFile } from './check-file.js';
import type { ChunkRequest, ChunkResult } from './pool.js';

// yaml's parser reads `process.env.LOG_TOKENS` once per token, and process.env is a native interceptor, slow to
// query: a frozen plain copy made parsing ~22% cheaper in a worker (measured on the benchmark's files). A worker's
// process.env is its own copy, so nothing outside this thread sees the change, and nothing here writes to it.
process.env = Object.freeze({ ...process.env });

const setup = workerData as CheckSetup;
const port = parentPort;
if (port === null) throw new Error('worker.js must run in a worker thread');

port.on('message', ({ files, mode }: ChunkRequest) => {
  const result: ChunkResult =
    mode === 'parse'
      ? { parsed: files.map((file) => parseDefinitionFile(file, setup)) }
      : { outcomes: files.map((file) => checkDefinitionFile(file, setup)) };
  port.postMessage(result);
});
