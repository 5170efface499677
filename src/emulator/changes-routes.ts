import { isRecord, type Json } from '../json.js';
import { publicChange, type StoredChange } from './changes.js';
import type { ServiceState } from './handlers.js';
import { badRequest, EmulatorHttpError } from './http-error.js';
import { type PagedAnswer, pageOf, readPaging } from './paging.js';
import { promoteChange } from './promote.js';

/**
 * The changes API: `GET /v1/changes` (paged, `promoted` required, top-level changes newest first), `/count` (the
 * pending ones), `POST /v1/changes/{id}/apply` (its children, then the change: 201 `{data: Change[]}`) and
 * `POST /v1/changes/bulk/apply` (`{changeIds}`: oldest first whatever the order given, unknown ids skipped, the
 * first failure stops the rest). Applying promotes to Production (promote.ts); only a Development key may.
 */

export function listChanges(
  state: ServiceState,
  environmentId: string,
  query: URLSearchParams,
): PagedAnswer<Json> {
  const promoted = query.get('promoted');
  const paging = readPaging(query, promoted === null ? ['promoted should not be null or undefined'] : []);
  const items = state.changes.topLevel(environmentId, promoted === 'true').map(listed);
  return pageOf(items, paging);
}

export function countChanges(state: ServiceState, environmentId: string): { data: number } {
  return { data: state.changes.topLevel(environmentId, false).length };
}

export function applyChange(state: ServiceState, environmentId: string, changeId: string): { data: Json[] } {
  const change = fromDevelopment(state, environmentId)
    ? state.changes.find(environmentId, changeId)
    : undefined;
  if (change === undefined) throw new EmulatorHttpError(404, 'Not Found', { error: null });
  return { data: applyWithChildren(state, change) };
}

export function applyChanges(state: ServiceState, environmentId: string, body: unknown): { data: Json[][] } {
  const ids = isRecord(body) ? body.changeIds : undefined;
  if (!Array.isArray(ids)) throw badRequest(['changeIds must be an array']);
  if (!fromDevelopment(state, environmentId)) throw new EmulatorHttpError(404, 'Not Found', { error: null });
  const wanted = new Set(ids);
  // The log is kept in creation order, so this is oldest first.
  const changes = state.changes.all().filter((c) => c._environmentId === environmentId && wanted.has(c._id));
  return { data: changes.map((c) => applyWithChildren(state, c)) };
}

/** Children first (oldest first), then the change; each is answered as it was found, before it was applied. */
function applyWithChildren(state: ServiceState, change: StoredChange): Json[] {
  const applied: Json[] = [];
  for (const each of [...state.changes.children(change._id), change]) {
    state.changes.markApplied(each._id);
    promoteChange(state, each);
    applied.push(publicChange(each));
  }
  return applied;
}

function fromDevelopment(state: ServiceState, environmentId: string): boolean {
  return environmentId === state.environments.development._id;
}

/** A list entry: the change, who made it, and the name and id of the workflow it is about. */
function listed(change: StoredChange): Json {
  return {
    ...publicChange(change),
    user: { _id: change._creatorId, firstName: 'Local', lastName: 'Emulator' },
    templateName: typeof change.item.name === 'string' ? change.item.name : '',
    templateId: change._entityId,
  };
}
