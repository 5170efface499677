import { messageOf, WfsyncError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';

/**
 * The caller's AbortSignal ended the run. What was done before is kept consistent: a sync's creates that finished
 * are recorded in state, the ones in flight are settled by the journal on the next run (as after a second Ctrl-C).
 * `document`, when set, is what the run did up to the abort (a sync document, `interrupted: true`).
 */
export class AbortError<Document = unknown> extends WfsyncError {
  readonly document: Document | undefined;

  constructor(message: string, options: { document?: Document; cause?: unknown } = {}) {
    super(message, { exitCode: ExitCode.Failure, code: 'aborted', cause: options.cause });
    this.name = 'AbortError';
    this.document = options.document;
  }
}

/** An error thrown while `signal` was aborted is the abort's doing: the caller gets an AbortError saying so. */
export function asAbortError(error: unknown, signal: AbortSignal | undefined): unknown {
  if (!signal?.aborted || error instanceof AbortError) return error;
  return new AbortError(`aborted: ${messageOf(error)}`, { cause: error });
}

/** Fail at once, before anything is read or sent, when the signal is already aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortError('aborted before the run started');
}
