import type { ErrorObject } from 'ajv';
import {
  type SchemaValidator,
  validateEnvironmentResponseEnvelope,
  validateNotificationGroupsResponseEnvelope,
} from '../generated/validators.js';
import { isRecord } from '../json.js';
import { notTheService } from './errors.js';
import { type InterpretContext, interpretResponse, readJsonBody } from './interpret.js';
import { attemptWith, pauseBeforeRetry } from './retry.js';
import { failure, type Session } from './session.js';
import type { ReceivedResponse } from './transport.js';
import type { CurrentEnvironment, NotificationGroup, Problem } from './types.js';

/**
 * The service's two read-only routes about the key's environment, through the same limiter, retries, timeouts,
 * response cap and redaction as a GET of a workflow: `GET /v1/environments/me` and `GET /v1/notification-groups`.
 * Each answer is checked against its schema (schemas/*-response.schema.json) and only the fields wfsync uses are
 * kept. The environment's `apiKeys` (the environment's keys, in clear) is dropped the moment the body is parsed,
 * before anything else looks at it, and is never in a message: a body that does not parse is described without
 * the parser's words, which quote the text.
 */

/** What one read came to: the value, "the service has no such route" (404), or a Problem. */
type ReadOutcome<T> = { type: 'ok'; value: T } | { type: 'absent' } | { type: 'problem'; problem: Problem };

interface ReadRoute<T> {
  /** After the base path: `/v1/environments/me`. */
  route: string;
  /** The parsed body → the value, or why it is not the service's answer. */
  read: (body: unknown) => { value: T } | { problems: string[] };
}

/** `undefined` when the service answers 404 (an older or different service without the route). */
export async function fetchCurrentEnvironment(session: Session): Promise<CurrentEnvironment | undefined> {
  return fetchRead(session, { route: '/v1/environments/me', read: readEnvironment });
}

/** `undefined` when the service answers 404 (an older or different service without the route). */
export async function fetchNotificationGroups(session: Session): Promise<NotificationGroup[] | undefined> {
  return fetchRead(session, { route: '/v1/notification-groups', read: readGroups });
}

async function fetchRead<T>(session: Session, spec: ReadRoute<T>): Promise<T | undefined> {
  const call = { method: 'GET', path: `${session.endpoint.basePath}${spec.route}` } as const;
  const attempts = { sent: 0, failed: 0 };
  for (;;) {
    attempts.sent++;
    const outcome = await attemptWith(session, call, attempts.sent, (response, context) =>
      interpretRead(response, context, spec.read),
    );
    if (outcome.type === 'ok') return (outcome as { value: T }).value;
    if (outcome.type === 'absent') return undefined;
    const { problem } = outcome as { problem: Problem };
    // A route the service does not have is "cannot check", as a workflow it does not have is "absent".
    if (problem.kind === 'not-found') return undefined;
    if (!problem.transient) throw failure(session, call, problem);
    await pauseBeforeRetry(session, call, attempts, problem);
  }
}

/** Errors as for a GET of a workflow; a 2xx read with `read` instead of as a workflow. */
function interpretRead<T>(
  response: ReceivedResponse,
  context: InterpretContext,
  read: ReadRoute<T>['read'],
): ReadOutcome<T> {
  const { status } = response;
  if (status < 200 || status >= 300) {
    // Only 2xx answers become a workflow there, so this is "absent" or a Problem.
    const outcome = interpretResponse(response, context);
    return outcome.type === 'ok' ? { type: 'absent' } : outcome;
  }
  const broken = (detail: string, advice: string): ReadOutcome<T> => ({
    type: 'problem',
    problem: {
      kind: 'protocol',
      status,
      detail: `${status} ${detail}`,
      advice,
      serverMessages: [],
      transient: false,
      effect: 'none',
    },
  });
  if (status !== 200)
    return broken('is not a status the service answers with', notTheService(context.advice));
  const body = readJsonBody(response, context, { effect: 'none', quoteParseError: false });
  if (body.type === 'problem') return body;
  const parsed = body.value;
  const result = read(parsed);
  if ('problems' in result) {
    return broken(
      `with an answer that does not have the expected shape (${result.problems.join(', ')})`,
      notTheService(context.advice),
    );
  }
  return { type: 'ok', value: result.value };
}

/** `{data: environment}` → the fields wfsync uses. `apiKeys` is deleted first, whatever else the body holds. */
export function readEnvironment(body: unknown): { value: CurrentEnvironment } | { problems: string[] } {
  if (isRecord(body) && isRecord(body.data)) delete body.data.apiKeys;
  if (!validateEnvironmentResponseEnvelope(body))
    return { problems: describeErrors(validateEnvironmentResponseEnvelope) };
  const { _id, name, _organizationId, identifier, _parentId } = body.data;
  return {
    value: {
      _id,
      name,
      ...(_organizationId === undefined ? {} : { _organizationId }),
      ...(identifier === undefined ? {} : { identifier }),
      ...(typeof _parentId === 'string' && _parentId !== '' ? { _parentId } : {}),
    },
  };
}

/** `{data: [group]}` → each group's id and name. */
export function readGroups(body: unknown): { value: NotificationGroup[] } | { problems: string[] } {
  if (!validateNotificationGroupsResponseEnvelope(body))
    return { problems: describeErrors(validateNotificationGroupsResponseEnvelope) };
  return { value: body.data.map(({ _id, name }) => ({ _id, name })) };
}

const MAX_REPORTED = 3;

/** Up to three `/pointer message` strings. ajv's messages name the rule, never the value. */
function describeErrors(validator: SchemaValidator<unknown>): string[] {
  const errors: ErrorObject[] = validator.errors ?? [];
  const problems = errors
    .slice(0, MAX_REPORTED)
    .map((e) => `${e.instancePath === '' ? '(the body)' : e.instancePath} ${e.message ?? 'is invalid'}`);
  if (errors.length > MAX_REPORTED) problems.push(`and ${errors.length - MAX_REPORTED} more`);
  return problems.length > 0 ? problems : ['does not match the schema'];
}
