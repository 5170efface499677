import { STATUS_CODES } from 'node:http';
import { isRecord, JsonTooDeepError, parseJson } from '../json.js';
import {
  type AdviceContext,
  checkBaseUrl,
  explainAuth,
  IN_TRANSIT_ADVICE,
  notTheService,
  seconds,
  setting,
} from './errors.js';
import { parseRateLimitReset, parseRetryAfter } from './rate-limit-headers.js';
import {
  checkWorkflowEnvelope,
  type ErrorBody,
  isHtml,
  isJsonMediaType,
  mediaType,
  readErrorBody,
  summarize,
} from './response-body.js';
import type { ReceivedResponse } from './transport.js';
import type { HttpMethod, Outcome, Problem, WorkflowResponse } from './types.js';

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
  if (status >= 200 && status < 300) return interpretWorkflow(response, context);
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

/** A 2xx read as a workflow; the `Idempotency-Replay` header says whether an earlier attempt had created it. */
function interpretWorkflow(response: ReceivedResponse, context: InterpretContext): Outcome {
  // A create that answered 2xx was applied whatever the body says; a broken body is then a lost response.
  const success = interpretSuccess(response, context, {
    statuses: [200, 201],
    effect: 'applied',
    quoteParseError: true,
    read: readWorkflow,
  });
  if (success.type === 'problem') return success;
  const replayed = response.header('idempotency-replay')?.trim().toLowerCase() === 'true';
  return { type: 'ok', workflow: success.value, replayed };
}

function readWorkflow(body: unknown): BodyRead<WorkflowResponse> {
  if (!isRecord(body) || !isRecord(body.data))
    return { problem: 'without the {data} envelope the service wraps a workflow in' };
  const checked = checkWorkflowEnvelope(body);
  if ('problems' in checked)
    return {
      problem: `with a workflow that does not have the expected shape (${checked.problems.join(', ')})`,
    };
  return { value: checked.envelope.data };
}

export type ProblemOutcome = { type: 'problem'; problem: Problem };

/** What `read` makes of a parsed body: the value, or why it is not the service's answer (after the status). */
export type BodyRead<T> = { value: T } | { problem: string };

/**
 * A 2xx answer read with `read`, or why its body cannot be used: the checks every successful answer goes through (a
 * workflow, and the read routes of read-routes.ts). `statuses` are those the route answers with; `effect` is what
 * the request did; `quoteParseError` adds the parser's words to "not valid JSON" (they quote the body: off where it
 * may hold the environment's keys).
 */
export function interpretSuccess<T>(
  response: ReceivedResponse,
  context: InterpretContext,
  options: {
    statuses: readonly number[];
    effect: Problem['effect'];
    quoteParseError: boolean;
    read: (body: unknown) => BodyRead<T>;
  },
): { type: 'ok'; value: T } | ProblemOutcome {
  const { status } = response;
  const broken = (detail: string, advice = notTheService(context.advice)): ProblemOutcome =>
    problem(status, {
      kind: 'protocol',
      detail: `${status} ${detail}`,
      advice,
      transient: false,
      effect: options.effect,
    });
  if (!options.statuses.includes(status)) return broken('is not a status the service answers with');
  if (response.bodyFailure === 'truncated' || response.bodyFailure === 'body-timeout') {
    return bodyLost(response, context, options.effect);
  }
  if (response.bodyFailure === 'too-large') {
    return broken(`but the response is larger than the ${mebibytes(context.maxResponseBytes)} limit`);
  }
  if (isHtml(response)) {
    return broken(
      'with an HTML page instead of JSON',
      `${checkBaseUrl(context.advice)}: it must be the service's API root, not a web page (or is a login proxy in the way?)`,
    );
  }
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
    parsed = parseJson(response.body.toString('utf8'));
  } catch (error) {
    // Not a transient fault like a body cut short: asking again gets the same answer. This workflow fails, the
    // run goes on (the caller decides per workflow), and nothing walks the value.
    if (error instanceof JsonTooDeepError) return broken(`with a response ${error.message}`);
    return invalidJson(
      status,
      options.quoteParseError ? (error as Error).message : undefined,
      options.effect,
    );
  }
  const read = options.read(parsed);
  return 'problem' in read ? broken(read.problem) : { type: 'ok', value: read.value };
}

/**
 * The status arrived but the body was cut off or too slow: worth asking again, like a lost connection. `effect`
 * is what the request did: `applied` for a 2xx to a POST, `none` for a GET.
 */
function bodyLost(
  response: ReceivedResponse,
  context: InterpretContext,
  effect: Problem['effect'],
): ProblemOutcome {
  const timedOut = response.bodyFailure === 'body-timeout';
  const detail = timedOut
    ? `but the response body did not arrive within ${seconds(context.bodyMs)}`
    : 'but the response body was cut off';
  const advice = timedOut
    ? `if the service is only slow, raise ${setting(context.advice, 'timeouts.bodyMs')}`
    : IN_TRANSIT_ADVICE;
  return problem(response.status, {
    kind: timedOut ? 'timeout' : 'protocol',
    detail: `${response.status} ${detail}`,
    advice,
    transient: true,
    effect,
    cause: response.cause,
  });
}

/** JSON that does not parse. Transient: the usual cause is a body a proxy cut short, and asking again is how a GET recovers. */
function invalidJson(
  status: number,
  parseError: string | undefined,
  effect: Problem['effect'],
): ProblemOutcome {
  return problem(status, {
    kind: 'protocol',
    detail: `${status} with a body that is not valid JSON${parseError === undefined ? '' : ` (${parseError})`}`,
    advice: IN_TRANSIT_ADVICE,
    transient: true,
    effect,
  });
}

/** The problem with an answer of `status`. */
function problem(
  status: number,
  p: Omit<Problem, 'status' | 'serverMessages'> & { serverMessages?: string[] },
): ProblemOutcome {
  return { type: 'problem', problem: { status, serverMessages: [], ...p } };
}

function mebibytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB` : `${bytes} bytes`;
}

function interpretError(response: ReceivedResponse, body: ErrorBody, context: InterpretContext): Outcome {
  const { status } = response;
  const said = body.messages.length > 0 ? `: ${summarize(body.messages)}` : '';
  if (status >= 300 && status < 400) {
    return problem(status, {
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
    return problem(status, {
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
    return problem(status, {
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
    return problem(status, {
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
    return problem(status, {
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
    return problem(status, { kind: 'server', detail, transient: true, effect: 'none', ...withHint });
  }
  if (status === 408) {
    return problem(status, {
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
      return problem(status, {
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
    return problem(status, {
      kind: 'server',
      detail: `${status} ${name}${own}${errorId}`,
      advice: `try again later${report}`,
      transient: true,
      effect,
      ...withHint,
    });
  }
  return problem(status, {
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
