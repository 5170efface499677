import { isRecord } from '../json.js';
import { OBJECT_ID } from '../state/check.js';
import { type BodyRead, interpretResponse, interpretSuccess } from './interpret.js';
import { type Attempts, attempt, fetchWith, pauseBeforeRetry } from './retry.js';
import { type Call, failure, type Session } from './session.js';
import { workflowsPath } from './transport.js';
import type { ListedWorkflow, Page, ServiceChange } from './types.js';

/**
 * The changes API (`GET /v1/changes`, `/count`, `POST /v1/changes/{id}/apply`, `/bulk/apply`) and the paged list of
 * workflows (`GET /v1/workflows?page&limit`), through the same limiter, retries, timeouts, response cap and
 * redaction as every other call. Applying a change is harmless to repeat (the service says so), so a transient
 * problem is simply asked again, as a GET is. Only the fields wfsync uses are kept of each answer, and every id in
 * them must be an ObjectId: ids go into paths (`/v1/changes/{id}/apply`, `/v1/workflows/{id}`) and state, and an
 * entry whose id is `..`, `bulk` or `a/../b` fails the answer rather than steer a later request to another route.
 */

/** One page of the pending (`promoted=false`) top-level changes of the key's environment. */
export function fetchChangesPage(
  session: Session,
  page: number,
  limit: number,
): Promise<Page<ServiceChange>> {
  const path = `${session.endpoint.basePath}/v1/changes?promoted=false&page=${page}&limit=${limit}`;
  return fetchRequired(session, path, (body) => readPage(body, readChange));
}

/** How many changes are pending. */
export function fetchChangeCount(session: Session): Promise<number> {
  return fetchRequired<number>(session, `${session.endpoint.basePath}/v1/changes/count`, (body) =>
    isRecord(body) && typeof body.data === 'number' && Number.isInteger(body.data) && body.data >= 0
      ? { value: body.data }
      : { problem: 'without the {data: count} the service answers' },
  );
}

/** One page of the key's environment's workflows (`_id`, `_parentId`, the trigger identifier). */
export function fetchWorkflowsPage(
  session: Session,
  page: number,
  limit: number,
): Promise<Page<ListedWorkflow>> {
  const path = `${workflowsPath(session.endpoint)}?page=${page}&limit=${limit}`;
  return fetchRequired(session, path, (body) => readPage(body, readListedWorkflow));
}

/** `POST /v1/changes/{id}/apply`: the changes applied (its children, then it). */
export function applyChange(session: Session, changeId: string): Promise<ServiceChange[]> {
  const path = `${session.endpoint.basePath}/v1/changes/${encodeURIComponent(changeId)}/apply`;
  return send(session, path, {}, (body) => readList(body, readChange));
}

/** `POST /v1/changes/bulk/apply`: the service applies them oldest first and stops at the first failure. */
export function applyChanges(session: Session, changeIds: readonly string[]): Promise<ServiceChange[][]> {
  const path = `${session.endpoint.basePath}/v1/changes/bulk/apply`;
  return send(session, path, { changeIds }, (body) =>
    readList(body, (each) => {
      const read = readList({ data: each }, readChange);
      return 'value' in read ? read.value : undefined;
    }),
  );
}

/** A GET whose route must exist: a 404 is an error here, not "absent". */
async function fetchRequired<T>(
  session: Session,
  path: string,
  read: (body: unknown) => BodyRead<T>,
): Promise<T> {
  const value = await fetchWith<T>(session, path, (response, context) => {
    if (response.status >= 200 && response.status < 300)
      return interpretSuccess(response, context, {
        statuses: [200],
        effect: 'none',
        quoteParseError: true,
        read,
      });
    const outcome = interpretResponse(response, context);
    return outcome.type === 'ok' ? { type: 'absent' } : outcome;
  });
  if (value === undefined) {
    const call: Call = { method: 'GET', path };
    throw failure(session, call, {
      kind: 'not-found',
      detail: '404: the service has no such route (a service without the changes API?)',
      status: 404,
      serverMessages: [],
      transient: false,
      effect: 'none',
    });
  }
  return value;
}

/** A POST that is harmless to repeat: transient problems are retried as a GET's are. */
async function send<T>(
  session: Session,
  path: string,
  body: unknown,
  read: (body: unknown) => BodyRead<T>,
): Promise<T> {
  const call: Call = {
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  };
  const attempts: Attempts = { sent: 0, failed: 0 };
  for (;;) {
    attempts.sent++;
    const outcome = await attempt(session, call, attempts.sent, (response, context) => {
      if (response.status >= 200 && response.status < 300)
        return interpretSuccess(response, context, {
          statuses: [200, 201],
          effect: 'applied',
          quoteParseError: true,
          read,
        });
      const interpreted = interpretResponse(response, context);
      if (interpreted.type === 'problem') return interpreted;
      return { type: 'problem' as const, problem: unexpected(response.status) };
    });
    if (outcome.type === 'ok') return outcome.value;
    if (!outcome.problem.transient) throw failure(session, call, outcome.problem);
    await pauseBeforeRetry(session, call, attempts, outcome.problem);
  }
}

function unexpected(status: number) {
  return {
    kind: 'protocol' as const,
    detail: `${status} is not a status the service answers with`,
    status,
    serverMessages: [],
    transient: false,
    effect: 'unknown' as const,
  };
}

/** `{data: [...], totalCount, page, pageSize}` at the top level, each entry read with `each`. */
function readPage<T>(body: unknown, each: (entry: unknown) => T | undefined): BodyRead<Page<T>> {
  if (!isRecord(body) || !Array.isArray(body.data))
    return { problem: 'without the {data, totalCount, page, pageSize} a paged list has' };
  const list = readList(body, each);
  if ('problem' in list) return list;
  const totalCount = wholeNumber(body.totalCount);
  return { value: { data: list.value, ...(totalCount === undefined ? {} : { totalCount }) } };
}

function readList<T>(body: unknown, each: (entry: unknown) => T | undefined): BodyRead<T[]> {
  if (!isRecord(body) || !Array.isArray(body.data)) return { problem: 'without the {data: [...]} envelope' };
  const value: T[] = [];
  for (const [index, entry] of body.data.entries()) {
    const read = each(entry);
    if (read === undefined)
      return { problem: `with an entry ${index} that does not have the expected shape` };
    value.push(read);
  }
  return { value };
}

function readChange(entry: unknown): ServiceChange | undefined {
  if (!isRecord(entry) || !isObjectId(entry._id) || typeof entry.type !== 'string') return undefined;
  if (!isObjectId(entry._entityId)) return undefined;
  return {
    _id: entry._id,
    _entityId: entry._entityId,
    type: entry.type,
    enabled: entry.enabled === true,
    ...(typeof entry.createdAt === 'string' ? { createdAt: entry.createdAt } : {}),
  };
}

function readListedWorkflow(entry: unknown): ListedWorkflow | undefined {
  if (!isRecord(entry) || !isObjectId(entry._id)) return undefined;
  const parent = entry._parentId;
  if (parent !== undefined && parent !== null && parent !== '' && !isObjectId(parent)) return undefined;
  const trigger =
    Array.isArray(entry.triggers) && isRecord(entry.triggers[0]) ? entry.triggers[0] : undefined;
  return {
    _id: entry._id,
    ...(isObjectId(parent) ? { _parentId: parent } : {}),
    ...(typeof trigger?.identifier === 'string' ? { identifier: trigger.identifier } : {}),
  };
}

function isObjectId(value: unknown): value is string {
  return typeof value === 'string' && OBJECT_ID.test(value);
}

function wholeNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}
