import { isRecord, type Json } from '../json.js';
import { buildWorkflow, type TriggerParts } from './build-workflow.js';
import { deriveChecked, getWorkflow, type ServiceState, touched } from './handlers.js';
import type { StoredWorkflow } from './types.js';
import { validateCreateRequest } from './validate-request.js';

/**
 * `PUT /v1/workflows/{workflowId}` (and its `/v1/notification-templates` twin): the dashboard's edit. The body has
 * the create body's fields, all optional; each one sent is checked with the create's rules and messages and
 * replaces the stored value. The identity stays (`_id`, trigger identifier, `createdAt`, creator); `updatedAt`
 * moves and `__v` goes up. New steps get new ids, and the trigger's variables are derived from them again.
 */
export function updateWorkflow(
  state: ServiceState,
  environmentId: string,
  workflowId: string,
  body: unknown,
): { data: StoredWorkflow } {
  const existing = getWorkflow(state, environmentId, workflowId).data;
  const sent = presentFields(body);
  // The stored required fields stand in for those not sent, so only what was sent can fail the create's checks.
  const request = validateCreateRequest(
    { name: existing.name, notificationGroupId: existing._notificationGroupId ?? '', steps: [], ...sent },
    state.generation,
  );
  const trigger = existing.triggers[0]!;
  const parts: TriggerParts =
    'steps' in sent
      ? deriveChecked(request, state.generation)
      : { variables: [], reservedVariables: [], subscriberVariables: [] };
  const now = state.clock();
  const built = buildWorkflow(
    request,
    { ...parts, identifier: trigger.identifier },
    { newId: state.newId, now, identity: state.identity },
  );
  const next = touched(existing, now);
  for (const field of Object.keys(sent)) {
    if (field === 'steps') {
      next.steps = built.steps;
      const derived = built.triggers[0]!;
      next.triggers = [
        {
          ...trigger,
          variables: derived.variables,
          reservedVariables: derived.reservedVariables,
          subscriberVariables: derived.subscriberVariables,
        },
      ];
    } else if (field === 'notificationGroupId') next._notificationGroupId = built._notificationGroupId;
    else if (field === 'active') Object.assign(next, { active: built.active, draft: built.draft });
    else if (UPDATABLE.has(field)) (next as Json)[field] = (built as Json)[field];
  }
  return { data: state.store.update(environmentId, existing._id, () => next)! };
}

/** Fields copied from the built document as they are (`draft` is ignored: the service sets it from `active`). */
const UPDATABLE = new Set(['name', 'description', 'tags', 'critical', 'preferenceSettings', 'data']);

/** class-validator's `@IsOptional()`: a field sent as null or left out is not updated. */
function presentFields(body: unknown): Json {
  if (!isRecord(body)) return {};
  return Object.fromEntries(Object.entries(body).filter(([, v]) => v !== null && v !== undefined));
}
