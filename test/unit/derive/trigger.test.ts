import { describe, expect, it } from 'vitest';
import { deriveTrigger, textSourcesOfStep } from '../../../src/derive/trigger.js';

const step = (template: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  template,
  ...extra,
});

describe('textSourcesOfStep', () => {
  it('in_app: content, then cta.data.url', () => {
    expect(
      textSourcesOfStep(
        step({ type: 'in_app', content: 'c', cta: { type: 'redirect', data: { url: 'u' } } }),
      ),
    ).toEqual([
      { pointer: '/template/content', text: 'c' },
      { pointer: '/template/cta/data/url', text: 'u' },
    ]);
  });

  it('sms: content only', () => {
    expect(textSourcesOfStep(step({ type: 'sms', content: 'c', subject: 's', title: 't' }))).toEqual([
      { pointer: '/template/content', text: 'c' },
    ]);
  });

  it('push: content, then title', () => {
    expect(textSourcesOfStep(step({ type: 'push', content: 'c', title: 't' }))).toEqual([
      { pointer: '/template/content', text: 'c' },
      { pointer: '/template/title', text: 't' },
    ]);
  });

  it('email with blocks: subject, then each block url and content (the service reads url first)', () => {
    const blocks = [{ type: 'text', content: 'a' }, 'garbage', { type: 'button', content: 'b', url: 'u' }];
    expect(textSourcesOfStep(step({ type: 'email', subject: 's', content: blocks, preheader: 'p' }))).toEqual(
      [
        { pointer: '/template/subject', text: 's' },
        { pointer: '/template/content/0/content', text: 'a' },
        { pointer: '/template/content/2/url', text: 'u' },
        { pointer: '/template/content/2/content', text: 'b' },
      ],
    );
  });

  it('customHtml email: the content only, NOT the subject', () => {
    expect(
      textSourcesOfStep(step({ type: 'email', contentType: 'customHtml', subject: 's', content: '<p/>' })),
    ).toEqual([{ pointer: '/template/content', text: '<p/>' }]);
  });

  it('any other type with string content: the content (chat, digest…)', () => {
    expect(textSourcesOfStep(step({ type: 'chat', content: 'c', subject: 's' }))).toEqual([
      { pointer: '/template/content', text: 'c' },
    ]);
  });

  it('leaves out empty and non-string values and tolerates garbage', () => {
    expect(textSourcesOfStep(step({ type: 'in_app', content: '', cta: { data: { url: 5 } } }))).toEqual([]);
    for (const garbage of [
      null,
      undefined,
      3,
      'x',
      [],
      { template: null },
      { template: [] },
      { template: { content: 1 } },
    ]) {
      expect(textSourcesOfStep(garbage)).toEqual([]);
    }
  });
});

