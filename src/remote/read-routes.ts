import type { ErrorObject } from 'ajv';
import {
  validateEnvironmentResponseEnvelope,
  validateNotificationGroupsResponseEnvelope,
} from '../generated/response-validators.js';
import { isRecord } from '../json.js';
import { type BodyRead, interpretResponse, interpretSuccess } from './interpret.js';
import { schemaProblems } from './response-body.js';
import { fetchWith } from './retry.js';
import type { Session } from './session.js';
import type { CurrentEnvironment, NotificationGroup } from './types.js';

/**
 * The service's two read-only routes about the key's environment, through the same limiter, retries, timeouts,
 * response cap and redaction as a GET of a workflow: `GET /v1/environments/me` and `GET /v1/notification-groups`.
 * Each answer is checked against its schema (schemas/*-response.schema.json) and only the fields wfsync uses are
 * kept. The environment's `apiKeys` (the environment's keys, in clear) is dropped the moment the body is parsed,
 * before anything else looks at it, and is never in a message: a body that does not parse is described without
 * the parser's words, which quote the text.
 */

/** `undefined` when the service answers 404 (an older or different service without the route). */
export async function fetchCurrentEnvironment(session: Session): Promise<CurrentEnvironment | undefined> {
  return fetchRead(session, '/v1/environments/me', readEnvironment);
}

/** `undefined` when the service answers 404 (an older or different service without the route). */
export async function fetchNotificationGroups(session: Session): Promise<NotificationGroup[] | undefined> {
  return fetchRead(session, '/v1/notification-groups', readGroups);
}

/** `route` after the base path (`/v1/environments/me`); `read` makes the parsed body the value, or says why not. */
function fetchRead<T>(
  session: Session,
  route: string,
  read: (body: unknown) => BodyRead<T>,
): Promise<T | undefined> {
  return fetchWith(session, `${session.endpoint.basePath}${route}`, (response, context) => {
    const { status } = response;
    if (status >= 200 && status < 300) {
      return interpretSuccess(response, context, {
        statuses: [200],
        effect: 'none',
        quoteParseError: false,
        read,
      });
    }
    // Errors as for a GET of a workflow, where only 2xx answers become a workflow. A route the service does not
    // have is "cannot check", as a workflow it does not have is "absent".
    const outcome = interpretResponse(response, context);
    if (outcome.type === 'ok' || (outcome.type === 'problem' && outcome.problem.kind === 'not-found'))
      return { type: 'absent' };
    return outcome;
  });
}

/** `{data: environment}` → the fields wfsync uses. `apiKeys` is deleted first, whatever else the body holds. */
function readEnvironment(body: unknown): BodyRead<CurrentEnvironment> {
  if (isRecord(body) && isRecord(body.data)) delete body.data.apiKeys;
  if (!validateEnvironmentResponseEnvelope(body))
    return misshapen(validateEnvironmentResponseEnvelope.errors);
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
function readGroups(body: unknown): BodyRead<NotificationGroup[]> {
  if (!validateNotificationGroupsResponseEnvelope(body))
    return misshapen(validateNotificationGroupsResponseEnvelope.errors);
  return {
    value: body.data.map(({ _id, name, _parentId }) => ({
      _id,
      name,
      ...(typeof _parentId === 'string' && _parentId !== '' ? { _parentId } : {}),
    })),
  };
}

function misshapen(errors: ErrorObject[] | null | undefined): { problem: string } {
  return {
    problem: `with an answer that does not have the expected shape (${schemaProblems(errors ?? []).join(', ')})`,
  };
}
