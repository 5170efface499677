import { isRecord } from '../json.js';
import { checkBaseUrl, IN_TRANSIT_ADVICE, notTheService, seconds, setting } from './advice.js';
import { isHtml, isJsonMediaType, mediaType } from './error-body.js';
import type { InterpretContext, Outcome, Problem } from './interpret.js';
import type { RemoteErrorKind } from './remote-error.js';
import { checkWorkflowEnvelope } from './response-schema.js';
import type { ReceivedResponse } from './transport.js';

/** A 2xx: the workflow, or why its body cannot be used. */
export function interpretSuccess(response: ReceivedResponse, context: InterpretContext): Outcome {
  const { status } = response;
  // A create that answered 2xx was applied whatever the body says; a broken body is then a lost response.
  const broken = (detail: string, advice: string, kind: RemoteErrorKind = 'protocol'): Outcome => ({
    type: 'problem',
    problem: { ...problem(status, detail, advice, kind), transient: false, effect: 'applied' },
  });
  if (status !== 200 && status !== 201) {
    return broken('is not a status the service answers with', notTheService(context.advice));
  }
  if (response.bodyFailure === 'truncated' || response.bodyFailure === 'body-timeout') {
    return bodyLost(response, context, 'applied');
  }
  if (response.bodyFailure === 'too-large') {
    return broken(
      `but the response is larger than the ${mebibytes(context.maxResponseBytes)} limit`,
      notTheService(context.advice),
    );
  }
  if (isHtml(response)) {
    return broken(
      'with an HTML page instead of JSON',
      `${checkBaseUrl(context.advice)}: it must be the service's API root, not a web page (or is a login proxy in the way?)`,
    );
  }
  const type = mediaType(response.header('content-type'));
  if (!isJsonMediaType(type)) {
    const what =
      type === undefined
        ? 'without a content type (JSON expected)'
        : `with content type "${type}" instead of JSON`;
    return broken(what, notTheService(context.advice));
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.body.toString('utf8'));
  } catch (error) {
    return invalidJson(status, (error as Error).message, 'applied');
  }
  if (!isRecord(parsed) || !isRecord(parsed.data)) {
    return broken(
      'without the {data} envelope the service wraps a workflow in',
      notTheService(context.advice),
    );
  }
  const checked = checkWorkflowEnvelope(parsed);
  if ('problems' in checked) {
    return broken(
      `with a workflow that does not have the expected shape (${checked.problems.join(', ')})`,
      notTheService(context.advice),
    );
  }
  return {
    type: 'ok',
    workflow: checked.envelope.data,
    replayed: response.header('idempotency-replay')?.trim().toLowerCase() === 'true',
  };
}

/**
 * The status arrived but the body was cut off or too slow: worth asking again, like a lost connection. `effect`
 * is what the request did: `applied` for a 2xx to a POST, `none` for a GET.
 */
export function bodyLost(
  response: ReceivedResponse,
  context: InterpretContext,
  effect: Problem['effect'],
): Outcome {
  const timedOut = response.bodyFailure === 'body-timeout';
  const detail = timedOut
    ? `but the response body did not arrive within ${seconds(context.bodyMs)}`
    : 'but the response body was cut off';
  const advice = timedOut
    ? `if the service is only slow, raise ${setting(context.advice, 'timeouts.bodyMs')}`
    : IN_TRANSIT_ADVICE;
  return {
    type: 'problem',
    problem: {
      ...problem(response.status, detail, advice, timedOut ? 'timeout' : 'protocol'),
      transient: true,
      effect,
      cause: response.cause,
    },
  };
}

/** JSON that does not parse. Transient: the usual cause is a body a proxy cut short, and asking again is how a GET recovers. */
export function invalidJson(status: number, parseError: string, effect: Problem['effect']): Outcome {
  const detail = `with a body that is not valid JSON (${parseError})`;
  return {
    type: 'problem',
    problem: { ...problem(status, detail, IN_TRANSIT_ADVICE), transient: true, effect },
  };
}

function problem(
  status: number,
  detail: string,
  advice: string,
  kind: RemoteErrorKind = 'protocol',
): Pick<Problem, 'kind' | 'detail' | 'advice' | 'status' | 'serverMessages'> {
  return { kind, detail: `${status} ${detail}`, advice, status, serverMessages: [] };
}

function mebibytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB` : `${bytes} bytes`;
}