describe('deriveTrigger', () => {
  it('derives identifiers for both server generations', () => {
    const trigger = deriveTrigger({ name: 'orderShipped', steps: [] });
    expect(trigger).toEqual({
      identifierV1: 'ordershipped',
      identifierV2: 'order-shipped',
      variables: [],
      reservedVariables: [],
      subscriberVariables: [],
      errors: [],
    });
  });

  it('collects variables step by step with pointers, dropping system prefixes', () => {
    const trigger = deriveTrigger({
      name: 'Order Shipped',
      steps: [
        step({ type: 'in_app', content: 'Hi {{subscriber.firstName}}, {{order.id}} {{preheader}}' }),
        step({
          type: 'sms',
          content: '{{#each step.events}}{{x}}{{/each}} {{tenant.name}} {{actor.firstName}} {{eta}}',
        }),
        step({ type: 'push', content: '{{branding.logo}}', title: '{{order.id}} {{#if express}}!{{/if}}' }),
      ],
    });
    expect(trigger.identifierV1).toBe('order-shipped');
    expect(trigger.identifierV2).toBe('order-shipped');
    expect(trigger.variables).toEqual([
      { name: 'order.id', type: 'String', pointer: '/steps/0/template/content' },
      { name: 'eta', type: 'String', pointer: '/steps/1/template/content' },
      { name: 'express', type: 'Boolean', pointer: '/steps/2/template/title' },
    ]);
  });

  it('keeps the first use of a duplicate: position and type', () => {
    const trigger = deriveTrigger({
      name: 'x',
      steps: [
        step({ type: 'in_app', content: '{{b}} {{#if flag}}{{/if}}' }),
        step({ type: 'in_app', content: '{{flag}} {{#each b}}{{/each}} {{c}}' }),
      ],
    });
    expect(trigger.variables.map((v) => [v.name, v.type, v.pointer])).toEqual([
      ['b', 'String', '/steps/0/template/content'],
      ['flag', 'Boolean', '/steps/0/template/content'],
      ['c', 'String', '/steps/1/template/content'],
    ]);
  });

  it('adds payload filter fields (not subscriber or tenant ones), a scheduled delayPath and a digestKey', () => {
    const trigger = deriveTrigger({
      name: 'x',
      steps: [
        step({ type: 'in_app', content: '{{a}}' }),
        step(
          { type: 'email', subject: 's', content: 'body {{b}}' },
          {
            filters: [
              {
                value: 'AND',
                children: [
                  { on: 'subscriber', field: 'plan', value: 'pro', operator: 'EQUAL' },
                  { on: 'payload', field: 'order.total', value: '5', operator: 'LARGER' },
                  { on: 'tenant', field: 'tier', value: 'x', operator: 'EQUAL' },
                  { on: 'payload', field: 'a', value: '1', operator: 'EQUAL' },
                ],
              },
            ],
          },
        ),
        step({ type: 'delay' }, { metadata: { type: 'scheduled', delayPath: 'sendAt' } }),
        step(
          { type: 'delay' },
          { metadata: { type: 'regular', amount: 1, unit: 'hours', delayPath: 'ignored' } },
        ),
        step(
          { type: 'digest' },
          { metadata: { type: 'regular', amount: 1, unit: 'hours', digestKey: 'post.id' } },
        ),
        step({ type: 'delay' }, { metadata: { type: 'regular', digestKey: 'notADigest' } }),
      ],
    });
    expect(trigger.variables).toEqual([
      { name: 'a', type: 'String', pointer: '/steps/0/template/content' },
      { name: 'b', type: 'String', pointer: '/steps/1/template/content' },
      { name: 'order.total', type: 'String', pointer: '/steps/1/filters/0/children/1/field' },
      { name: 'sendAt', type: 'String', pointer: '/steps/2/metadata/delayPath' },
      { name: 'post.id', type: 'String', pointer: '/steps/4/metadata/digestKey' },
    ]);
  });

  it('does not read variants', () => {
    const variant = step({ type: 'in_app', content: '{{onlyInVariant}}' });
    const trigger = deriveTrigger({
      name: 'x',
      steps: [{ ...step({ type: 'in_app', content: '{{main}}' }), variants: [variant] }],
    });
    expect(trigger.variables.map((v) => v.name)).toEqual(['main']);
  });

  it('reserves tenant then actor when used, whatever the order of use', () => {
    const both = deriveTrigger({
      name: 'x',
      steps: [step({ type: 'in_app', content: '{{actor.firstName}} {{tenant.data.color}}' })],
    });
    expect(both.reservedVariables).toEqual([
      { type: 'tenant', variables: [{ name: 'identifier', type: 'String' }] },
      { type: 'actor', variables: [{ name: 'subscriberId', type: 'String' }] },
    ]);
    const none = deriveTrigger({
      name: 'x',
      steps: [step({ type: 'in_app', content: '{{tenantName}} {{x.actor}}' })],
    });
    expect(none.reservedVariables).toEqual([]);
    // Only the whole first segment counts: `actor` alone is one, `tenantx.y` is not.
    const bare = deriveTrigger({
      name: 'x',
      steps: [step({ type: 'in_app', content: '{{tenantx.y}} {{actor}}' })],
    });
    expect(bare.reservedVariables.map((r) => r.type)).toEqual(['actor']);
    expect(bare.variables.map((v) => v.name)).toEqual(['tenantx.y']);
  });

  it('asks for the subscriber phone (sms) and email (email), phone first', () => {
    const sms = step({ type: 'sms', content: 'x' });
    const email = step({ type: 'email', content: 'x' });
    expect(deriveTrigger({ name: 'x', steps: [email, sms] }).subscriberVariables).toEqual([
      { name: 'phone' },
      { name: 'email' },
    ]);
    expect(deriveTrigger({ name: 'x', steps: [email] }).subscriberVariables).toEqual([{ name: 'email' }]);
    expect(
      deriveTrigger({ name: 'x', steps: [step({ type: 'push', content: 'x' })] }).subscriberVariables,
    ).toEqual([]);
  });

  it('reports every parse error with its pointer and keeps the rest', () => {
    const trigger = deriveTrigger({
      name: 'x',
      steps: [
        step({ type: 'in_app', content: 'Hi {{name}', cta: { data: { url: '/o/{{id}}' } } }),
        step({ type: 'push', content: '{{ok}}', title: '{{#if a}}' }),
      ],
    });
    expect(trigger.errors).toEqual([
      { pointer: '/steps/0/template/content', message: expect.stringMatching(/^Parse error/), offset: 9 },
      { pointer: '/steps/1/template/title', message: expect.stringMatching(/^Parse error/), offset: 9 },
    ]);
    expect(trigger.variables.map((v) => v.name)).toEqual(['id', 'ok']);
  });
});

