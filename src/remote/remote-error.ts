import { WfsyncError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { redact } from './redact.js';
import type { HttpMethod } from './types.js';

/**
 * - `auth`: 401/403 (exit 4). `rate-limited`: still 429 when retries ran out (exit 5).
 * - `validation`: the service rejected the request (400/413/422; exit 3); `serverMessages` says why.
 * - `not-found`: the endpoint itself does not exist (wrong base URL); a missing workflow is not an error.
 * - `server`: 5xx after retries. `network`, `timeout`: the service could not be reached or did not answer in time.
 * - `protocol`: an answer that is not the service's JSON (HTML page, redirect, cut off, too large, bad shape).
 * - `outcome-unknown`: a create may or may not have happened; the user must look before trying again.
 * - `deadline`: the command's time ran out. `cancelled`: the user cancelled.
 */
export type RemoteErrorKind =
  | 'auth'
  | 'rate-limited'
  | 'validation'
  | 'not-found'
  | 'server'
  | 'network'
  | 'timeout'
  | 'protocol'
  | 'outcome-unknown'
  | 'deadline'
  | 'cancelled';

const EXIT_CODES: Record<RemoteErrorKind, ExitCode> = {
  auth: ExitCode.Auth,
  'rate-limited': ExitCode.RateLimited,
  validation: ExitCode.Invalid,
  'not-found': ExitCode.Failure,
  server: ExitCode.Failure,
  network: ExitCode.Failure,
  timeout: ExitCode.Failure,
  protocol: ExitCode.Failure,
  'outcome-unknown': ExitCode.Failure,
  deadline: ExitCode.Failure,
  cancelled: ExitCode.Failure,
};

/** Kinds where running the same command again later may well succeed. */
const RETRYABLE: ReadonlySet<RemoteErrorKind> = new Set([
  'rate-limited',
  'server',
  'network',
  'timeout',
  'deadline',
  'cancelled',
]);

export interface RemoteErrorInit {
  kind: RemoteErrorKind;
  method: HttpMethod;
  path: string;
  status?: number;
  /** What went wrong, after `METHOD path: `. */
  detail: string;
  /** What the user can do about it, after the detail (`; check baseUrl in wfsync.config.yaml`). */
  advice?: string | undefined;
  serverMessages?: readonly string[];
  /** Text to strip from the message, the server messages and the cause (the API key). */
  secrets: readonly string[];
  /** See RemoteError.unreachable. */
  unreachable?: boolean;
  cause?: unknown;
}

/** A failed call to the service: which call, what happened, and what the service said. */
export class RemoteError extends WfsyncError {
  readonly kind: RemoteErrorKind;
  readonly method: HttpMethod;
  readonly path: string;
  readonly status: number | undefined;
  /** The message without `METHOD path: ` and without the advice. */
  readonly detail: string;
  /** What the user can do, when the client can tell; already part of the message. */
  readonly advice: string | undefined;
  /** The service's own messages (400/422 bodies), for the apply layer to turn into Diagnostics. */
  readonly serverMessages: readonly string[];
  /** Whether running the command again later may succeed without changing anything. */
  readonly retryable: boolean;
  /** The service could not be reached at all, after retries: every other request would fail the same way. */
  readonly unreachable: boolean;

  constructor(init: RemoteErrorInit) {
    const advice = init.advice === undefined ? '' : `; ${init.advice}`;
    const message = redact(`${init.method} ${init.path}: ${init.detail}${advice}`, init.secrets);
    super(message, {
      exitCode: EXIT_CODES[init.kind],
      cause: init.cause === undefined ? undefined : sanitizeCause(init.cause, init.secrets),
    });
    this.name = 'RemoteError';
    this.kind = init.kind;
    this.method = init.method;
    this.path = init.path;
    this.status = init.status;
    this.detail = redact(init.detail, init.secrets);
    this.advice = init.advice === undefined ? undefined : redact(init.advice, init.secrets);
    this.serverMessages = (init.serverMessages ?? []).map((m) => redact(m, init.secrets));
    this.retryable = RETRYABLE.has(init.kind);
    this.unreachable = init.unreachable === true;
  }
}

/**
 * A copy of a low-level error (undici, node:net) with the secrets stripped: the original could carry request
 * details, and `--verbose` prints causes.
 */
function sanitizeCause(cause: unknown, secrets: readonly string[]): Error {
  const original = cause instanceof Error ? cause : new Error(String(cause));
  const copy = new Error(redact(original.message, secrets));
  copy.name = original.name;
  const code = (original as { code?: unknown }).code;
  if (typeof code === 'string') Object.assign(copy, { code });
  copy.stack = redact(original.stack ?? `${copy.name}: ${copy.message}`, secrets);
  return copy;
}
