/**
 * Worker thread entry (runs from dist/ only): checks the chunks of files the main thread sends, one at a time, and
 * answers each with its outcomes in the same order. An exception here is a bug; it reaches the main thread as the
 * worker's `error` event and fails the run.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type CheckSetup, checkDefinitionFile } from './check-file.js';
import type { ChunkRequest, ChunkResult } from './pool.js';

// yaml's parser reads `process.env.LOG_TOKENS` once per token, and process.env is a native interceptor, slow to
// query: a frozen plain copy made parsing ~22% cheaper in a worker (measured on the benchmark's files). A worker's
// process.env is its own copy, so nothing outside this thread sees the change, and nothing here writes to it.
process.env = Object.freeze({ ...process.env });

const setup = workerData as CheckSetup;
const port = parentPort;
if (port === null) throw new Error('worker.js must run in a worker thread');

port.on('message', (request: ChunkRequest) => {
  const result: ChunkResult = { outcomes: request.files.map((file) => checkDefinitionFile(file, setup)) };
  port.postMessage(result);
});
