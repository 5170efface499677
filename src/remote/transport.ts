import type { Dispatcher } from 'undici';
import type { HttpMethod } from './types.js';

/** One HTTP exchange, with every way it can end as a value. */
export type Exchange = ReceivedResponse | TransportFailure;

export interface ReceivedResponse {
  type: 'response';
  status: number;
  /** Header lookup by lower-case name (first value when repeated). */
  header: (name: string) => string | undefined;
  body: Buffer;
  /** The status and headers arrived but the body did not, completely. */
  bodyFailure?: 'truncated' | 'body-timeout' | 'too-large';
  cause?: unknown;
}

export type FailureReason =
  | 'refused'
  | 'dns'
  | 'connect-timeout'
  | 'unreachable'
  | 'tls'
  | 'reset'
  | 'headers-timeout'
  | 'cancelled'
  | 'deadline';

export interface TransportFailure {
  type: 'failure';
  reason: FailureReason;
  /** True only when the request provably never left this machine (nothing reached the service). */
  notSent: boolean;
  /** The most specific error code found on the error or its causes (`ECONNREFUSED`, `CERT_HAS_EXPIRED`…). */
  code?: string;
  cause: unknown;
}

export interface ExchangeRequest {
  method: HttpMethod;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface TransportSettings {
  dispatcher: Dispatcher;
  origin: string;
  headersMs: number;
  bodyMs: number;
  maxResponseBytes: number;
  deadline: number | undefined;
  now: () => number;
  signal: AbortSignal | undefined;
}

const MAX_TIMER_MS = 2 ** 31 - 1;
const BACKSTOP_MS = 5_000;

/** Why this attempt's own controller aborted: told apart from undici's errors by identity. */
class AttemptAbort extends Error {
  constructor(readonly why: 'cancelled' | 'deadline' | 'headers-timeout' | 'body-timeout') {
    super(`request ${why}`);
  }
}

// Errors raised while connecting, before any byte of the request was written.
const NOT_SENT: Record<string, FailureReason> = {
  ECONNREFUSED: 'refused',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  UND_ERR_CONNECT_TIMEOUT: 'connect-timeout',
  EHOSTUNREACH: 'unreachable',
  ENETUNREACH: 'unreachable',
  EADDRNOTAVAIL: 'unreachable',
};
const TLS_CODE = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_|SELF_SIGNED_|HOSTNAME_MISMATCH|EPROTO$)/;

/**
 * Send one request and read the whole (size-capped, time-capped) body. Never throws for network trouble.
 * Timeouts are our own timers: undici's header timer ticks in ~1 s steps, too coarse for short settings.
 */
export async function exchange(settings: TransportSettings, request: ExchangeRequest): Promise<Exchange> {
  const controller = new AbortController();
  const timers = new Map<AttemptAbort['why'], NodeJS.Timeout>();
  const abortWith = (why: AttemptAbort['why']) => {
    if (!controller.signal.aborted) controller.abort(new AttemptAbort(why));
  };
  const startTimer = (why: AttemptAbort['why'], ms: number) => {
    // Past 2^31-1 ms a Node timer fires at once: such a limit is as good as none.
    if (ms <= MAX_TIMER_MS)
      timers.set(
        why,
        setTimeout(() => abortWith(why), Math.max(0, ms)),
      );
  };
  const onCancel = () => abortWith('cancelled');
  settings.signal?.addEventListener('abort', onCancel, { once: true });
  if (settings.signal?.aborted) abortWith('cancelled');
  if (settings.deadline !== undefined) startTimer('deadline', settings.deadline - settings.now());
  startTimer('headers-timeout', settings.headersMs);
  try {
    let response: Dispatcher.ResponseData;
    try {
      response = await settings.dispatcher.request({
        origin: settings.origin,
        path: request.path,
        method: request.method,
        headers: request.headers,
        body: request.body ?? null,
        signal: controller.signal,
        // Backstops only; the timers above decide.
        headersTimeout: settings.headersMs + BACKSTOP_MS,
        bodyTimeout: settings.bodyMs + BACKSTOP_MS,
      });
    } catch (error) {
      return classifyFailure(error, controller);
    }
    clearTimeout(timers.get('headers-timeout'));
    startTimer('body-timeout', settings.bodyMs);
    const { statusCode, headers } = response;
    const header = (name: string): string | undefined => {
      const value = headers[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const read = await readBody(response.body, header('content-length'), settings.maxResponseBytes);
    if (read.error === undefined) {
      const tooLarge = read.tooLarge ? { bodyFailure: 'too-large' as const } : {};
      return { type: 'response', status: statusCode, header, body: read.body, ...tooLarge };
    }
    const why = abortReason(controller);
    if (why === 'cancelled' || why === 'deadline') {
      return { type: 'failure', reason: why, notSent: false, cause: read.error };
    }
    const timedOut = why === 'body-timeout' || errorCode(read.error) === 'UND_ERR_BODY_TIMEOUT';
    return {
      type: 'response',
      status: statusCode,
      header,
      body: read.body,
      bodyFailure: timedOut ? 'body-timeout' : 'truncated',
      cause: read.error,
    };
  } finally {
    for (const timer of timers.values()) clearTimeout(timer);
    settings.signal?.removeEventListener('abort', onCancel);
  }
}

async function readBody(
  body: Dispatcher.ResponseData['body'],
  contentLength: string | undefined,
  maxBytes: number,
): Promise<{ body: Buffer; tooLarge?: boolean; error?: unknown }> {
  // Refuse before reading when the server announces more than we accept.
  if (contentLength !== undefined && Number(contentLength) > maxBytes) {
    body.destroy();
    return { body: Buffer.alloc(0), tooLarge: true };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      const buffer = chunk as Buffer;
      size += buffer.length;
      if (size > maxBytes) {
        body.destroy();
        return { body: Buffer.concat(chunks), tooLarge: true };
      }
      chunks.push(buffer);
    }
  } catch (error) {
    return { body: Buffer.concat(chunks), error };
  }
  return { body: Buffer.concat(chunks) };
}

function classifyFailure(error: unknown, controller: AbortController): TransportFailure {
  const why = abortReason(controller);
  if (why !== undefined && why !== 'body-timeout') {
    return { type: 'failure', reason: why, notSent: false, cause: error };
  }
  const code = errorCode(error);
  const failure = (reason: FailureReason, notSent: boolean): TransportFailure => ({
    type: 'failure',
    reason,
    notSent,
    ...(code === undefined || code === '' ? {} : { code }),
    cause: error,
  });
  const notSent = NOT_SENT[code ?? ''];
  if (notSent !== undefined) return failure(notSent, true);
  if (TLS_CODE.test(code ?? '')) return failure('tls', true);
  if (code === 'UND_ERR_HEADERS_TIMEOUT') return failure('headers-timeout', false);
  // Anything else (ECONNRESET, "other side closed", parser errors) happened with the request possibly delivered.
  return failure('reset', false);
}

function abortReason(controller: AbortController): AttemptAbort['why'] | undefined {
  const reason: unknown = controller.signal.reason;
  return controller.signal.aborted && reason instanceof AttemptAbort ? reason.why : undefined;
}

function errorCode(error: unknown): string | undefined {
  // node:net errors can arrive wrapped (AggregateError for happy-eyeballs, `cause` chains).
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current !== null && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR' && code !== 'UND_ERR_SOCKET') return code;
    const errors = (current as { errors?: unknown }).errors;
    current = Array.isArray(errors) && errors.length > 0 ? errors[0] : (current as { cause?: unknown }).cause;
  }
  return (error as { code?: string } | null)?.code;
}
