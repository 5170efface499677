import { STATUS_CODES } from 'node:http';
import { type AdviceContext, checkBaseUrl, notTheService, setting } from './advice.js';
import { parseRateLimitReset, parseRetryAfter } from './backoff.js';
import { type ErrorBody, readErrorBody, summarize } from './error-body.js';
import { explainAuth } from './explain-auth.js';
import { bodyLost, interpretSuccess, invalidJson } from './interpret-success.js';
import type { RateLimitWait } from './rate-limiter.js';
import type { RemoteErrorKind } from './remote-error.js';
import type { ReceivedResponse } from './transport.js';
import type { HttpMethod, WorkflowResponse } from './types.js';

export type Outcome =
  | { type: 'ok'; workflow: WorkflowResponse; replayed: boolean }
  | { type: 'absent' }
  | { type: 'problem'; problem: Problem };

/** Something that went wrong with one attempt, and what it means for trying again. */
export interface Problem {
  /** The error kind if the client gives up here. */
  kind: RemoteErrorKind;
  /** The message after `METHOD path: `: what happened, starting with the status when there is one. */
  detail: string;
  /** What the user can do about it, shown after the detail (and after why the client stopped trying). */
  advice?: string;
  status?: number;
  serverMessages: string[];
  /** Sending the same request again may get a different answer. */
  transient: boolean;
  /** The service could not be reached at all (refused, DNS, unreachable, connect timeout, TLS): nothing was sent. */
  unreachable?: boolean;
  /** What a POST may have done on the service: `none` (known not applied), `unknown`, `applied` (201 seen). */
  effect: 'none' | 'unknown' | 'applied';
  /** How long the service asked us to wait (Retry-After, or RateLimit-Reset on a 429). */
  retryAfterMs?: number;
  /** Set by the client on a 429 with `retryAfterMs`: a wait of its own, or part of a burst already waited out. */
  rateLimitWait?: RateLimitWait;
  cause?: unknown;
}

export interface InterpretContext {
  method: HttpMethod;
  now: number;
  maxResponseBytes: number;
  bodyMs: number;
  advice: AdviceContext;
}

/** Turn a received response into a workflow, "absent" (GET 404), or a Problem. Pure apart from the schema load. */
export function interpretResponse(response: ReceivedResponse, context: InterpretContext): Outcome {
  const { status } = response;
  if (status >= 200 && status < 300) return interpretSuccess(response, context);
  const body = readErrorBody(response);
  const outcome = interpretError(response, body, context);
  // A GET's answer depends on its body (a 404 is "no such workflow" only when the service's JSON says so), and
  // asking again is harmless: a body cut short, whether the connection showed it or a proxy fixed up the
  // Content-Length (JSON that does not parse), is retried like a lost connection. Already-transient answers
  // (429, 5xx) keep their own meaning and Retry-After.
  if (context.method !== 'GET' || (outcome.type === 'problem' && outcome.problem.transient)) return outcome;
  if (response.bodyFailure === 'truncated' || response.bodyFailure === 'body-timeout') {
    return bodyLost(response, context, 'none');
  }
  if (body.invalidJson !== undefined) return invalidJson(status, body.invalidJson, 'none');
  return outcome;
}

