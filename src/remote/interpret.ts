import { STATUS_CODES } from 'node:http';
import { parseRateLimitReset, parseRetryAfter } from './backoff.js';
import { isHtml, isJsonMediaType, isRecord, mediaType, readErrorBody, summarize } from './error-body.js';
import type { RemoteErrorKind } from './remote-error.js';
import { checkWorkflowEnvelope } from './response-schema.js';
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
  /** The message after `METHOD path: `. */
  detail: string;
  status?: number;
  serverMessages: string[];
  /** Sending the same request again may get a different answer. */
  transient: boolean;
  /** What a POST may have done on the service: `none` (known not applied), `unknown`, `applied` (201 seen). */
  effect: 'none' | 'unknown' | 'applied';
  /** How long the service asked us to wait (Retry-After, or RateLimit-Reset on a 429). */
  retryAfterMs?: number;
  cause?: unknown;
}

export interface InterpretContext {
  method: HttpMethod;
  now: number;
  apiKeyEnv: string | undefined;
  maxResponseBytes: number;
  bodyMs: number;
}

/** Turn a received response into a workflow, "absent" (GET 404), or a Problem. Pure apart from the schema load. */
export function interpretResponse(response: ReceivedResponse, context: InterpretContext): Outcome {
  const { status } = response;
  if (status >= 200 && status < 300) return interpretSuccess(response, context);
  const body = readErrorBody(response);
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
      serverMessages: messages,
      transient: false,
      effect: 'none',
    });
  }
  if (status === 401 || status === 403) {
    const detail = `${status} ${explainAuth(body.messages, context)}`;
    return problem({ kind: 'auth', detail, serverMessages: body.messages, transient: false, effect: 'none' });
  }
  if (status === 404) {
    const routeMissing = !body.json || body.messages.some((m) => /^Cannot [A-Z]+ \//.test(m));
    if (context.method === 'GET' && !routeMissing) return { type: 'absent' };
    const detail = `404 the service has no such endpoint${said}: check the base URL (the API root; wfsync adds /v1 itself)`;
    return problem({ kind: 'not-found', detail, transient: false, effect: 'none' });
  }
  const retryAfterMs = parseRetryAfter(response.header('retry-after'), context.now);
  if (status === 429) {
    const hint = retryAfterMs ?? parseRateLimitReset(response.header('ratelimit-reset'), context.now);
    return problem({
      kind: 'rate-limited',
      detail: `429 rate limited${said}`,
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
    const errorId = body.errorId === undefined ? '' : ` (errorId ${body.errorId})`;
    const detail = body.html
      ? `${status} with an HTML page instead of JSON (a proxy or gateway error?)`
      : `${status} ${STATUS_CODES[status] ?? 'server error'}${said}${errorId}`;
    return problem({ kind: body.html ? 'protocol' : 'server', detail, transient: true, effect, ...withHint });
  }
  return problem({
    kind: 'protocol',
    detail: `unexpected status ${status}${said}`,
    transient: false,
    effect: 'none',
  });
}

function interpretSuccess(response: ReceivedResponse, context: InterpretContext): Outcome {
  const { status } = response;
  // A create that answered 2xx was applied whatever the body says; a broken body is then a lost response.
  const broken = (detail: string, transient = false, kind: RemoteErrorKind = 'protocol'): Outcome => ({
    type: 'problem',
    problem: {
      kind,
      detail: `${status} ${detail}`,
      status,
      serverMessages: [],
      transient,
      effect: 'applied',
      cause: response.cause,
    },
  });
  if (status !== 200 && status !== 201) return broken('is not a status the service answers with');
  if (response.bodyFailure === 'truncated') return broken('but the response body was cut off', true);
  if (response.bodyFailure === 'body-timeout') {
    return broken(`but the response body did not arrive within ${seconds(context.bodyMs)}`, true, 'timeout');
  }
  if (response.bodyFailure === 'too-large') {
    return broken(
      `but the response is larger than the ${mebibytes(context.maxResponseBytes)} limit (maxResponseBytes)`,
    );
  }
  if (isHtml(response)) return broken('with an HTML page instead of JSON (a proxy or gateway error?)');
  const type = mediaType(response.header('content-type'));
  if (!isJsonMediaType(type)) {
    return broken(
      type === undefined
        ? 'without a content type (JSON expected)'
        : `with content type "${type}" instead of JSON`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.body.toString('utf8'));
  } catch (error) {
    // Transient: the usual cause is a body a proxy cut short, and asking again is how a GET recovers from that.
    return broken(`with a body that is not valid JSON (${(error as Error).message})`, true);
  }
  if (!isRecord(parsed) || !isRecord(parsed.data)) {
    return broken('without the {data} envelope the service wraps a workflow in');
  }
  const checked = checkWorkflowEnvelope(parsed);
  if ('problems' in checked) {
    return broken(`with a workflow that does not have the expected shape: ${checked.problems.join('; ')}`);
  }
  return {
    type: 'ok',
    workflow: checked.envelope.data,
    replayed: response.header('idempotency-replay')?.trim().toLowerCase() === 'true',
  };
}

function describeRedirect(response: ReceivedResponse): string {
  const location = response.header('location');
  let host: string | undefined;
  try {
    host = location === undefined ? undefined : new URL(location, 'http://same-host.invalid').host;
  } catch {
    host = undefined;
  }
  // Only the host: the rest of a Location can carry tokens, and the host is what the user must check.
  const where =
    host === undefined ? 'elsewhere' : host === 'same-host.invalid' ? 'another path on the same host' : host;
  return `${response.status} redirect to ${where}, not followed (the API key is only sent to the configured base URL): check the base URL`;
}

function explainAuth(messages: readonly string[], context: InterpretContext): string {
  const said = messages.join(' ');
  const key = context.apiKeyEnv === undefined ? 'the API key' : `the API key in $${context.apiKeyEnv}`;
  if (/Missing authorization header|Invalid authentication scheme/i.test(said)) {
    return `the service did not receive the API key (it said: ${said}): check that nothing between wfsync and the service drops or replaces the Authorization header`;
  }
  if (/API Key not found/i.test(said)) return `${key} was rejected: check it belongs to this environment`;
  if (/only allowed in Development environment/i.test(said)) {
    return 'creating workflows needs a Development-environment key; this key belongs to Production';
  }
  return `authentication failed${said === '' ? '' : `: ${summarize(messages)}`}`;
}

export function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

function mebibytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB` : `${bytes} bytes`;
}
