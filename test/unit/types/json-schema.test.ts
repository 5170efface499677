import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { renderJsonSchema } from '../../../src/types/json-schema.js';
import { buildWorkflowTypes } from '../../../src/types/payload-shape.js';
import { aWorkflow } from '../../helpers/workflow.js';

const CONTENT = '{{orderId}} {{#each items}}{{sku}}{{/each}} {{#if gift}}{{giftNote}}{{/if}}';

/** The schema document for workflows with `identifiers`, each reading CONTENT, compiled by a strict Ajv. */
function compile(identifiers: string[]) {
  const workflows = identifiers.map((identifier) =>
    buildWorkflowTypes({
      identifier,
      file: 'w.yaml',
      workflow: aWorkflow({ steps: [{ name: 'inbox', template: { type: 'in_app', content: CONTENT } }] }),
    }),
  );
  const text = renderJsonSchema(workflows);
  const ajv = new Ajv2020({ strict: true, allErrors: true });
  return { text, document: JSON.parse(text), validate: ajv.compile(JSON.parse(text)), ajv };
}

describe('renderJsonSchema', () => {
  it('one schema per workflow under $defs; the document validates the identifier → payload map', () => {
    const { document, validate } = compile(['order-shipped']);
    expect(Object.keys(document.$defs)).toEqual(['order-shipped']);
    expect(document.$defs['order-shipped']).toMatchObject({
      title: 'order shipped',
      type: 'object',
      required: ['orderId', 'items'],
      additionalProperties: false,
      properties: {
        orderId: { type: 'string' },
        items: { type: 'array', items: { type: 'object', required: ['sku'] } },
        gift: { type: 'boolean' },
        giftNote: { type: 'string' },
      },
    });
    expect(validate({ 'order-shipped': { orderId: '1', items: [{ sku: 'a' }] } })).toBe(true);
    expect(validate({ 'order-shipped': { orderId: '1', items: [{ sku: 'a' }], giftnote: 'x' } })).toBe(false);
    expect(validate({ 'order-shipped': { items: [] } })).toBe(false);
    expect(validate({ 'order-shiped': { orderId: '1', items: [] } })).toBe(false);
  });

  it('an identifier with pointer and URI characters, or named __proto__, is a key like any other', () => {
    const identifiers = ['a/b~c', 'sp ace#%"', '__proto__'];
    const { document, validate, text } = compile(identifiers);
    expect(Object.keys(document.$defs).sort()).toEqual([...identifiers].sort());
    // Ajv itself reads a `__proto__` property name through the prototype: the two others are validated by it.
    for (const identifier of identifiers.slice(0, 2)) {
      expect(validate(JSON.parse(JSON.stringify({ [identifier]: { orderId: '1', items: [] } })))).toBe(true);
      expect(validate(JSON.parse(JSON.stringify({ [identifier]: { items: [] } })))).toBe(false);
    }
    expect(Object.hasOwn(document.properties, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(document.properties, '__proto__')?.value).toEqual({
      $ref: '#/$defs/__proto__',
    });
    expect(Object.hasOwn(document.$defs, '__proto__')).toBe(true);
    expect(text.endsWith('}\n')).toBe(true);
  });
});
