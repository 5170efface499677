import { badRequest, isObjectId, isRecord, notFound, ServiceError } from './http.js';
import type { Doc, Environment, FakeState } from './state.js';
import {
  chainSteps,
  checkStepTemplates,
  createTemplate,
  resolvedSteps,
  stepDocument,
  updateTemplate,
} from './steps.js';
import { optionalFieldProblems, storedTrigger, triggerIdentifier } from './workflow-document.js';

/**
 * The writing routes on one workflow, as the contract states them: `PUT /v1/workflows/{id}` (every field optional,
 * steps matched only by `_templateId`, omitted steps soft-deleted, the array order kept, a template's `type` never
 * changed, `name`/`description` set only when non-empty), the status route and the soft delete. Each returns what
 * it wrote, so the caller records the pending change.
 */

export interface Written {
  workflow: Doc;
  /** Message templates created, updated or deleted by the write. */
  templates: string[];
}

const UPDATABLE = [
  'name',
  'description',
  'identifier',
  'tags',
  'notificationGroupId',
  'critical',
  'preferenceSettings',
  'data',
  'steps',
] as const;

function liveById(environment: Environment, id: string): Doc | undefined {
  const workflow = isObjectId(id) ? environment.workflows.get(id) : undefined;
  return workflow === undefined || workflow.deleted === true ? undefined : workflow;
}

function updateProblems(body: Doc): string[] {
  const problems = optionalFieldProblems(body);
  for (const field of ['name', 'identifier'])
    if (body[field] !== undefined && typeof body[field] !== 'string')
      problems.push(`${field} must be a string`);
  if (body.notificationGroupId !== undefined && !isObjectId(body.notificationGroupId))
    problems.push('notificationGroupId must be a mongodb id');
  if (body.steps !== undefined && !Array.isArray(body.steps)) problems.push('steps must be an array');
  return problems;
}

/** `PUT /v1/workflows/{id}`. Not atomic, as on the service: a failing step leaves earlier template writes. */
export function updateWorkflow(state: FakeState, environment: Environment, id: string, body: Doc): Written {
  const problems = updateProblems(body);
  if (problems.length > 0) throw badRequest(problems);
  const existing = liveById(environment, id);
  if (existing === undefined) throw notFound(`Notification template with id ${id} not found`);
  const workflow = structuredClone(existing);
  const identifier = body.identifier;
  if (typeof identifier === 'string' && identifier !== '' && identifier !== triggerIdentifier(existing)) {
    const clash = [...environment.workflows.values()].some(
      (w) => w.deleted !== true && w._id !== existing._id && triggerIdentifier(w) === identifier,
    );
    if (clash) throw badRequest(`Notification template with identifier ${identifier} already exists`);
  }
  const set = UPDATABLE.filter((field) => {
    const value = body[field];
    if (value === undefined) return false;
    return !(['name', 'description', 'identifier'].includes(field) && value === '');
  });
  if (set.length === 0) throw badRequest('No properties found for update');
  for (const field of set) {
    if (field === 'notificationGroupId') workflow._notificationGroupId = body.notificationGroupId;
    else if (field === 'preferenceSettings' && isRecord(body.preferenceSettings))
      workflow.preferenceSettings = { ...(workflow.preferenceSettings as Doc), ...body.preferenceSettings };
    else if (field !== 'identifier' && field !== 'steps') workflow[field] = body[field];
  }
  const [trigger] = workflow.triggers as Doc[];
  if (set.includes('identifier')) trigger!.identifier = identifier;
  const templates = set.includes('steps')
    ? replaceSteps(state, environment, workflow, body.steps as unknown[])
    : [];
  if (set.includes('steps')) {
    const derived = storedTrigger(
      state,
      trigger!.identifier as string,
      resolvedSteps(environment, workflow.steps),
    );
    workflow.triggers = [{ ...derived, _id: trigger!._id, id: trigger!._id }];
  }
  workflow.updatedAt = state.now();
  environment.workflows.set(workflow._id as string, workflow);
  return { workflow, templates };
}

/** The whole step list replaced; returns the templates written. */
function replaceSteps(state: FakeState, environment: Environment, workflow: Doc, input: unknown[]): string[] {
  checkStepTemplates(input);
  const written: string[] = [];
  const steps = (input as Doc[]).map((step) => {
    const templateId = step._templateId;
    if (templateId === undefined || templateId === null || templateId === '') {
      const template = createTemplate(state, environment, step.template as Doc);
      written.push(template._id as string);
      return stepDocument(state, step, template._id as string);
    }
    const current = typeof templateId === 'string' ? environment.templates.get(templateId) : undefined;
    if (current === undefined || current.deleted === true)
      throw notFound(`Message template with id ${String(templateId)} not found`);
    environment.templates.set(templateId as string, updateTemplate(state, current, step.template as Doc));
    written.push(templateId as string);
    return stepDocument(state, step, templateId as string);
  });
  const kept = new Set(steps.map((s) => s._templateId));
  for (const old of (workflow.steps as Doc[]) ?? []) {
    if (kept.has(old._templateId)) continue;
    softDeleteTemplate(state, environment, old._templateId as string);
    written.push(old._templateId as string);
  }
  workflow.steps = chainSteps(steps);
  return written;
}

function softDeleteTemplate(state: FakeState, environment: Environment, id: string): void {
  const template = environment.templates.get(id);
  if (template !== undefined)
    environment.templates.set(id, { ...template, deleted: true, deletedAt: state.now() });
}

/** `PUT /v1/workflows/{id}/status` (the Development guard is the caller's). */
export function updateStatus(state: FakeState, environment: Environment, id: string, body: Doc): Written {
  if (typeof body.active !== 'boolean') throw badRequest(['active must be a boolean value']);
  const existing = liveById(environment, id);
  if (existing === undefined) throw notFound(`Notification template with id ${id} not found`);
  if (existing.active === body.active)
    throw badRequest('You must provide a different status from the current status');
  const workflow = { ...existing, active: body.active, draft: !body.active, updatedAt: state.now() };
  environment.workflows.set(id, workflow);
  return { workflow, templates: [] };
}

/** `DELETE /v1/workflows/{id}`: a soft delete of the workflow and its templates (the guard is the caller's). */
export function deleteWorkflow(state: FakeState, environment: Environment, id: string): Written {
  const existing = liveById(environment, id);
  if (existing === undefined) throw new ServiceError(400, `Could not find workflow with id ${id}`);
  const at = state.now();
  const workflow = { ...existing, deleted: true, deletedAt: at, deletedBy: state.creatorId, updatedAt: at };
  environment.workflows.set(id, workflow);
  const templates = ((existing.steps as Doc[]) ?? []).map((s) => s._templateId as string);
  for (const template of templates) softDeleteTemplate(state, environment, template);
  return { workflow, templates };
}
