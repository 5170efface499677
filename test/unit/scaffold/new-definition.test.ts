import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { deriveTrigger } from '../../../src/derive/trigger.js';
import { CHANNELS } from '../../../src/scaffold/channels.js';
import {
  buildNewDefinition,
  type NewDefinition,
  parseTimeWindow,
} from '../../../src/scaffold/new-definition.js';
import { describeAll, validateText } from './helpers.js';

function build(name: string, channel: (typeof CHANNELS)[number] = 'in_app'): NewDefinition {
  const built = buildNewDefinition({ name, channels: [channel] });
  if ('problem' in built) throw new Error(built.problem);
  return built;
}

describe('buildNewDefinition', () => {
  it.each(CHANNELS)('a %s step: validate finds nothing at all (no error, no warning)', (channel) => {
    const built = build('Order Shipped', channel);
    expect(describeAll(validateText(built.text, `workflows/${built.fileName}`))).toEqual([]);
    expect(built.definition.steps.map((s) => s.template.type)).toEqual([channel]);
    expect(built.warnings).toEqual([]);
  });

  it.each(CHANNELS)('a %s step: the declared trigger is the one the service derives', (channel) => {
    const { definition } = build('Order Shipped', channel);
    const derived = deriveTrigger(definition, { extraction: 'server' });
    const [trigger] = definition.triggers;
    expect(trigger.identifier).toBe(derived.identifierV1);
    expect(trigger.identifier).toBe(derived.identifierV2);
    expect(trigger.variables).toEqual([{ name: 'details', type: 'String' }]);
    expect(trigger.subscriberVariables ?? []).toEqual(derived.subscriberVariables);
  });

  it('the whole file for "Order Shipped" (the modeline is the caller’s: see schema-ref): a note, the name as given, the identifier derived from it', () => {
    const built = build('Order Shipped');
    expect(built.identifier).toBe('order-shipped');
    expect(built.fileName).toBe('order-shipped.yaml');
    expect(
      built.text,
    ).toBe(`# Written by \`wfsync new\`. Edit the content; when the templates use other {{variables}}, list them in
# triggers[0].variables too (\`wfsync validate\` says which). The identifier is derived from the name.
name: Order Shipped
active: true
steps:
  - name: in-app message
    template:
      type: in_app
      content: "Order Shipped: {{details}}"
triggers:
  - type: event
    identifier: order-shipped
    variables:
      - { name: details, type: String }
`);
  });

  it('an email: a subject, HTML content, and the subscriber email the service will ask for', () => {
    const { text } = build('invoice paid', 'email');
    expect(text).toContain(
      '      contentType: customHtml\n      subject: invoice paid\n      content: |\n        <p>Hello,</p>\n        <p>{{details}}</p>\n',
    );
    expect(text).toContain('    subscriberVariables:\n      - name: email\n');
  });

  it('camelCase: the two server generations differ, so it warns and suggests lower-case words; the name is kept', () => {
    const built = build('orderShipped', 'sms');
    // The older servers' slug, which the local target derives too.
    expect(built.identifier).toBe('ordershipped');
    expect(built.fileName).toBe('ordershipped.yaml');
    expect(built.definition.name).toBe('orderShipped');
    expect(built.warnings).toEqual([
      'the service derives `ordershipped` (older servers) or `order-shipped` (newer servers) from the name ' +
        '"orderShipped"; the file declares `ordershipped`, and `wfsync validate` will warn about it. Name it with ' +
        'lower-case words to get the same identifier everywhere: wfsync new "order shipped"',
    ]);
    // What validate says about it: exactly that one warning.
    expect(validateText(built.text).map((d) => `${d.severity} ${d.code}`)).toEqual([
      'warning identifier-name-mismatch',
    ]);
  });

  it('snake_case warns the same way', () => {
    expect(build('invoice_paid').warnings[0]).toContain(
      '`invoicepaid` (older servers) or `invoice-paid` (newer servers)',
    );
  });

  it('braces in the name are not Handlebars in the content; surrounding blanks are dropped', () => {
    const built = build('  {{weird}} name \\ ', 'chat');
    expect(built.definition.name).toBe('{{weird}} name \\');
    expect(built.definition.steps[0]?.template.content).toBe('weird name: {{details}}');
    expect(describeAll(validateText(built.text))).toEqual([]);
  });

  it.each(['yes', 'null', '123', 'a: b', '# hash', "it's - ok", 'tab\there'])(
    'a name YAML would misread (%j) is quoted and reads back as given',
    (name) => {
      const built = build(name);
      expect((parse(built.text) as { name: unknown }).name).toBe(name);
      expect(describeAll(validateText(built.text))).toEqual([]);
    },
  );

  it.each([
    ['', 'the workflow name is empty'],
    ['   ', 'the workflow name is empty'],
    ['x'.repeat(129), 'the workflow name is 129 characters long; the service accepts at most 128'],
    [
      '!!!',
      'the service cannot derive a trigger identifier from "!!!": use ASCII letters or digits in the name',
    ],
    [
      '日本語',
      'the service cannot derive a trigger identifier from "日本語": use ASCII letters or digits in the name',
    ],
  ])('%j: no definition (%s)', (name, problem) => {
    expect(buildNewDefinition({ name, channels: ['sms'] })).toEqual({ problem });
  });
});