describe('deriveTrigger with extraction: server', () => {
  const workflow = {
    name: 'x',
    steps: [
      step(
        { type: 'in_app', content: '{{#if items}}{{/if}}{{actor.firstName}}' },
        { filters: [{ children: [{ on: 'payload', field: 'first' }] }] },
      ),
      step({ type: 'in_app', content: '{{items}} {{#each xs}}{{this.y}}{{/each}} {{tenant.name}}' }),
    ],
  };

  it('puts all template variables before filters, keeps first position but last type', () => {
    const trigger = deriveTrigger(workflow, { extraction: 'server' });
    expect(trigger.variables).toEqual([
      { name: 'items', type: 'String', pointer: '/steps/1/template/content' },
      { name: 'xs', type: 'Array', pointer: '/steps/1/template/content' },
      { name: 'xs.this.y', type: 'String', pointer: '/steps/1/template/content' },
      { name: 'first', type: 'String', pointer: '/steps/0/filters/0/children/0/field' },
    ]);
  });

  it('orders reserved variables by first use', () => {
    expect(deriveTrigger(workflow, { extraction: 'server' }).reservedVariables.map((r) => r.type)).toEqual([
      'actor',
      'tenant',
    ]);
  });

  it('differs from the default reading on the same workflow', () => {
    const trigger = deriveTrigger(workflow);
    expect(trigger.variables.map((v) => `${v.name}:${v.type}`)).toEqual([
      'items:Boolean',
      'first:String',
      'xs:Array',
      'xs.y:String',
    ]);
    expect(trigger.reservedVariables.map((r) => r.type)).toEqual(['tenant', 'actor']);
  });

  it('reports what the service cannot extract as errors', () => {
    const trigger = deriveTrigger(
      { name: 'x', steps: [step({ type: 'sms', content: 'Total {{numberFormat 5}}' })] },
      { extraction: 'server' },
    );
    expect(trigger.errors).toEqual([
      { pointer: '/steps/0/template/content', message: expect.stringContaining('`5`'), offset: 21 },
    ]);
  });
});
