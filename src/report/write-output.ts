import { appendFile } from 'node:fs';

/**
 * The one place rendered output reaches a stream. Renderers return strings; this writes them.
 *
 * A closed reader (`wfsync validate | head -1`) is not an error: the write resolves quietly and later writes
 * to that stream are skipped. Any other stream error rejects.
 */

/** Errors that mean "nobody is reading any more". */
const CLOSED_CODES = new Set(['EPIPE', 'ERR_STREAM_DESTROYED']);

function isClosedError(error: unknown): boolean {
  return CLOSED_CODES.has((error as { code?: unknown } | null)?.code as string);
}

interface StreamState {
  /** The reader went away: later writes are dropped. */
  closed: boolean;
  /** Writes in flight, told about stream errors. */
  pending: Set<(error: Error) => void>;
  /** Errors a write already rejected with: the stream emits them as 'error' too, afterwards. */
  reported: WeakSet<Error>;
}

const states = new WeakMap<NodeJS.WritableStream, StreamState>();

/**
 * One permanent listener per stream. An EPIPE can arrive after our write callback (stdout to a pipe is
 * asynchronous), and an unhandled 'error' event would crash the process. Other errors with no write in
 * flight are rethrown, which is what Node does without a listener.
 */
function stateOf(stream: NodeJS.WritableStream): StreamState {
  const state = states.get(stream);
  if (state) return state;
  const created: StreamState = { closed: false, pending: new Set(), reported: new WeakSet() };
  stream.on('error', (error: Error) => {
    if (isClosedError(error)) created.closed = true;
    if (typeof error === 'object' && error !== null && created.reported.has(error)) return;
    if (created.pending.size > 0) {
      for (const notify of [...created.pending]) notify(error);
    } else if (!created.closed) {
      throw error;
    }
  });
  states.set(stream, created);
  return created;
}

/**
 * Writes `text` and resolves once the stream has taken it (its write callback ran, so a slow reader's
 * backpressure is waited out). Resolves without writing when the reader has gone.
 */
export async function writeOutput(stream: NodeJS.WritableStream, text: string): Promise<void> {
  if (text === '') return;
  const state = stateOf(stream);
  if (state.closed || (stream as { destroyed?: boolean }).destroyed === true) return;
  await new Promise<void>((resolve, reject) => {
    let settled = false;
    const finish = (error?: Error | null) => {
      if (settled) return;
      settled = true;
      state.pending.delete(finish);
      stream.removeListener('close', onClose);
      if (!error) return resolve();
      if (isClosedError(error)) {
        state.closed = true;
        return resolve();
      }
      if (typeof error === 'object' && error !== null) state.reported.add(error);
      reject(error);
    };
    // A stream closed mid-write may never call back.
    const onClose = () => finish();
    state.pending.add(finish);
    stream.once('close', onClose);
    stream.write(text, (error?: Error | null) => finish(error));
  });
}

/** Appends text to a file (`$GITHUB_STEP_SUMMARY`), creating it if needed. */
export async function appendFileText(path: string, text: string): Promise<void> {
  // The callback API: node:fs/promises, loaded with this module, would cost every run's start-up.
  await new Promise<void>((resolve, reject) =>
    appendFile(path, text, 'utf8', (error) => (error ? reject(error) : resolve())),
  );
}
