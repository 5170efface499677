import { deriveTrigger } from '../derive/trigger.js';
import type { DerivedTrigger } from '../derive/types.js';
import type { Json } from '../json.js';
import { buildWorkflow, type EnvironmentIdentity } from './build-workflow.js';
import type { ChangeContext, ChangeLog } from './changes.js';
import type { Environments } from './environments.js';
import { badRequest, notFound } from './http-error.js';
import { type Random, shortId, shortSlugId } from './random.js';
import type { WorkflowStore } from './store.js';
import type { StoredWorkflow } from './types.js';
import {
  type CreateRequest,
  checkSteps,
  type Generation,
  validateCreateRequest,
} from './validate-request.js';

/** The two operations, past routing, auth, rate limiting and idempotency, and the state every handler shares. */

export interface ServiceState {
  /** Development's ids (`environmentId` is Development's). */
  identity: EnvironmentIdentity;
  /** Both environments; Production's groups grow as promotion copies groups over. */
  environments: Environments;
  store: WorkflowStore;
  changes: ChangeLog;
  generation: Generation;
  newId: () => string;
  suffixes: Random;
  clock: () => number;
}

/** POST /v1/workflows → the 201 body. Throws the service's 400s. */
export function createWorkflow(state: ServiceState, body: unknown): { data: Record<string, unknown> } {
  const request = validateCreateRequest(body, state.generation);
  const derived = deriveChecked(request, state.generation);
  const slug = state.generation === 'v2' ? derived.identifierV2 : derived.identifierV1;
  const identifier = chooseIdentifier(state, slug);
  const workflow = buildWorkflow(
    request,
    { ...derived, identifier },
    { newId: state.newId, now: state.clock(), identity: state.identity },
  );
  state.store.add(workflow);
  recordWorkflowWrite(state, state.identity.environmentId, workflow, workflow.steps.map(templateOf));
  // The owning group is populated when the environment has it (a create never checks that it does).
  const owner = state.environments.development.groups.find((g) => g._id === workflow._notificationGroupId);
  const group =
    owner === undefined
      ? {}
      : {
          notificationGroup: {
            _id: owner._id,
            name: owner.name,
            _environmentId: owner._environmentId,
            _organizationId: owner._organizationId,
          },
        };
  return { data: { ...workflow, ...group } };
}

/** The create's checks of the steps, then the trigger the service derives from them. */
export function deriveChecked(request: CreateRequest, generation: Generation): DerivedTrigger {
  checkSteps(request.steps, generation);
  // The service's own extractor, quirks included (see DeriveOptions).
  const derived = deriveTrigger(request, { extraction: 'server' });
  if (derived.errors.length > 0) throw badRequest('Failed to extract variables');
  return derived;
}

/**
 * A taken identifier is not an error. The older server appends `-<shortid>` once, without checking again (so a
 * second collision is possible in principle); the newer one tries two suffixes, then gives up with a 400.
 * An empty slug (a name without ASCII letters or digits) is stored as the empty identifier, and the next such
 * workflow gets `-<suffix>`, exactly as the code does it.
 */
function chooseIdentifier(state: ServiceState, slug: string): string {
  const environmentId = state.identity.environmentId;
  const taken = (identifier: string): boolean => state.store.hasIdentifier(environmentId, identifier);
  if (!taken(slug)) return slug;
  if (state.generation === 'v1') return `${slug}-${shortId(state.suffixes)}`;
  for (let attempt = 0; attempt < 2; attempt++) {
    const candidate = `${slug}-${shortSlugId(state.suffixes)}`;
    if (!taken(candidate)) return candidate;
  }
  throw badRequest(
    `Workflow identifier "${slug}" is already in use and no unique identifier could be generated`,
  );
}

/** GET /v1/workflows/{workflowId} → the 200 body. `environmentId` is the key's environment. */
export function getWorkflow(
  state: ServiceState,
  environmentId: string,
  workflowId: string,
): { data: StoredWorkflow } {
  const workflow = state.store.find(environmentId, workflowId);
  if (workflow === undefined) throw notFound(`Template with id ${workflowId} not found`);
  return { data: workflow };
}

/** An edit's bookkeeping, as the service's update does it: `updatedAt` now, `__v` one up. */
export function touched(workflow: StoredWorkflow, now: number): StoredWorkflow {
  const version = typeof workflow.__v === 'number' ? workflow.__v : 0;
  return { ...workflow, updatedAt: new Date(now).toISOString(), __v: version + 1 };
}

/** Who writes, where and when, for the changes log. */
export function changeContext(state: ServiceState, environmentId: string): ChangeContext {
  return {
    environmentId,
    organizationId: state.identity.organizationId,
    creatorId: state.identity.creatorId,
    newId: state.newId,
    now: state.clock(),
  };
}

/**
 * A workflow write in the changes log: each message template written (created, updated or deleted) as a child of
 * the workflow's one pending change, then that change, folded or opened.
 */
export function recordWorkflowWrite(
  state: ServiceState,
  environmentId: string,
  workflow: StoredWorkflow,
  templates: readonly Json[],
): void {
  const parentId = recordTemplateWrites(state, environmentId, workflow._id, templates);
  const ctx = changeContext(state, environmentId);
  state.changes.record(
    ctx,
    { type: 'NotificationTemplate', entityId: workflow._id, item: workflow },
    parentId,
  );
}

/** Message templates written for a workflow, as children of its pending change (whose id this returns). */
export function recordTemplateWrites(
  state: ServiceState,
  environmentId: string,
  workflowId: string,
  templates: readonly Json[],
): string {
  const ctx = changeContext(state, environmentId);
  const parentId = state.changes.pendingId(environmentId, 'NotificationTemplate', workflowId, state.newId);
  for (const template of templates) {
    const entityId = template._id as string;
    state.changes.record(ctx, { type: 'MessageTemplate', entityId, item: template, parentId });
  }
  return parentId;
}

export const templateOf = (step: Json): Json => step.template as Json;