function interpretError(response: ReceivedResponse, body: ErrorBody, context: InterpretContext): Outcome {
  const { status } = response;
  const problem = (
    p: Omit<Problem, 'status' | 'serverMessages'> & { serverMessages?: string[] },
  ): Outcome => ({
    type: 'problem',
    problem: { status, serverMessages: [], ...p },
  });
  const said = body.messages.length > 0 ? `: ${summarize(body.messages)}` : '';
  if (status >= 300 && status < 400) {
    return problem({
      kind: 'protocol',
      detail: describeRedirect(response),
      advice: `${checkBaseUrl(context.advice)}: if the service moved, use the address it redirects to`,
      transient: false,
      effect: 'none',
    });
  }
  if (status === 400 || status === 422 || status === 413) {
    const messages = body.fieldMessages.length > 0 ? body.fieldMessages : body.messages;
    const why =
      status === 413 ? 'the request body is too large for the service' : 'the service rejected the request';
    const listed = messages.length > 0 ? `: ${summarize(messages)}` : '';
    return problem({
      kind: 'validation',
      detail: `${status} ${why}${listed}`,
      ...(status === 413 ? { advice: 'make the workflow smaller (shorter contents, fewer steps)' } : {}),
      serverMessages: messages,
      transient: false,
      effect: 'none',
    });
  }
  if (status === 401 || status === 403) {
    const { detail, advice } = explainAuth(status, body.messages, context.advice);
    return problem({
      kind: 'auth',
      detail: `${status} ${detail}`,
      advice,
      serverMessages: body.messages,
      transient: false,
      effect: 'none',
    });
  }
  if (status === 404) {
    const routeMissing = !body.json || body.messages.some((m) => /^Cannot [A-Z]+ \//.test(m));
    if (context.method === 'GET' && !routeMissing) return { type: 'absent' };
    return problem({
      kind: 'not-found',
      detail: `404 the service has no such endpoint${said}`,
      advice: `${checkBaseUrl(context.advice)}: it must be the API root (wfsync adds /v1 itself)`,
      transient: false,
      effect: 'none',
    });
  }
  const retryAfterMs = parseRetryAfter(response.header('retry-after'), context.now);
  if (status === 429) {
    const hint = retryAfterMs ?? parseRateLimitReset(response.header('ratelimit-reset'), context.now);
    return problem({
      kind: 'rate-limited',
      detail: `429 rate limited${said}`,
      advice: `wait a minute before running again, or lower ${setting(context.advice, 'rateLimit')}`,
      transient: true,
      effect: 'none',
      ...(hint === undefined ? {} : { retryAfterMs: hint }),
    });
  }
  const withHint = retryAfterMs === undefined ? {} : { retryAfterMs };
  if (status === 409) {
    // The service's idempotency guard: an earlier attempt with the same key is still being processed.
    const detail = `409 a request with the same Idempotency-Key is still being processed${said}`;
    return problem({ kind: 'server', detail, transient: true, effect: 'none', ...withHint });
  }
  if (status === 408) {
    return problem({
      kind: 'timeout',
      detail: `408 the service timed out reading the request${said}`,
      advice: 'if this keeps happening, look for a slow proxy between wfsync and the service',
      transient: true,
      effect: 'unknown',
      ...withHint,
    });
  }
  if (status >= 500) {
    // A 503 that says when to come back is load shedding before the work starts: known not applied. Risk: a
    // proxy could answer 503 + Retry-After after forwarding; the Idempotency-Key on the retry covers that when
    // the account has idempotency enabled. Any other 5xx may come after the work was done.
    const effect = status === 503 && retryAfterMs !== undefined ? 'none' : 'unknown';
    if (body.html) {
      return problem({
        kind: 'protocol',
        detail: `${status} with an HTML page instead of JSON (a proxy or gateway error?)`,
        advice: `is the service up? ${checkBaseUrl(context.advice)}`,
        transient: true,
        effect,
        ...withHint,
      });
    }
    const errorId = body.errorId === undefined ? '' : ` (errorId ${body.errorId})`;
    const report =
      body.errorId === undefined ? '' : "; if it keeps failing, give the errorId to the service's support";
    const name = STATUS_CODES[status] ?? 'server error';
    // A body that only repeats the status name ("Service Unavailable") adds nothing.
    const own = said.toLowerCase() === `: ${name.toLowerCase()}` ? '' : said;
    return problem({
      kind: 'server',
      detail: `${status} ${name}${own}${errorId}`,
      advice: `try again later${report}`,
      transient: true,
      effect,
      ...withHint,
    });
  }
  return problem({
    kind: 'protocol',
    detail: `unexpected status ${status}${STATUS_CODES[status] === undefined ? '' : ` ${STATUS_CODES[status]}`}${said}`,
    advice: notTheService(context.advice),
    transient: false,
    effect: 'none',
  });
}

function describeRedirect(response: ReceivedResponse): string {
  const location = response.header('location');
  let host: string | undefined;
  try {
    host = location === undefined ? undefined : new URL(location, 'http://same-host.invalid').host;
  } catch {
    // A Location that is not a URL: host stays undefined ("elsewhere").
  }
  // Only the host: the rest of a Location can carry tokens, and the host is what the user must check.
  const where =
    host === undefined ? 'elsewhere' : host === 'same-host.invalid' ? 'another path on the same host' : host;
  return `${response.status} redirect to ${where}, not followed (the API key is only sent to the configured base URL)`;
}
