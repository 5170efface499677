import { describe, expect, it } from 'vitest';
import { deriveTrigger } from '../../../src/derive/trigger.js';
import type { DeriveOptions } from '../../../src/derive/types.js';

type Extraction = NonNullable<DeriveOptions['extraction']>;

/** `name:Type pointer` for each trigger variable. */
function variables(workflow: unknown, extraction: Extraction): string[] {
  return deriveTrigger(workflow as never, { extraction }).variables.map(
    (v) => `${v.name}:${v.type} ${v.pointer}`,
  );
}

const inApp = (content: string, extra: Record<string, unknown> = {}) => ({
  template: { type: 'in_app', content },
  ...extra,
});

describe('deriveTrigger: filters, delays and digests, in both readings', () => {
  it('payload filter fields: an empty one only by the service, system variables and garbage never', () => {
    const workflow = {
      name: 'x',
      steps: [
        inApp('{{a}}', {
          filters: [
            {
              children: [
                { on: 'payload', field: '' },
                { on: 'payload', field: 'subscriber.x' },
                { on: 'payload', field: 5 },
                'junk',
                { on: 'payload', field: 'f' },
                { on: 'webhook', field: 'w' },
              ],
            },
            { children: 'no' },
            null,
            { children: [{ on: 'payload', field: 'g' }] },
          ],
        }),
      ],
    };
    expect(variables(workflow, 'handlebars')).toEqual([
      'a:String /steps/0/template/content',
      'f:String /steps/0/filters/0/children/4/field',
      'g:String /steps/0/filters/3/children/0/field',
    ]);
    expect(variables(workflow, 'server')).toEqual([
      'a:String /steps/0/template/content',
      ':String /steps/0/filters/0/children/0/field',
      'f:String /steps/0/filters/0/children/4/field',
      'g:String /steps/0/filters/3/children/0/field',
    ]);
  });

  it.each(['handlebars', 'server'] as const)(
    '%s: a scheduled delayPath and a digest step’s digestKey, never empty or a system variable',
    (extraction) => {
      const workflow = {
        name: 'x',
        steps: [
          { template: { type: 'digest' }, metadata: { type: 'scheduled', delayPath: 'd', digestKey: 'k' } },
          { template: { type: 'digest' }, metadata: { digestKey: '' } },
          { template: { type: 'digest' }, metadata: { digestKey: 'tenant.id' } },
          { template: 'x', metadata: { type: 'scheduled', delayPath: '' } },
          { metadata: { type: 'scheduled', delayPath: 'p' } },
          { metadata: { type: 'scheduled', delayPath: 'actor.id' } },
          { template: { type: 'delay' }, metadata: { type: 'regular', delayPath: 'no', digestKey: 'no' } },
          { template: { type: 'digest' }, metadata: 'garbage' },
          'garbage',
        ],
      };
      expect(variables(workflow, extraction)).toEqual([
        'd:String /steps/0/metadata/delayPath',
        'k:String /steps/0/metadata/digestKey',
        'p:String /steps/4/metadata/delayPath',
      ]);
    },
  );

  it('the handlebars reading goes step by step; the service reads all templates first', () => {
    const workflow = {
      name: 'x',
      steps: [inApp('{{a}}', { metadata: { type: 'scheduled', delayPath: 'd' } }), inApp('{{b}}')],
    };
    expect(variables(workflow, 'handlebars')).toEqual([
      'a:String /steps/0/template/content',
      'd:String /steps/0/metadata/delayPath',
      'b:String /steps/1/template/content',
    ]);
    expect(variables(workflow, 'server')).toEqual([
      'a:String /steps/0/template/content',
      'b:String /steps/1/template/content',
      'd:String /steps/0/metadata/delayPath',
    ]);
  });

  it('a name used twice: first use in the handlebars reading, first place but last use for the service', () => {
    const workflow = {
      name: 'x',
      steps: [
        inApp('{{#if a}}{{/if}} {{b}}'),
        inApp('{{a}}', { filters: [{ children: [{ on: 'payload', field: 'b' }] }] }),
      ],
    };
    expect(variables(workflow, 'handlebars')).toEqual([
      'a:Boolean /steps/0/template/content',
      'b:String /steps/0/template/content',
    ]);
    expect(variables(workflow, 'server')).toEqual([
      'b:String /steps/1/filters/0/children/0/field',
      'a:String /steps/1/template/content',
    ]);
  });
});

