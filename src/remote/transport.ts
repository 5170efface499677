import { isIP } from 'node:net';
import type { Dispatcher } from 'undici';
import { ConfigError } from '../errors.js';
import type { ProxyInUse } from './proxy.js';
import type { Endpoint, HttpMethod } from './types.js';

/**
 * Parse and check the base URL. https is required except for loopback hosts, where plain http cannot leak the
 * key off the machine; `allowInsecureHttp` lifts that for trusted networks.
 */
export function parseBaseUrl(baseUrl: string, allowInsecureHttp = false): Endpoint {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    throw new ConfigError(`the service base URL is not a valid URL: ${JSON.stringify(baseUrl)}`);
  }
  if (url.username !== '' || url.password !== '') {
    // Never echo the URL here: the user info is itself a credential.
    throw new ConfigError('the service base URL must not contain a user name or password');
  }
  const shown = `${url.origin}${url.pathname}`;
  if (url.search !== '' || url.hash !== '') {
    throw new ConfigError(`the service base URL must not have a query or fragment: ${shown}`);
  }
  if (url.protocol === 'http:') {
    if (!allowInsecureHttp && !isLoopbackHost(url.hostname)) {
      throw new ConfigError(
        `refusing to send the API key over plain http to ${url.host}: use https, or allow insecure http explicitly`,
      );
    }
  } else if (url.protocol !== 'https:') {
    throw new ConfigError(`the service base URL must use https: ${shown}`);
  }
  // `https://api.example.com/v1/` is a common way to write the API root: the client adds `/v1` itself.
  const basePath = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  return { origin: url.origin, basePath };
}

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  if (host.toLowerCase() === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1';
  return false;
}

export function workflowsPath(endpoint: Endpoint): string {
  return `${endpoint.basePath}/v1/workflows`;
}

/**
 * The path of one workflow, or a reason the id cannot be put into a path safely: `.` and `..` would be
 * normalised away by proxies (turning a GET of one workflow into the list route), control characters have no
 * business in an id.
 */
export function workflowPath(
  endpoint: Endpoint,
  idOrIdentifier: string,
): { path: string } | { problem: string } {
  if (idOrIdentifier === '') return { problem: 'the workflow id or identifier is empty' };
  if (idOrIdentifier === '.' || idOrIdentifier === '..') {
    return { problem: `${JSON.stringify(idOrIdentifier)} is not a workflow id or identifier` };
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: detecting them is the point
  if (/[\u0000-\u001f\u007f]/.test(idOrIdentifier)) {
    return {
      problem: `the workflow id or identifier ${JSON.stringify(idOrIdentifier)} contains control characters`,
    };
  }
  return { path: `${workflowsPath(endpoint)}/${encodeURIComponent(idOrIdentifier)}` };
}

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
  | 'deadline'
  | 'proxy-refused';

export interface TransportFailure {
  type: 'failure';
  reason: FailureReason;
  /** True only when the request provably never left this machine (nothing reached the service). */
  notSent: boolean;
  /** The most specific error code found on the error or its causes (`ECONNREFUSED`, `CERT_HAS_EXPIRED`…). */
  code?: string;
  /** `proxy-refused`: the proxy's status for the CONNECT (407, 403, 502…). */
  proxyStatus?: number;
  cause: unknown;
}

export interface ExchangeRequest {
  method: HttpMethod;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

/** What an exchange needs of the client's session (session.ts). */
export interface TransportSettings {
  dispatcher: Dispatcher;
  endpoint: Endpoint;
  /** Set when the dispatcher tunnels through a proxy. */
  proxy?: ProxyInUse;
  timeouts: { headersMs: number; bodyMs: number };
  maxResponseBytes: number;
  /** Absolute ms epoch: no request runs past it. */
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
// undici's words when the proxy answers a CONNECT with anything but 200 (tunnel never opened, nothing sent).
const PROXY_REFUSAL = /^Proxy response \((\d{3})\) !== 200 when HTTP Tunneling/;
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
  startTimer('headers-timeout', settings.timeouts.headersMs);
  try {
    let response: Dispatcher.ResponseData;
    try {
      response = await settings.dispatcher.request({
        origin: settings.endpoint.origin,
        path: request.path,
        method: request.method,
        headers: request.headers,
        body: request.body ?? null,
        signal: controller.signal,
        // Backstops only; the timers above decide.
        headersTimeout: settings.timeouts.headersMs + BACKSTOP_MS,
        bodyTimeout: settings.timeouts.bodyMs + BACKSTOP_MS,
      });
    } catch (error) {
      return classifyFailure(error, controller);
    }
    clearTimeout(timers.get('headers-timeout'));
    startTimer('body-timeout', settings.timeouts.bodyMs);
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

/**
 * Drops a body unread. undici's body stream reports its own destruction as an 'error' (AbortError) on the next
 * tick; with nobody listening that would be an uncaught exception.
 */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => {});
  body.destroy();
}

async function readBody(
  body: Dispatcher.ResponseData['body'],
  contentLength: string | undefined,
  maxBytes: number,
): Promise<{ body: Buffer; tooLarge?: boolean; error?: unknown }> {
  // Refuse before reading when the server announces more than we accept.
  if (contentLength !== undefined && Number(contentLength) > maxBytes) {
    discard(body);
    return { body: Buffer.alloc(0), tooLarge: true };
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of body) {
      const buffer = chunk as Buffer;
      size += buffer.length;
      if (size > maxBytes) {
        discard(body);
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
  const refusal = PROXY_REFUSAL.exec(error instanceof Error ? error.message : '');
  if (refusal !== null) return { ...failure('proxy-refused', true), proxyStatus: Number(refusal[1]) };
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