describe('several steps: channels, a digest, a delay', () => {
  it('one step per channel in the order given (a repeated one once), validating with nothing to report', () => {
    const built = buildNewDefinition({
      name: 'payment failed',
      channels: ['email', 'sms', 'email', 'push'],
    });
    if ('problem' in built) throw new Error(built.problem);
    expect(built.definition.steps.map((s) => s.template.type)).toEqual(['email', 'sms', 'push']);
    expect(built.definition.triggers[0]?.subscriberVariables).toEqual([{ name: 'phone' }, { name: 'email' }]);
    expect(describeAll(validateText(built.text, `workflows/${built.fileName}`))).toEqual([]);
  });

  it('a delay, then a digest, then the messages, which count the events collected', () => {
    const built = buildNewDefinition({
      name: 'weekly summary',
      channels: ['email', 'in_app'],
      delay: { amount: 10, unit: 'minutes' },
      digest: { amount: 1, unit: 'weeks' },
    });
    if ('problem' in built) throw new Error(built.problem);
    expect(built.definition.steps.map((s) => [s.name, s.template.type, s.metadata])).toEqual([
      ['wait', 'delay', { type: 'regular', amount: 10, unit: 'minutes' }],
      ['collect events', 'digest', { type: 'regular', amount: 1, unit: 'weeks' }],
      ['email', 'email', undefined],
      ['in-app message', 'in_app', undefined],
    ]);
    expect(built.text).toContain('{{step.total_count}} events');
    // step.* is the digest's, not the payload's: the trigger still declares only the example variable.
    expect(built.definition.triggers[0]?.variables).toEqual([{ name: 'details', type: 'String' }]);
    expect(describeAll(validateText(built.text, `workflows/${built.fileName}`))).toEqual([]);
  });

  it.each([
    ['30s', { amount: 30, unit: 'seconds' }],
    ['10m', { amount: 10, unit: 'minutes' }],
    ['1h', { amount: 1, unit: 'hours' }],
    ['2d', { amount: 2, unit: 'days' }],
    ['1w', { amount: 1, unit: 'weeks' }],
    ['3mo', { amount: 3, unit: 'months' }],
    ['10 minutes', { amount: 10, unit: 'minutes' }],
    ['1 week', { amount: 1, unit: 'weeks' }],
    [' 5H ', { amount: 5, unit: 'hours' }],
  ])('time window %j', (text, window) => {
    expect(parseTimeWindow(text)).toEqual(window);
  });

  it.each(['', '0m', '10', 'm', '1x', '-1h', '1.5h', '10 lightyears', '9999999s'])(
    'not a time window: %j',
    (text) => {
      expect(parseTimeWindow(text)).toBeUndefined();
    },
  );
});
