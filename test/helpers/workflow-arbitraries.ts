/**
 * fast-check generators of workflow definitions for the differential tests of the rules and of derive: values shaped
 * like the schema (mostly valid, sometimes not), full of the cases the rules tell apart: Handlebars from a grammar of
 * fragments (block helpers, i18n, helpers with literals, reserved and system names, parse errors), every filter kind
 * with missing, extra and mistyped fields, every metadata type with stray fields, blank and missing content, repeated
 * names and uuids, variants, and trigger and step variables declared exactly, partly or at random. `tidy` workflows
 * make every choice the fitting one: the no-findings paths that valid repositories take.
 */
import fc from 'fast-check';
import { stringify } from 'yaml';
import { deriveTrigger } from '../../src/derive/trigger.js';
import { KNOWN_RULE_CODES } from '../../src/validate/rules/index.js';

/** Variable names: plain, nested, reserved (tenant, actor), system (subscriber, step), odd, a typo of another. */
export const NAMES = [
  'orderId',
  'orderID',
  'items',
  'items.title',
  'vip',
  'region',
  'customer.name',
  'tenant.name',
  'tenant',
  'actor.subscriberId',
  'subscriber.firstName',
  'subscriberName',
  'step.events',
  'status',
  'perk',
  'sendAt',
  'a-b',
  '_x',
  'constructor',
] as const;

const name = fc.constantFrom(...NAMES);
const varType = fc.constantFrom('String', 'Array', 'Boolean');

/** Handlebars that both extractors read (differently). */
const FRAGMENTS = [
  'Hello ',
  '\n',
  ' – ünïcode ',
  '{{{html}}}',
  '{{#each items}}{{title}} {{this.price}} {{../region}} {{@index}}{{/each}}',
  '{{#each items as |item i|}}{{item.title}}{{i}}{{/each}}',
  '{{#if vip}}VIP {{perk}}{{else}}{{other}}{{/if}}',
  '{{#unless vip}}x{{/unless}}',
  '{{#if a b}}{{c}}{{/if}}',
  '{{#with customer}}{{name}}{{/with}}',
  '{{#xs}}{{y}}{{/xs}}',
  '{{i18n "welcome"}}',
  '{{uppercase orderId}}',
  '{{#equals "paid" status}}paid{{/equals}}',
  '{{lookup a b}}',
  '{{uppercase (lowercase d)}}',
  '{{> partial}}',
  '{{!-- comment --}}',
  '{{@root.orderId}}',
  '{{a.[b c]}}',
];

/** Valid Handlebars the service's extractor fails on, and invalid Handlebars. */
const BROKEN = [
  '{{i18n key=2}}',
  '{{uppercase 1}}',
  '{{#each (list)}}{{x}}{{/each}}',
  '{{^if a}}x{{/if}}',
  '{{',
  '}}',
  '{{#if a}}',
  '{{/each}}',
  '{{#each a}}{{/if}}',
];

/** Valid Handlebars the service fails to render, or renders other than it reads (the render-* rules). */
const RENDER_BROKEN = [
  '{{i18n key=label other="x"}}',
  '{{equals "paid" status}}',
  '{{myHelper c}}',
  '{{pluralize orderId "item"}}',
  '{{dateFormat sendAt "YYYY-MM-DD"}}',
  '{{#gt orderId 1}}{{region}}{{/gt}}',
];

const BLOCKS = ['each', 'with', 'if', 'unless'];

/** A Handlebars template from fragments, some inside blocks (nested a few deep); `broken` mixes in BROKEN ones. */
function templateOf(broken: boolean): fc.Arbitrary<string> {
  return fc.letrec<{ template: string; fragment: string }>((tie) => ({
    template: fc.array(tie('fragment'), { maxLength: 6 }).map((parts) => parts.join('')),
    fragment: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { weight: 12, arbitrary: fc.constantFrom(...FRAGMENTS) },
      { weight: broken ? 1 : 0, arbitrary: fc.constantFrom(...BROKEN) },
      { weight: broken ? 1 : 0, arbitrary: fc.constantFrom(...RENDER_BROKEN) },
      { weight: 12, arbitrary: name.map((n) => `{{${n}}}`) },
      {
        weight: 4,
        arbitrary: fc
          .tuple(fc.constantFrom(...BLOCKS), name, tie('template'))
          .map(([block, subject, body]) => `{{#${block} ${subject}}}${body}{{/${block}}}`),
      },
    ),
  })).template;
}

