import type { DerivedTrigger } from '../derive/types.js';
import { isRecord, type Json } from '../json.js';
import type { StoredWorkflow } from './types.js';
import { CHANNELS, type CreateRequest } from './validate-request.js';

/**
 * Request → the document the service stores, with everything the server fills in: ObjectIds (a step's `_id`,
 * `_templateId` and `template._id` are the message template's id; `_parentId` chains the steps), the populated
 * template, defaults, timestamps and `__v`. Only the fields the service copies are kept: unknown fields are dropped.
 */

/** Fixed per emulator: who and where the API key belongs to. */
export interface EnvironmentIdentity {
  environmentId: string;
  organizationId: string;
  creatorId: string;
  notificationGroupId: string;
  /** The environment's default layout, given to email templates that name none. */
  layoutId: string;
}

export interface BuildContext {
  newId: () => string;
  /** ms since the epoch */
  now: number;
  identity: EnvironmentIdentity;
}

export type TriggerParts = Pick<DerivedTrigger, 'variables' | 'reservedVariables' | 'subscriberVariables'>;

/** Template fields the message-template command copies (feedId and layoutId become `_feedId`/`_layoutId`). */
const TEMPLATE_FIELDS = [
  'name',
  'subject',
  'title',
  'content',
  'contentType',
  'cta',
  'preheader',
  'senderName',
  'actor',
];
const STEP_FIELDS = ['uuid', 'name', 'replyCallback'];

export function buildWorkflow(
  request: CreateRequest,
  trigger: TriggerParts & { identifier: string },
  ctx: BuildContext,
): StoredWorkflow {
  const { identity } = ctx;
  const timestamp = new Date(ctx.now).toISOString();
  const id = ctx.newId();
  const active = request.active ?? false;
  const preferences = isRecord(request.preferenceSettings) ? request.preferenceSettings : {};
  return {
    _id: id,
    id,
    name: request.name,
    ...(request.description === undefined || request.description === null
      ? {}
      : { description: request.description }),
    active,
    // The service ignores a sent `draft`: an inactive workflow is a draft.
    draft: !active,
    critical: request.critical ?? false,
    isBlueprint: false,
    preferenceSettings: Object.fromEntries(
      CHANNELS.map((c) => [c, (preferences[c] as boolean | null) ?? true]),
    ),
    tags: request.tags ?? [],
    steps: buildSteps(request.steps, ctx),
    triggers: [buildTrigger(trigger, ctx)],
    _notificationGroupId: request.notificationGroupId,
    _environmentId: identity.environmentId,
    _organizationId: identity.organizationId,
    _creatorId: identity.creatorId,
    deleted: false,
    type: 'REGULAR',
    origin: 'novu-cloud-v1',
    ...(request.data ? { data: request.data as Json } : {}),
    createdAt: timestamp,
    updatedAt: timestamp,
    __v: 0,
  };
}

export function buildSteps(steps: readonly Json[], ctx: BuildContext): Json[] {
  let parentId: string | null = null;
  return steps.map((step) => {
    const built = buildStep(step, parentId, ctx);
    parentId = built._id as string;
    return built;
  });
}

/** A stored step; `template`, when given, is its already stored message template (an update keeps its id). */
export function buildStep(step: Json, parentId: string | null, ctx: BuildContext, template?: Json): Json {
  const templateId = template === undefined ? ctx.newId() : (template._id as string);
  const variants = Array.isArray(step.variants) ? buildSteps(step.variants.filter(isRecord), ctx) : [];
  return {
    _id: templateId,
    id: templateId,
    _templateId: templateId,
    _parentId: parentId,
    active: (step.active as boolean | null | undefined) ?? true,
    shouldStopOnFail: (step.shouldStopOnFail as boolean | null | undefined) ?? false,
    ...pick(step, STEP_FIELDS),
    filters: buildFilters(step.filters, ctx),
    metadata: buildMetadata(step.metadata),
    template: template ?? buildTemplate(step.template as Json, templateId, ctx),
    ...(variants.length > 0 ? { variants } : {}),
  };
}

export function buildTemplate(template: Json, id: string, ctx: BuildContext): Json {
  const { identity } = ctx;
  const timestamp = new Date(ctx.now).toISOString();
  const layoutId = template.layoutId ?? (template.type === 'email' ? identity.layoutId : null);
  return {
    _id: id,
    id,
    type: template.type,
    active: true,
    ...pick(template, TEMPLATE_FIELDS),
    variables: Array.isArray(template.variables)
      ? template.variables.filter(isRecord).map((v) => buildVariable(v, ctx))
      : [],
    _feedId: template.feedId ? template.feedId : null,
    _layoutId: layoutId,
    _environmentId: identity.environmentId,
    _organizationId: identity.organizationId,
    _creatorId: identity.creatorId,
    deleted: false,
    createdAt: timestamp,
    updatedAt: timestamp,
    __v: 0,
  };
}

export function buildVariable(variable: Json, ctx: BuildContext): Json {
  const id = ctx.newId();
  return {
    ...pick(variable, ['name', 'type', 'defaultValue']),
    required: (variable.required as boolean | null | undefined) ?? false,
    _id: id,
    id,
  };
}

function buildFilters(filters: unknown, ctx: BuildContext): Json[] {
  if (!Array.isArray(filters)) return [];
  return filters.filter(isRecord).map((filter) => {
    const id = ctx.newId();
    return { ...filter, children: Array.isArray(filter.children) ? filter.children : [], _id: id, id };
  });
}

/** The stored metadata always holds `timed` with its two arrays (schema defaults), whatever the step type. */
function buildMetadata(metadata: unknown): Json {
  const sent = isRecord(metadata) ? metadata : {};
  const timed = isRecord(sent.timed) ? sent.timed : {};
  return { ...sent, timed: { weekDays: [], monthDays: [], ...timed } };
}

export function buildTrigger(
  trigger: TriggerParts & { identifier: string },
  ctx: BuildContext,
): Json & { identifier: string } {
  const withId = <T extends Json>(fields: T): T & { _id: string; id: string } => {
    const id = ctx.newId();
    return { ...fields, _id: id, id };
  };
  return withId({
    type: 'event',
    identifier: trigger.identifier,
    variables: trigger.variables.map((v) => withId({ name: v.name, type: v.type })),
    reservedVariables: trigger.reservedVariables.map((r) =>
      withId({ type: r.type, variables: r.variables.map((v) => withId({ name: v.name, type: v.type })) }),
    ),
    subscriberVariables: trigger.subscriberVariables.map((s) => withId({ name: s.name })),
  });
}

function pick(source: Json, keys: readonly string[]): Json {
  const out: Json = {};
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out;
}
