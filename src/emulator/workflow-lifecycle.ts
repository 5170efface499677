import { isRecord, type Json } from '../json.js';
import { OBJECT_ID } from '../state/check.js';
import { recordWorkflowWrite, type ServiceState, templateOf, touched } from './handlers.js';
import { badRequest, notFound } from './http-error.js';
import { type PagedAnswer, pageOf, readPaging } from './paging.js';
import type { StoredWorkflow } from './types.js';

/**
 * A workflow's life past its creation, as the service has it: the status route (`active`, and `draft` with it), the
 * soft delete, and the paged list of the key's environment. Status and delete are Development-only (the pipeline's
 * guard); each success leaves a pending change for promotion.
 */

/** `DELETE /v1/workflows/{id}` → `{data: true}`; the workflow and its templates are soft-deleted. */
export function deleteWorkflow(
  state: ServiceState,
  environmentId: string,
  workflowId: string,
): { data: true } {
  const existing = OBJECT_ID.test(workflowId) ? state.store.find(environmentId, workflowId) : undefined;
  if (existing === undefined) throw badRequest(`Could not find workflow with id ${workflowId}`);
  const now = new Date(state.clock()).toISOString();
  const gone = { deleted: true, deletedAt: now, deletedBy: state.identity.creatorId, updatedAt: now };
  const deleted = state.store.update(environmentId, existing._id, (w) => ({ ...w, ...gone }))!;
  const templates = existing.steps.map((s) => ({ ...templateOf(s), ...gone }));
  recordWorkflowWrite(state, environmentId, deleted, templates);
  return { data: true };
}

/** `PUT /v1/workflows/{id}/status` with `{active}` → the workflow as stored. */
export function changeStatus(
  state: ServiceState,
  environmentId: string,
  workflowId: string,
  body: unknown,
): { data: StoredWorkflow } {
  const active = isRecord(body) ? body.active : undefined;
  if (typeof active !== 'boolean') {
    const missing = active === undefined || active === null;
    throw badRequest([
      ...(missing ? ['active should not be null or undefined'] : []),
      'active must be a boolean value',
    ]);
  }
  const existing = OBJECT_ID.test(workflowId) ? state.store.find(environmentId, workflowId) : undefined;
  if (existing === undefined) throw notFound(`Template with id ${workflowId} not found`);
  if (existing.active === active)
    throw badRequest('You must provide a different status from the current status');
  const next = { ...touched(existing, state.clock()), active, draft: !active };
  const stored = state.store.update(environmentId, existing._id, () => next)!;
  recordWorkflowWrite(state, environmentId, stored, []);
  return { data: stored };
}

/** `GET /v1/workflows?page=&limit=`: the key's environment's live workflows, newest first. */
export function listWorkflows(
  state: ServiceState,
  environmentId: string,
  query: URLSearchParams,
): PagedAnswer<Json> {
  const paging = readPaging(query);
  return pageOf(state.store.list(environmentId).reverse(), paging);
}