export const template: fc.Arbitrary<string> = templateOf(true);
/** A template from the fragments alone: Handlebars that parses. */
export const tidyTemplate: fc.Arbitrary<string> = templateOf(false).filter((t) => t.trim() !== '');

/** Mostly present: a key whose value is undefined is left out of the YAML. */
function mostly<T>(arbitrary: fc.Arbitrary<T>, freq = 6): fc.Arbitrary<T | undefined> {
  return fc.option(arbitrary, { freq, nil: undefined });
}

/** Rarely present. */
function rarely<T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: 5, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });
}

const never = fc.constant(undefined);

/** Wild or tidy: every part of a workflow comes in both kinds. */
interface Kind {
  text: fc.Arbitrary<string>;
  /** A field a step needs (content, subject, title): sometimes missing when wild. */
  needed: <T>(arbitrary: fc.Arbitrary<T>) => fc.Arbitrary<T | undefined>;
  /** What only wild workflows have: findings. */
  wild: <T>(arbitrary: fc.Arbitrary<T>) => fc.Arbitrary<T | undefined>;
  part: fc.Arbitrary<Record<string, unknown>>;
  metadataFor: (type: string) => fc.Arbitrary<Record<string, unknown> | undefined>;
}

const blockOf = (kind: Kind) =>
  fc.record({ type: fc.constantFrom('text', 'button'), content: kind.text, url: rarely(kind.text) });

const TYPES = ['in_app', 'email', 'sms', 'chat', 'push', 'digest', 'trigger', 'delay', 'custom'] as const;

const stepTemplate = (kind: Kind, type: string) =>
  fc.record({
    type: fc.constant(type),
    content: kind.needed(
      fc.oneof(
        { weight: 4, arbitrary: kind.text },
        { weight: 1, arbitrary: fc.array(blockOf(kind), { minLength: 1, maxLength: 3 }) },
      ),
    ),
    contentType: rarely(fc.constantFrom('editor', 'customHtml')),
    subject: kind.needed(kind.text),
    title: kind.needed(kind.text),
    variables: kind.wild(
      fc.array(fc.record({ name, type: rarely(varType) }), { minLength: 1, maxLength: 3 }),
    ),
    cta: rarely(
      fc.record({
        type: fc.constant('redirect'),
        data: mostly(fc.record({ url: kind.text })),
        action: kind.wild(fc.constantFrom('', {})),
      }),
    ),
  });

/** A filter part with the fields its `on` takes. */
const fittingPart = fc.oneof(
  fc.record({
    on: fc.constantFrom('subscriber', 'payload', 'tenant'),
    field: name,
    value: fc.constantFrom('eu', '18'),
    operator: fc.constantFrom('EQUAL', 'LARGER'),
  }),
  fc.record({ on: fc.constant('payload'), field: name, operator: fc.constant('IS_DEFINED') }),
  fc.record({
    on: fc.constant('webhook'),
    field: name,
    value: fc.constant('x'),
    operator: fc.constant('EQUAL'),
    webhookUrl: fc.constant('https://example.com/hook'),
  }),
  fc.record({ on: fc.constant('isOnline'), value: fc.boolean() }),
  fc.record({ on: fc.constant('isOnlineInLast'), timeOperator: fc.constant('days'), value: fc.nat(9) }),
  fc.record({ on: fc.constant('previousStep'), step: fc.constant('u1'), stepType: fc.constant('read') }),
);

/** Any fields with any `on`: missing, extra and mistyped fields. */
const wildPart = fc.record(
  {
    on: fc.constantFrom(
      'subscriber',
      'payload',
      'webhook',
      'isOnline',
      'isOnlineInLast',
      'previousStep',
      'tenant',
    ),
    field: fc.oneof(name, fc.constant('')),
    value: fc.oneof(fc.constantFrom('eu', '18', ''), fc.integer({ min: 0, max: 9 }), fc.boolean()),
    operator: fc.constantFrom('EQUAL', 'LARGER', 'IS_DEFINED', 'IN'),
    webhookUrl: fc.constant('https://example.com/hook'),
    timeOperator: fc.constantFrom('days', 'hours'),
    step: fc.constantFrom('u1', 'u2'),
    stepType: fc.constantFrom('read', 'unseen'),
  },
  { requiredKeys: ['on'] },
);

