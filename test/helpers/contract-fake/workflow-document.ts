import { badRequest, isObjectId, isRecord } from './http.js';
import type { Doc, Environment, FakeState } from './state.js';
import { chainSteps, checkStepTemplates, createTemplate, resolvedSteps, stepDocument } from './steps.js';
import { deriveTrigger, slugOf } from './trigger.js';

/**
 * Creating a workflow: the create DTO's checks (with the service's messages), the stored document with every field
 * the server fills in (ids, defaults, trigger, timestamps, `__v`), and the document as GET answers it.
 */

const CHANNELS = ['email', 'sms', 'in_app', 'chat', 'push'];

/** The DTO's messages for a create body, in the service's order; empty when it passes. */
export function createBodyProblems(body: Doc): string[] {
  const problems: string[] = [];
  if (body.name === undefined || body.name === null) problems.push('name should not be null or undefined');
  if (typeof body.name !== 'string') problems.push('name must be a string');
  if (body.notificationGroupId === undefined || body.notificationGroupId === null)
    problems.push('Notification group must be provided ');
  if (typeof body.notificationGroupId !== 'string') problems.push('notificationGroupId must be a string');
  else if (!isObjectId(body.notificationGroupId)) problems.push('notificationGroupId must be a mongodb id');
  if (body.steps === undefined || body.steps === null) problems.push('steps should not be null or undefined');
  if (!Array.isArray(body.steps)) problems.push('steps must be an array');
  problems.push(...optionalFieldProblems(body));
  return problems;
}

/** Checks of the fields every write route accepts optionally (create and update share them). */
export function optionalFieldProblems(body: Doc): string[] {
  const problems: string[] = [];
  if (body.description !== undefined) {
    if (typeof body.description !== 'string') problems.push('description must be a string');
    else if (body.description.length > 1000)
      problems.push('description must be shorter than or equal to 1000 characters');
  }
  if (body.tags !== undefined) {
    if (!Array.isArray(body.tags)) problems.push('tags must be an array');
    else if (body.tags.some((t) => typeof t !== 'string'))
      problems.push('each value in tags must be a string');
  }
  for (const flag of ['active', 'critical'])
    if (body[flag] !== undefined && typeof body[flag] !== 'boolean')
      problems.push(`${flag} must be a boolean value`);
  return problems;
}

/** A free identifier: the slug, or the slug with `-<short id>` when the environment already uses it. */
function freeIdentifier(environment: Environment, wanted: string, state: FakeState): string {
  const taken = (candidate: string) =>
    [...environment.workflows.values()].some((w) => w.deleted !== true && triggerIdentifier(w) === candidate);
  if (!taken(wanted)) return wanted;
  return `${wanted}-${state.newId().slice(-8)}`;
}

export function triggerIdentifier(workflow: Doc): string | undefined {
  const [trigger] = (workflow.triggers as Doc[] | undefined) ?? [];
  return trigger?.identifier as string | undefined;
}

/** The trigger stored on a workflow: derived from its steps, with the ids the service gives subdocuments. */
export function storedTrigger(state: FakeState, identifier: string, steps: Doc[]): Doc {
  const trigger = deriveTrigger(identifier, steps);
  const id = state.newId();
  const variables = (trigger.variables as Doc[]).map((v) => {
    const vid = state.newId();
    return { ...v, _id: vid, id: vid };
  });
  return { ...trigger, variables, _id: id, id };
}

/** Stores a new workflow in `environment` from a checked body; returns the stored document. */
export function createWorkflow(state: FakeState, environment: Environment, body: Doc): Doc {
  const problems = createBodyProblems(body);
  if (problems.length > 0) throw badRequest(problems);
  const stepsIn = body.steps as unknown[];
  checkStepTemplates(stepsIn);
  const steps = chainSteps(
    (stepsIn as Doc[]).map((step) => {
      const template = createTemplate(state, environment, step.template as Doc);
      return stepDocument(state, step, template._id as string);
    }),
  );
  const resolved = resolvedSteps(environment, steps);
  const identifier = freeIdentifier(environment, slugOf(body.name as string), state);
  const trigger = storedTrigger(state, identifier, resolved);
  const at = state.now();
  const id = state.newId();
  const active = body.active === true;
  const preferenceSettings = Object.fromEntries(CHANNELS.map((c) => [c, true]));
  if (isRecord(body.preferenceSettings)) Object.assign(preferenceSettings, body.preferenceSettings);
  const workflow: Doc = {
    _id: id,
    id,
    name: body.name,
    ...(body.description === undefined ? {} : { description: body.description }),
    active,
    draft: !active,
    critical: body.critical === true,
    isBlueprint: false,
    type: 'REGULAR',
    origin: 'novu-cloud-v1',
    preferenceSettings,
    tags: body.tags ?? [],
    steps,
    triggers: [trigger],
    _notificationGroupId: body.notificationGroupId,
    _environmentId: environment._id,
    _organizationId: state.organizationId,
    _creatorId: state.creatorId,
    deleted: false,
    ...(body.data === undefined ? {} : { data: body.data }),
    createdAt: at,
    updatedAt: at,
    __v: 0,
  };
  environment.workflows.set(id, workflow);
  return workflow;
}

/** The workflow as GET answers it: its steps' templates resolved. */
export function workflowResponse(environment: Environment, workflow: Doc): Doc {
  return { ...structuredClone(workflow), steps: resolvedSteps(environment, workflow.steps) };
}

/** The create response adds the owning group (the seed's NotificationGroup fields), when it exists. */
export function createResponse(environment: Environment, workflow: Doc): Doc {
  const response = workflowResponse(environment, workflow);
  const group = environment.groups.find((g) => g._id === workflow._notificationGroupId);
  if (group === undefined) return response;
  const { _id, name, _environmentId, _organizationId, _parentId } = group;
  const notificationGroup = {
    _id,
    name,
    _environmentId,
    _organizationId,
    ...(_parentId ? { _parentId } : {}),
  };
  return { ...response, notificationGroup };
}

/** GET's lookup: a canonical id by `_id`, anything else by trigger identifier; deleted ones are not found. */
export function findWorkflow(environment: Environment, idOrIdentifier: string): Doc | undefined {
  const live = [...environment.workflows.values()].filter((w) => w.deleted !== true);
  if (isObjectId(idOrIdentifier)) return live.find((w) => w._id === idOrIdentifier);
  return live.find((w) => triggerIdentifier(w) === idOrIdentifier);
}