describe('deriveTrigger: reserved and subscriber variables', () => {
  const reserved = (content: string, extraction: Extraction): string[] =>
    deriveTrigger({ name: 'x', steps: [inApp(content)] }, { extraction }).reservedVariables.map(
      (r) => `${r.type}:${r.variables.map((v) => `${v.name}/${v.type}`).join(',')}`,
    );

  it.each([
    ['{{tenant.a}} {{actor.b}}', 'handlebars', ['tenant:identifier/String', 'actor:subscriberId/String']],
    ['{{actor.b}} {{tenant.a}}', 'handlebars', ['tenant:identifier/String', 'actor:subscriberId/String']],
    ['{{actor.b}} {{tenant.a}}', 'server', ['actor:subscriberId/String', 'tenant:identifier/String']],
    [
      '{{tenant.a}} {{actor.b}} {{tenant.c}}',
      'server',
      ['tenant:identifier/String', 'actor:subscriberId/String'],
    ],
    ['{{actor}}', 'server', ['actor:subscriberId/String']],
    ['{{tenant}}', 'handlebars', ['tenant:identifier/String']],
    ['{{tenants.a}} {{actors}} {{subscriber.tenant}}', 'server', []],
    ['{{constructor.x}} {{toString}}', 'handlebars', []],
  ] as const)('%j (%s) → %j', (content, extraction, expected) => {
    expect(reserved(content, extraction)).toEqual(expected);
  });

  it('gives each trigger its own reserved entries (changing one changes no other)', () => {
    const first = deriveTrigger({ name: 'x', steps: [inApp('{{tenant.a}}')] });
    first.reservedVariables[0]?.variables.push({ name: 'extra', type: 'String' });
    const second = deriveTrigger({ name: 'x', steps: [inApp('{{tenant.a}}')] });
    expect(second.reservedVariables).toEqual([
      { type: 'tenant', variables: [{ name: 'identifier', type: 'String' }] },
    ]);
  });

  it.each([
    [['sms'], ['phone']],
    [['email'], ['email']],
    [
      ['email', 'sms', 'email', 'sms'],
      ['phone', 'email'],
    ],
    [['in_app', 'push', 'chat', 'digest'], []],
  ])('steps %j ask for %j', (types, expected) => {
    const steps = [...types.map((type) => ({ template: { type, content: 'x' } })), null, { template: 'sms' }];
    expect(deriveTrigger({ name: 'x', steps }).subscriberVariables.map((v) => v.name)).toEqual(expected);
  });
});

describe('deriveTrigger: what it reads from anything', () => {
  it.each([
    [null, ''],
    ['workflow', ''],
    [{ name: 5 }, ''],
    [{ name: ['Order Shipped'] }, ''],
    [{ name: 'Order Shipped', steps: 'none' }, 'order-shipped'],
  ])('%j → identifier %j, nothing else', (workflow, identifier) => {
    expect(deriveTrigger(workflow as never)).toEqual({
      identifierV1: identifier,
      identifierV2: identifier,
      variables: [],
      reservedVariables: [],
      subscriberVariables: [],
      errors: [],
    });
  });

  it('parse errors come with the pointer of their string, in both readings', () => {
    const workflow = { name: 'x', steps: [inApp('ok'), inApp('{{#if a}}')] };
    for (const extraction of ['handlebars', 'server'] as const) {
      expect(deriveTrigger(workflow, { extraction }).errors).toEqual([
        {
          pointer: '/steps/1/template/content',
          message: expect.stringMatching(/^Parse error on line 1: Expecting/),
          offset: 9,
        },
      ]);
    }
  });
});
