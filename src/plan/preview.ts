/**
 * What a create makes, for the reviewer of a plan: the steps (name, channel, an email's subject), the trigger the
 * app calls, the payload it must send (the trigger's variables as declared, or as the service will derive them from
 * the templates), the subscriber fields and the notification group it lands in. Pure.
 */
import { deriveTrigger, subscriberVariablesOf } from '../derive/trigger.js';
import { isRecord } from '../json.js';
import type { CreatePreview, DesiredWorkflow, PreviewGroup, PreviewStep } from './types.js';

const GROUP_PREFIX = 'group:';

export function buildCreatePreview(desired: DesiredWorkflow): CreatePreview {
  const { definition, body } = desired;
  const [trigger] = definition.triggers;
  const declared = trigger?.variables;
  // As the comparison does: what the service derives from the body it is sent. Scanning every template is the cost
  // of a preview, so it happens only when the payload is not declared; the subscriber fields come from step types.
  const payload = declared ?? deriveTrigger(body, { extraction: 'server' }).variables;
  const subscribers = trigger?.subscriberVariables ?? subscriberVariablesOf(body.steps);
  return {
    trigger: desired.identifier,
    steps: body.steps.map(stepOf),
    payload: payload.map(({ name, type }) => ({
      name,
      ...(type === undefined ? {} : { type }),
    })),
    payloadFrom: declared === undefined ? 'derived' : 'declared',
    subscriberVariables: subscribers.map(({ name }) => name),
    group: groupOf(definition.notificationGroupId, body.notificationGroupId),
  };
}

function stepOf(step: unknown, index: number): PreviewStep {
  const value = isRecord(step) ? step : {};
  const template = isRecord(value.template) ? value.template : {};
  const type = typeof template.type === 'string' ? template.type : 'step';
  const name = typeof value.name === 'string' && value.name !== '' ? value.name : `step ${index + 1}`;
  return {
    name,
    type,
    ...(type === 'email' && typeof template.subject === 'string' ? { subject: template.subject } : {}),
    ...(value.active === false ? { active: false as const } : {}),
  };
}

function groupOf(reference: string | undefined, id: string): PreviewGroup {
  if (reference === undefined) return { id, from: 'default' };
  if (reference.startsWith(GROUP_PREFIX))
    return { id, name: reference.slice(GROUP_PREFIX.length), from: 'named' };
  return { id, from: 'id' };
}