const filterOf = (kind: Kind, minChildren: number) =>
  fc.record({
    value: fc.constantFrom('AND', 'OR'),
    children: fc.array(kind.part, { minLength: minChildren, maxLength: 3 }),
  });

const unit = fc.constantFrom('seconds', 'minutes', 'days', 'weeks', 'months');

/** Metadata that fits a digest or delay step. */
const FITTING_METADATA: Record<string, fc.Arbitrary<Record<string, unknown>>> = {
  digest: fc.oneof(
    fc.record({ type: fc.constant('regular'), amount: fc.constant(5), unit, digestKey: rarely(name) }),
    fc.record({
      type: fc.constant('backoff'),
      amount: fc.constant(5),
      unit,
      backoffAmount: fc.constant(2),
      backoffUnit: unit,
    }),
    fc.record({
      type: fc.constant('timed'),
      amount: fc.constant(1),
      unit: fc.constantFrom('days', 'weeks', 'months'),
      timed: fc.constantFrom(
        { atTime: '09:30' },
        { atTime: '09:30', weekDays: ['monday'] },
        { atTime: '09:30', monthlyType: 'each', monthDays: [1] },
        { atTime: '09:30', monthlyType: 'on', ordinal: 'last', ordinalValue: 'friday' },
      ),
    }),
  ),
  delay: fc.oneof(
    fc.record({ type: fc.constant('regular'), amount: fc.constant(5), unit }),
    fc.record({ type: fc.constant('scheduled'), delayPath: name }),
  ),
};

/** Any metadata fields: stray, missing, zero, for the wrong step type. */
const wildMetadata = fc.record(
  {
    type: fc.constantFrom('regular', 'backoff', 'timed', 'scheduled'),
    amount: fc.constantFrom(0, 5),
    unit,
    digestKey: fc.oneof(name, fc.constant('')),
    backoff: fc.boolean(),
    backoffAmount: fc.constantFrom(0, 3),
    backoffUnit: unit,
    updateMode: fc.boolean(),
    timed: fc.record(
      {
        atTime: fc.constant('09:30'),
        weekDays: fc.constantFrom([], ['monday']),
        monthDays: fc.constantFrom([], [1, 15]),
        ordinal: fc.constantFrom('1', 'last'),
        ordinalValue: fc.constantFrom('friday', ''),
        monthlyType: fc.constantFrom('each', 'on'),
      },
      { requiredKeys: [] },
    ),
    delayPath: fc.oneof(name, fc.constant('')),
  },
  { requiredKeys: [] },
);

const WILD: Kind = {
  text: fc.oneof(
    { weight: 12, arbitrary: template },
    { weight: 1, arbitrary: fc.constantFrom('', '  ') },
    // A credential pasted into a message (credential-in-definition).
    { weight: 1, arbitrary: fc.constantFrom('Use ApiKey 0c4a9e1f7b2d4c6e8a0b1c3d5e7f9a2b') },
  ),
  needed: (arbitrary) => mostly(arbitrary),
  wild: rarely,
  part: fc.oneof({ weight: 8, arbitrary: fittingPart }, { weight: 1, arbitrary: wildPart }),
  metadataFor: (type) => {
    const fitting = FITTING_METADATA[type];
    return fitting
      ? fc.oneof({ weight: 5, arbitrary: fitting }, { weight: 1, arbitrary: wildMetadata })
      : rarely(wildMetadata);
  },
};

const TIDY: Kind = {
  text: tidyTemplate,
  needed: (arbitrary) => arbitrary,
  wild: () => never,
  part: fittingPart,
  metadataFor: (type) => FITTING_METADATA[type] ?? never,
};

const STEP_NAMES = ['notify', 'wait', 'email', 'send', 'collect', 'remind'];
const UUIDS = ['u1', 'u2', 'u3', 'u4', 'u5', 'u6'];

function stepOf(kind: Kind, variant: boolean): fc.Arbitrary<Record<string, unknown>> {
  return fc.constantFrom(...TYPES).chain((type) =>
    fc.record({
      // Tidy steps get unique names and uuids afterwards.
      name: kind === TIDY ? never : mostly(fc.constantFrom(...STEP_NAMES)),
      uuid: kind === TIDY ? never : mostly(fc.constantFrom(...UUIDS), 2),
      template: stepTemplate(kind, type),
      // A variant needs a filter with children.
      filters:
        variant && kind === TIDY
          ? fc.array(filterOf(kind, 1), { minLength: 1, maxLength: 2 })
          : mostly(fc.array(filterOf(kind, 0), { maxLength: 2 }), 2),
      metadata: kind.metadataFor(type),
      variants: variant ? never : rarely(fc.array(stepOf(kind, true), { minLength: 1, maxLength: 2 })),
    }),
  );
}

