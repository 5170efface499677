import { deriveTrigger } from '../derive/trigger.js';
import { isRecord, type Json } from '../json.js';
import { OBJECT_ID } from '../state/check.js';
import { type BuildContext, buildTrigger } from './build-workflow.js';
import { recordTemplateWrites, recordWorkflowWrite, type ServiceState, touched } from './handlers.js';
import { badRequest, notFound } from './http-error.js';
import type { StoredWorkflow } from './types.js';
import { withWrittenTemplates, writeSteps } from './update-steps.js';
import { CHANNELS, checkTemplate, validateCreateRequest } from './validate-request.js';

/**
 * `PUT /v1/workflows/{workflowId}` (and its `/v1/notification-templates` twin), as the service's update does it.
 * Every field is optional; `active` and `draft` are not taken here (the status route sets them). `name`,
 * `description`, `identifier`, `notificationGroupId`, `tags` and `data` are set only when sent non-empty (so a
 * description cannot be cleared; `tags: []` clears), `critical` when not null; `steps` replaces the whole list
 * (update-steps.ts). Nothing to set → 400. The path takes a workflow `_id` only. No environment guard: a Production
 * key may edit the Production copy. Every success leaves a pending change, even one that changed nothing.
 */
export function updateWorkflow(
  state: ServiceState,
  environmentId: string,
  workflowId: string,
  body: unknown,
): { data: StoredWorkflow } {
  const sent = acceptedFields(body);
  checkRequest(state, sent);
  const existing = OBJECT_ID.test(workflowId) ? state.store.find(environmentId, workflowId) : undefined;
  if (existing === undefined) throw notFound(`Notification template with id ${workflowId} not found`);
  const now = state.clock();
  const ctx: BuildContext = { newId: state.newId, now, identity: { ...state.identity, environmentId } };
  const next = touched(existing, now);
  let found = false;
  const set = (apply: () => void): void => {
    apply();
    found = true;
  };
  if (sent.name) set(() => Object.assign(next, { name: sent.name }));
  if (sent.description) set(() => Object.assign(next, { description: sent.description }));
  if (sent.identifier) {
    const identifier = sent.identifier as string;
    if (state.store.hasIdentifier(environmentId, identifier, existing._id))
      throw badRequest(`Notification template with identifier ${identifier} already exists`);
    set(() => Object.assign(next.triggers[0]!, { identifier }));
  }
  if (sent.notificationGroupId)
    set(() => Object.assign(next, { _notificationGroupId: sent.notificationGroupId }));
  if (sent.critical !== undefined) set(() => Object.assign(next, { critical: sent.critical }));
  if (isRecord(sent.preferenceSettings)) {
    const given = sent.preferenceSettings;
    const preferences = Object.fromEntries(
      CHANNELS.map((c) => [c, (given[c] as boolean | undefined) ?? true]),
    );
    set(() => Object.assign(next, { preferenceSettings: preferences }));
  }
  let templates: Json[] = [];
  if (Array.isArray(sent.steps)) {
    const steps = sent.steps as Json[];
    setTriggerVariables(next, steps, ctx);
    const writes = writeSteps(existing, steps, ctx);
    templates = writes.written;
    if (!writes.ok) {
      // Not atomic: the message templates written before the failure stay written, the step list does not move.
      const partial = { ...existing, steps: withWrittenTemplates(existing.steps, writes.updated) };
      state.store.update(environmentId, existing._id, () => partial);
      recordTemplateWrites(state, environmentId, existing._id, templates);
      throw writes.error;
    }
    set(() => Object.assign(next, { steps: writes.steps }));
  }
  if (sent.tags) set(() => Object.assign(next, { tags: sent.tags }));
  if (sent.data) set(() => Object.assign(next, { data: sent.data }));
  if (!found) throw badRequest('No properties found for update');
  const stored = state.store.update(environmentId, existing._id, () => next)!;
  recordWorkflowWrite(state, environmentId, stored, templates);
  return { data: stored };
}

/** The fields the update's DTO takes (whitelisted), null meaning not sent (`@IsOptional()`). */
const FIELDS = [
  'name',
  'description',
  'identifier',
  'tags',
  'notificationGroupId',
  'critical',
  'preferenceSettings',
  'data',
  'steps',
];

function acceptedFields(body: unknown): Json {
  if (!isRecord(body)) return {};
  return Object.fromEntries(
    FIELDS.filter((f) => body[f] !== null && body[f] !== undefined).map((f) => [f, body[f]]),
  );
}

/** The create's messages for the fields sent, then each sent template's type and cta. */
function checkRequest(state: ServiceState, sent: Json): void {
  const { identifier, ...rest } = sent;
  // Stand-ins for the create's required fields, so only what was sent can fail.
  validateCreateRequest(
    { name: 'x', notificationGroupId: state.identity.notificationGroupId, steps: [], ...rest },
    state.generation,
  );
  if (identifier !== undefined && typeof identifier !== 'string')
    throw badRequest(['identifier must be a string']);
  for (const step of Array.isArray(sent.steps) ? (sent.steps as Json[]) : []) {
    if (step.template !== undefined && step.template !== null) {
      checkTemplate(step.template, 'Unexpected error: message template is missing', state.generation);
    }
  }
}

/** The trigger's variables, derived again from the steps as sent (the service reads the request, not the store). */
function setTriggerVariables(next: StoredWorkflow, steps: readonly Json[], ctx: BuildContext): void {
  const withTemplates = steps.filter((s) => isRecord(s.template));
  const derived = deriveTrigger({ steps: withTemplates } as never, { extraction: 'server' });
  if (derived.errors.length > 0) throw badRequest('Failed to extract variables');
  const rebuilt = buildTrigger({ ...derived, identifier: '' }, ctx);
  const trigger = next.triggers[0]!;
  next.triggers = [
    {
      ...trigger,
      variables: rebuilt.variables,
      reservedVariables: rebuilt.reservedVariables,
      subscriberVariables: rebuilt.subscriberVariables,
    } as typeof trigger,
  ];
}
