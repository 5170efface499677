import { badRequest } from './http.js';
import type { Change, Doc, Environment, FakeState } from './state.js';
import type { Written } from './update.js';

/**
 * The changes log: every write to a workflow leaves one pending change per workflow in the writer's environment
 * (later edits fold into it); template writes are hidden child changes of it. Listing and counting as the changes
 * API does (`promoted` required, `page` from 0, `limit` ≤ 100, default 10; newest first; top-level only).
 */

function pendingFor(state: FakeState, environment: Environment, entityId: string, parentId?: string) {
  return state.changes.find(
    (c) =>
      c._environmentId === environment._id &&
      !c.enabled &&
      c._entityId === entityId &&
      c._parentId === parentId,
  );
}

function upsert(
  state: FakeState,
  environment: Environment,
  entry: Pick<Change, '_entityId' | 'type' | 'change'> & { _parentId?: string },
): Change {
  const existing = pendingFor(state, environment, entry._entityId, entry._parentId);
  const at = state.now();
  if (existing !== undefined) {
    existing.change = entry.change;
    existing.updatedAt = at;
    return existing;
  }
  const change: Change = {
    _id: state.newId(),
    ...entry,
    enabled: false,
    _environmentId: environment._id,
    _organizationId: state.organizationId,
    _creatorId: state.creatorId,
    createdAt: at,
    updatedAt: at,
  };
  state.changes.push(change);
  return change;
}

/** Records a workflow write (and its template writes) in the writer's environment. */
export function recordWrite(
  state: FakeState,
  environment: Environment,
  written: Written,
  op: string,
): Change {
  const { workflow } = written;
  const parent = upsert(state, environment, {
    _entityId: workflow._id as string,
    type: 'NotificationTemplate',
    change: { op, name: workflow.name, deleted: workflow.deleted === true },
  });
  for (const templateId of written.templates) {
    const template = environment.templates.get(templateId);
    upsert(state, environment, {
      _entityId: templateId,
      type: 'MessageTemplate',
      _parentId: parent._id,
      change: { op: template?.deleted === true ? 'delete' : 'update', type: template?.type },
    });
  }
  return parent;
}

export function childrenOf(state: FakeState, change: Change): Change[] {
  return state.changes.filter((c) => c._parentId === change._id);
}

export function publicChange(change: Change): Doc {
  return structuredClone(change) as unknown as Doc;
}

export interface Paging {
  page: number;
  limit: number;
}

/** `page` (from 0) and `limit` (1–100, default 10) from a query. */
export function readPaging(query: URLSearchParams): Paging {
  const problems: string[] = [];
  const number = (name: string, fallback: number, max?: number): number => {
    const raw = query.get(name);
    if (raw === null || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 0) problems.push(`${name} must be a non-negative integer`);
    else if (max !== undefined && value > max) problems.push(`${name} must not be greater than ${max}`);
    return value;
  };
  const page = number('page', 0);
  const limit = number('limit', 10, 100);
  if (problems.length > 0) throw badRequest(problems);
  return { page, limit };
}

export function paged(items: Doc[], { page, limit }: Paging): Doc {
  return {
    data: items.slice(page * limit, page * limit + limit),
    totalCount: items.length,
    page,
    pageSize: limit,
  };
}

/** `GET /v1/changes?promoted=…&page=&limit=`. */
export function listChanges(state: FakeState, environment: Environment, query: URLSearchParams): Doc {
  const promoted = query.get('promoted');
  if (promoted !== 'true' && promoted !== 'false')
    throw badRequest(['promoted should not be null or undefined', 'promoted must be a boolean value']);
  const paging = readPaging(query);
  const top = state.changes
    .filter((c) => c._environmentId === environment._id && c._parentId === undefined)
    .filter((c) => c.enabled === (promoted === 'true'))
    .reverse()
    .map((c) => {
      const workflow = environment.workflows.get(c._entityId);
      return {
        ...publicChange(c),
        user: { _id: state.creatorId, firstName: 'Fake', lastName: 'Person' },
        templateName: workflow?.name,
        templateId: c._entityId,
      };
    });
  return paged(top, paging);
}

export function countPending(state: FakeState, environment: Environment): number {
  return state.changes.filter(
    (c) => c._environmentId === environment._id && c._parentId === undefined && !c.enabled,
  ).length;
}
