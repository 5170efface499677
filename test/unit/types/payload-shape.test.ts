import { describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../../src/generated/workflow.js';
import { buildWorkflowTypes, type PayloadField } from '../../../src/types/payload-shape.js';
import { aWorkflow } from '../../helpers/workflow.js';

/** The payload fields of a workflow with one in-app step whose content is `content`. */
function fieldsOf(content: string, overrides: Partial<WorkflowDefinition> = {}): PayloadField[] {
  const workflow = aWorkflow({
    steps: [{ name: 'inbox', template: { type: 'in_app', content } }],
    ...overrides,
  });
  return buildWorkflowTypes({ identifier: 'order-shipped', file: 'w.yaml', workflow }).payload.fields;
}

/** `name?: type` per field, nested ones in braces: a compact picture of the shape. */
function picture(fields: readonly PayloadField[]): string {
  return fields
    .map(({ name, required, type }) => {
      const mark = required ? '' : '?';
      if (type.kind === 'object') return `${name}${mark}: {${picture(type.fields)}}`;
      if (type.kind === 'array')
        return `${name}${mark}: [${type.element.kind === 'object' ? `{${picture(type.element.fields)}}` : type.element.kind}]`;
      return `${name}${mark}: ${type.kind}`;
    })
    .join(', ');
}

describe('buildWorkflowTypes: the payload the templates read', () => {
  it('plain uses are required strings; dotted uses make objects', () => {
    expect(picture(fieldsOf('{{orderId}} {{order.total}} {{order.customer.name}}'))).toBe(
      'orderId: string, order: {total: string, customer: {name: string}}',
    );
  });

  it('{{#each list}} makes an array of objects from the fields read inside, or of strings when none are', () => {
    expect(picture(fieldsOf('{{#each items}}{{qty}} {{sku}}{{/each}}{{#each tags}}{{this}}{{/each}}'))).toBe(
      'items: [{qty: string, sku: string}], tags: [string]',
    );
  });

  it('{{#if}} and {{#unless}}: the subject and what is read under it (either branch) are optional', () => {
    expect(
      picture(
        fieldsOf(
          '{{#if vip}}{{discount}}{{else}}{{fullPrice}}{{/if}}{{#unless paid}}{{due}}{{/unless}} {{id}}',
        ),
      ),
    ).toBe('vip?: boolean, discount?: string, fullPrice?: string, paid?: boolean, due?: string, id: string');
  });

  it('a field read both under a condition and outside one is required; a tested and printed one is a string', () => {
    expect(
      picture(
        fieldsOf('{{#if note}}Note: {{note}}{{/if}} {{#if order.gift}}{{order.id}}{{/if}} {{order.total}}'),
      ),
    ).toBe('note?: string, order: {gift?: boolean, id?: string, total: string}');
  });

  it('under a condition on the object itself, its fields are required once it is there', () => {
    expect(
      picture(
        fieldsOf(
          '{{#if order}}{{order.id}} {{#each order.lines}}{{sku}}{{/each}}{{/if}}{{#if x}}{{y.z}}{{/if}}',
        ),
      ),
    ).toBe('order?: {id: string, lines: [{sku: string}]}, x?: boolean, y?: {z?: string}');
    expect(picture(fieldsOf('{{#if coupon}}{{coupon.code}}{{else}}{{coupon.reason}}{{/if}}'))).toBe(
      'coupon?: {code: string, reason?: string}',
    );
  });

  it('conditions inside a loop guard the element field, not the list', () => {
    expect(picture(fieldsOf('{{#each items}}{{#if note}}{{note}}{{/if}}{{name}}{{/each}}'))).toBe(
      'items: [{note?: string, name: string}]',
    );
  });

  it('declared types win; a declared variable nobody reads is optional', () => {
    const fields = fieldsOf('{{count}} {{#if flag}}x{{/if}}', {
      triggers: [
        {
          type: 'event',
          identifier: 'order-shipped',
          variables: [
            { name: 'count', type: 'String' },
            { name: 'flag', type: 'Boolean' },
            { name: 'tags', type: 'Array' },
          ],
        },
      ],
    });
    expect(picture(fields)).toBe('count: string, flag?: boolean, tags?: [string]');
  });

  it('system variables are not payload; the digested events’ payload fields are', () => {
    const workflow = aWorkflow({
      steps: [
        {
          name: 'collect',
          template: { type: 'digest' },
          metadata: { type: 'regular', amount: 1, unit: 'hours' },
        },
        {
          name: 'mail',
          template: {
            type: 'email',
            subject: 'Hi {{subscriber.firstName}} ({{step.total_count}})',
            content: '{{#each step.events}}{{payload.title}}{{/each}} {{tenant.name}} {{workspace}}',
          },
        },
      ],
    });
    const types = buildWorkflowTypes({ identifier: 'd', file: 'd.yaml', workflow });
    expect(picture(types.payload.fields)).toBe('title: string, workspace: string');
    expect(types.subscriberFields).toEqual(['email', 'firstName']);
  });

  it('step settings: a payload filter field is optional, delayPath and digestKey are required', () => {
    const workflow = aWorkflow({
      steps: [
        { name: 'wait', template: { type: 'delay' }, metadata: { type: 'scheduled', delayPath: 'sendAt' } },
        {
          name: 'sms',
          filters: [
            {
              isNegated: false,
              type: 'GROUP',
              value: 'AND',
              children: [
                { on: 'payload', field: 'level', operator: 'EQUAL', value: 'final' },
                { on: 'subscriber', field: 'data.seats', operator: 'LARGER', value: '5' },
              ],
            },
          ],
          template: { type: 'sms', content: '{{text}}' },
        },
      ],
    });
    const types = buildWorkflowTypes({ identifier: 'x', file: 'x.yaml', workflow });
    expect(picture(types.payload.fields)).toBe('text: string, sendAt: string, level?: string');
    expect(types.subscriberFields).toEqual(['data.seats', 'phone']);
  });

  it('a template with no variables gives an empty payload', () => {
    expect(fieldsOf('Hello')).toEqual([]);
  });
});
