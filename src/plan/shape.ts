/**
 * The declarable structure of a workflow definition (schemas/workflow.schema.json, in its property order), with
 * what comparing and pulling need to know per node: the server's documented defaults, how lists are matched, and
 * where the service stores a field under another name. A test keeps it in step with the schema.
 */
import type { Json } from '../json.js';

export type Shape = ValueShape | ObjectShape | ListShape;

/** Compared as a whole: scalars, lists of scalars (tags, weekDays) and free-form objects (`data`). */
export interface ValueShape {
  kind: 'value';
  /** The schema allows null here (kept by pull). */
  nullable?: boolean;
}

export interface ObjectShape {
  kind: 'object';
  /** Declarable fields, in schema order. */
  fields: Readonly<Record<string, Shape>>;
  /** Documented server defaults: an undeclared field is compared against them, and pull leaves them out. */
  defaults?: Readonly<Json>;
  /** Values the service fills in that mean "nothing declared": pull leaves them out, comparing ignores them. */
  pullOmits?: Readonly<Json>;
  /** Fields pull never writes (environment-specific values the service fills in itself). */
  pullSkips?: readonly string[];
  /** Where the service's response holds a field under another name. */
  remote?: Readonly<Record<string, (response: Json) => unknown>>;
}

export interface ListShape {
  kind: 'list';
  items: Shape;
  /**
   * index: element by element (steps, filters); name: elements matched by `name`, order ignored, each compared
   * field by field (template variables); set: matched by `name`, the whole list reported as one change when the
   * sets differ (trigger variables).
   */
  match: 'index' | 'name' | 'set';
}

const value: ValueShape = { kind: 'value' };
const object = (
  fields: Record<string, Shape>,
  extra: Omit<ObjectShape, 'kind' | 'fields'> = {},
): ObjectShape => ({
  kind: 'object',
  fields,
  ...extra,
});
const list = (items: Shape, match: ListShape['match'] = 'index'): ListShape => ({
  kind: 'list',
  items,
  match,
});
const values = (...names: string[]): Record<string, Shape> =>
  Object.fromEntries(names.map((n) => [n, value]));

/** `template.feedId` is stored as `_feedId`, `layoutId` as `_layoutId`; newer servers may send either. */
const renamed =
  (name: string, stored: string) =>
  (response: Json): unknown =>
    name in response ? response[name] : response[stored];

const CHANNELS = ['email', 'sms', 'in_app', 'chat', 'push'] as const;

const PREFERENCE_SETTINGS = object(values(...CHANNELS), {
  defaults: Object.fromEntries(CHANNELS.map((c) => [c, true])),
});

const EMAIL_BLOCK = object({ ...values('type', 'content', 'url'), styles: object(values('textAlign')) });

const TEMPLATE_VARIABLE = object(values('name', 'type', 'required', 'defaultValue'), {
  defaults: { required: false },
});

const CALL_TO_ACTION = object({
  type: value,
  data: object(values('url', 'target')),
  action: object({
    status: value,
    buttons: list(object(values('type', 'content', 'resultContent'))),
    result: object(values('payload', 'type')),
  }),
});

const TEMPLATE = object(
  {
    type: value,
    // A string, or email blocks (the comparison falls back to a whole-value compare for strings).
    content: list(EMAIL_BLOCK),
    ...values('contentType', 'subject', 'title', 'preheader', 'senderName', 'name'),
    variables: list(TEMPLATE_VARIABLE, 'name'),
    cta: CALL_TO_ACTION,
    ...values('feedId', 'layoutId'),
    actor: object({ type: value, data: { kind: 'value', nullable: true } }),
  },
  {
    pullOmits: { variables: [] },
    // Every email template gets the environment's default layout: pulling it would pin one environment's id.
    pullSkips: ['layoutId'],
    remote: { feedId: renamed('feedId', '_feedId'), layoutId: renamed('layoutId', '_layoutId') },
  },
);

const FILTER_PART = object(
  values('on', 'field', 'value', 'operator', 'webhookUrl', 'timeOperator', 'step', 'stepType'),
);
const STEP_FILTER = object({ ...values('isNegated', 'type', 'value'), children: list(FILTER_PART) });

const TIMED_CONFIG = object(
  values('atTime', 'weekDays', 'monthDays', 'ordinal', 'ordinalValue', 'monthlyType'),
  // The service stores `timed: {weekDays: [], monthDays: []}` in every step's metadata.
  { pullOmits: { weekDays: [], monthDays: [] } },
);

const STEP_METADATA = object({
  ...values('type', 'amount', 'unit', 'digestKey', 'backoff', 'backoffAmount', 'backoffUnit', 'updateMode'),
  timed: TIMED_CONFIG,
  delayPath: value,
});

const STEP_FIELDS: Record<string, Shape> = {
  ...values('name', 'uuid', 'active', 'shouldStopOnFail'),
  template: TEMPLATE,
  filters: list(STEP_FILTER),
  metadata: STEP_METADATA,
  replyCallback: object(values('active', 'url')),
};

export const STEP_SHAPE: ObjectShape = object(STEP_FIELDS, {
  defaults: { active: true, shouldStopOnFail: false, filters: [] },
});
// Variants are steps: the one recursive node, closed after the step shape exists (it stays the last field).
STEP_FIELDS.variants = list(STEP_SHAPE);

const TRIGGER = object(
  {
    ...values('type', 'identifier'),
    variables: list(object(values('name', 'type')), 'set'),
    subscriberVariables: list(object(values('name')), 'set'),
  },
  // Undeclared lists are derived from the steps when comparing: an empty one says nothing worth writing.
  { pullOmits: { variables: [], subscriberVariables: [] } },
);

export const WORKFLOW_SHAPE: ObjectShape = object(
  {
    ...values('name', 'description', 'tags', 'active', 'critical'),
    preferenceSettings: PREFERENCE_SETTINGS,
    notificationGroupId: value,
    data: value,
    steps: list(STEP_SHAPE),
    triggers: list(TRIGGER),
  },
  {
    defaults: { tags: [], active: false, critical: false, preferenceSettings: {} },
    remote: {
      notificationGroupId: (response) => {
        const populated = response.notificationGroup;
        return (
          response._notificationGroupId ??
          (typeof populated === 'object' && populated !== null ? (populated as Json)._id : undefined)
        );
      },
    },
  },
);

/** The value the service holds for `key` of a shaped object. */
export function readRemote(response: Json, key: string, shape: ObjectShape): unknown {
  const read = shape.remote?.[key];
  return read === undefined ? response[key] : read(response);
}
