import { badRequest, isRecord } from './http.js';
import type { Doc, Environment, FakeState } from './state.js';

/**
 * Steps and their message templates as the service stores them: a step holds `_templateId` (its `_id` too) and
 * the template lives apart in the environment, so an update that keeps a `_templateId` keeps the template. The
 * service checks only that a step has a template with a known `type`; everything else is stored as sent.
 */

export const TEMPLATE_TYPES = [
  'in_app',
  'email',
  'sms',
  'chat',
  'push',
  'digest',
  'trigger',
  'delay',
  'custom',
];

/** Template fields stored as sent (`feedId`/`layoutId` become `_feedId`/`_layoutId`). */
const TEMPLATE_FIELDS = [
  'name',
  'subject',
  'title',
  'preheader',
  'senderName',
  'content',
  'contentType',
  'cta',
  'actor',
] as const;
/**
 * On update, the contract's rule: these change only when the new value is non-empty; `cta` and the feed are removed
 * when omitted. Of the fields it does not name (`preheader`, `senderName`), a sent value is stored and an omitted one
 * kept.
 */
const KEPT_WHEN_EMPTY = new Set(['name', 'content', 'variables', 'contentType', 'subject', 'title', 'actor']);
const REMOVED_WHEN_OMITTED = new Set(['cta']);

const STEP_FIELDS = ['uuid', 'name', 'metadata', 'replyCallback', 'variants'] as const;

export function checkStepTemplates(steps: unknown[]): void {
  for (const step of steps) {
    const template = isRecord(step) ? step.template : undefined;
    if (!isRecord(template)) throw badRequest('Unexpected error: message template is missing');
    if (typeof template.type !== 'string' || !TEMPLATE_TYPES.includes(template.type))
      throw badRequest([`type must be one of the following values: ${TEMPLATE_TYPES.join(', ')}`]);
    if (isRecord(template.cta) && template.cta.action === '')
      throw badRequest(['cta.action must be an object']);
  }
}

const isEmpty = (value: unknown): boolean =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

function withIds(state: FakeState, items: unknown): unknown[] {
  return (Array.isArray(items) ? items : []).map((item) => {
    const id = state.newId();
    return isRecord(item) ? { ...item, _id: id, id } : item;
  });
}

function templateVariables(state: FakeState, variables: unknown): unknown[] {
  return withIds(
    state,
    (Array.isArray(variables) ? variables : []).map((v) => (isRecord(v) ? { required: false, ...v } : v)),
  );
}

/** A new message template in `environment` from a step's `template`. */
export function createTemplate(state: FakeState, environment: Environment, input: Doc): Doc {
  const at = state.now();
  const id = state.newId();
  const template: Doc = { _id: id, id, type: input.type, active: true };
  for (const field of TEMPLATE_FIELDS) if (input[field] !== undefined) template[field] = input[field];
  Object.assign(template, {
    variables: templateVariables(state, input.variables),
    _feedId: input.feedId ?? null,
    _layoutId: input.layoutId ?? null,
    _environmentId: environment._id,
    _organizationId: state.organizationId,
    _creatorId: state.creatorId,
    deleted: false,
    createdAt: at,
    updatedAt: at,
    __v: 0,
  });
  environment.templates.set(id, template);
  return template;
}

/** An existing template updated from a step's `template`: `type` never changes; see KEPT_WHEN_EMPTY. */
export function updateTemplate(state: FakeState, existing: Doc, input: Doc): Doc {
  const template: Doc = { ...existing };
  for (const field of TEMPLATE_FIELDS) {
    if (KEPT_WHEN_EMPTY.has(field)) {
      if (!isEmpty(input[field])) template[field] = input[field];
    } else if (input[field] !== undefined) template[field] = input[field];
    else if (REMOVED_WHEN_OMITTED.has(field)) delete template[field];
  }
  if (!isEmpty(input.variables)) template.variables = templateVariables(state, input.variables);
  if (!isEmpty(input.layoutId)) template._layoutId = input.layoutId;
  template._feedId = input.feedId ?? null;
  template.updatedAt = state.now();
  return template;
}

/** A stored step pointing at `templateId`; the fields the service fills in are set, the rest as sent. */
export function stepDocument(state: FakeState, input: Doc, templateId: string): Doc {
  const step: Doc = {
    _id: templateId,
    _templateId: templateId,
    active: typeof input.active === 'boolean' ? input.active : true,
    shouldStopOnFail: typeof input.shouldStopOnFail === 'boolean' ? input.shouldStopOnFail : false,
    filters: withIds(state, input.filters),
  };
  for (const field of STEP_FIELDS) if (input[field] !== undefined) step[field] = input[field];
  const metadata = isRecord(input.metadata) ? input.metadata : {};
  const timed = isRecord(metadata.timed) ? metadata.timed : {};
  step.metadata = { ...metadata, timed: { weekDays: [], monthDays: [], ...timed } };
  return step;
}

/** `_parentId` links each step to the one before it (`null` for the first). */
export function chainSteps(steps: Doc[]): Doc[] {
  return steps.map((step, i) => ({ ...step, _parentId: i === 0 ? null : steps[i - 1]!._id }));
}

/** The steps of a workflow with their templates resolved (a template that no longer exists is `null`). */
export function resolvedSteps(environment: Environment, steps: unknown): Doc[] {
  return (Array.isArray(steps) ? (steps as Doc[]) : []).map((step) => {
    const template = environment.templates.get(step._templateId as string);
    return { ...step, id: step._id, template: template === undefined ? null : structuredClone(template) };
  });
}