/** Names and identifiers: the first two slug to their identifier on both servers, the others do not. */
const NAMED = [
  ['order shipped', 'order-shipped'],
  ['weekly digest 2', 'weekly-digest-2'],
  ['Order Shipped', 'order-shipped'],
  ['orderShipped', 'order-shipped'],
  ['order_shipped', 'ordershipped'],
  ['!!!', 'x'],
  ['x', 'Order_Shipped'],
  ['invoice', 'bill'],
] as const;

const workflowOf = (kind: Kind) =>
  fc.record({
    named: fc.constantFrom(...(kind === TIDY ? NAMED.slice(0, 2) : NAMED)),
    notificationGroupId: kind.wild(
      fc.constantFrom('group:transactional', 'group:other', '0123456789abcdef01234567'),
    ),
    steps: fc.array(stepOf(kind, false), { minLength: 1, maxLength: 4 }),
    variables: mostly(fc.array(fc.record({ name, type: rarely(varType) }), { maxLength: 5 }), 2),
  });

/**
 * How the trigger variables are declared: at random, or as the service derives them (the no-findings case the fast
 * paths take), with one left out, or with types changed.
 */
const declaration = fc.constantFrom('random', 'exact', 'one-missing', 'retyped');

/** Unique names and uuids for a tidy workflow's steps and variants. */
function uniquely(steps: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  return steps.map((step, i) => ({
    ...step,
    name: `step ${i}`,
    uuid: `u${i}`,
    variants: Array.isArray(step.variants)
      ? step.variants.map((v: Record<string, unknown>, j) => ({
          ...v,
          name: `variant ${j}`,
          uuid: `u${i}v${j}`,
        }))
      : undefined,
  }));
}

function workflowValueOf(kind: Kind): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .tuple(workflowOf(kind), kind === TIDY ? fc.constant('exact') : declaration, fc.nat())
    .map(([w, how, seed]) => {
      const { named, variables, steps, ...fields } = w;
      const identifier = named[1];
      const rest = { name: named[0], ...fields, steps: kind === TIDY ? uniquely(steps) : steps };
      let declared: Array<{ name: string; type?: string | undefined }> | undefined = variables;
      if (how !== 'random') {
        const derived = deriveTrigger(rest, { extraction: 'server' }).variables;
        declared = derived.map((v, i) => ({
          name: v.name,
          type:
            how === 'retyped' && (i + seed) % 2 === 0 ? (v.type === 'String' ? 'Array' : 'String') : v.type,
        }));
        if (how === 'one-missing' && declared.length > 0) declared.splice(seed % declared.length, 1);
      }
      const trigger = {
        type: 'event',
        identifier,
        ...(declared === undefined ? {} : { variables: declared }),
      };
      return { ...rest, triggers: [trigger] };
    });
}

/** A workflow definition's value: anything may be off. */
export const workflowValue: fc.Arbitrary<Record<string, unknown>> = workflowValueOf(WILD);
/** A workflow definition's value where everything fits: what most files in a valid repository look like. */
export const tidyWorkflowValue: fc.Arbitrary<Record<string, unknown>> = workflowValueOf(TIDY);

/** A value as a YAML document, block or flow style. */
function textOf(value: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<string> {
  return fc
    .tuple(value, fc.boolean())
    .map(([v, flow]) => stringify(v, { lineWidth: 0, collectionStyle: flow ? 'flow' : 'block' }));
}

export const workflowText: fc.Arbitrary<string> = textOf(workflowValue);
export const tidyWorkflowText: fc.Arbitrary<string> = textOf(tidyWorkflowValue);

const CODES = KNOWN_RULE_CODES;

/** Rule options: severities overridden or turned off, notification groups known or not. */
export const ruleOptions = fc.record(
  {
    severities: fc.dictionary(fc.constantFrom(...CODES), fc.constantFrom('error', 'warning', 'info', 'off'), {
      maxKeys: 4,
    }),
    notificationGroups: fc.constantFrom([], ['transactional']),
  },
  { requiredKeys: [] },
);
