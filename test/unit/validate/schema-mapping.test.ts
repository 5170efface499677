// The ajv-error mapping on schema shapes our own schemas avoid (anyOf, if/then, implied errors…), compiled with the
// same ajv options the generator uses, so the mapping stays sound if the schemas grow.
import { describe, expect, test } from 'vitest';
import { createAjv } from '../../../scripts/gen.mjs';
import { buildSchemaDiagnostics, type SchemaValidatorLike } from '../../../src/validate/schema.js';
import { typeNames } from '../../../src/validate/schema-messages.js';
import { loadYaml, yaml } from '../../helpers/load-yaml.js';

function diagnose(schema: object, text: string, options: { verbose?: boolean } = {}) {
  const ajv = createAjv({ verbose: options.verbose ?? true });
  const validate = ajv.compile(schema) as SchemaValidatorLike;
  const doc = loadYaml(text, 'doc.yaml');
  return buildSchemaDiagnostics(validate, doc);
}

const brief = (d: { code: string; line: number; column: number; message: string }) => [
  d.code,
  d.line,
  d.column,
  d.message,
];

describe('wrappers and implied errors', () => {
  test('anyOf whose branches all fail on type becomes one type error listing the types', () => {
    const schema = {
      type: 'object',
      properties: { when: { anyOf: [{ type: 'object' }, { type: 'null' }, { type: 'integer' }] } },
    };
    expect(diagnose(schema, 'when: soon\n').map(brief)).toEqual([
      ['schema-type', 1, 7, '`when` must be an object, null or an integer (got string "soon")'],
    ]);
  });

  test('anyOf where one branch has the right type reports that branch’s deeper problem only', () => {
    const schema = {
      type: 'object',
      properties: {
        when: {
          anyOf: [
            { type: 'object', properties: { at: { type: 'string' } }, additionalProperties: false },
            { type: 'null' },
          ],
        },
      },
    };
    const text = yaml`
      when:
        at: 12
    `;
    expect(diagnose(schema, text).map(brief)).toEqual([
      ['schema-type', 2, 7, '`when.at` must be a string (got number 12; quote it to make it a string)'],
    ]);
  });

  test('if/then reports what the then-branch requires, not that "if" failed', () => {
    const schema = {
      type: 'object',
      properties: { kind: { type: 'string' }, at: { type: 'string' } },
      if: { properties: { kind: { const: 'timed' } }, required: ['kind'] },
      // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, not a thenable
      then: { properties: { at: { type: 'string' } }, required: ['at'] },
    };
    expect(diagnose(schema, 'kind: timed\n').map(brief)).toEqual([
      ['schema-required', 1, 1, 'the workflow definition is missing required property `at`'],
    ]);
  });

  test('a type error hides the enum error it implies', () => {
    const schema = { type: 'object', properties: { mode: { type: 'string', enum: ['each', 'on'] } } };
    expect(diagnose(schema, 'mode: 3\n').map(brief)).toEqual([
      ['schema-type', 1, 7, '`mode` must be a string (got number 3; quote it to make it a string)'],
    ]);
  });

  test('one value error per value: pattern wins over length', () => {
    const schema = {
      type: 'object',
      properties: { id: { type: 'string', pattern: '^[a-z]+$', maxLength: 3 } },
    };
    expect(diagnose(schema, 'id: ABCDE\n').map(brief)).toEqual([
      ['schema-pattern', 1, 5, '`id` must be text matching the pattern ^[a-z]+$ (got string "ABCDE")'],
    ]);
  });
});

describe('type names for narrowed types', () => {
  const defs = {
    FileReference: {
      type: 'object',
      required: ['file'],
      properties: { file: { type: 'string' } },
      additionalProperties: false,
    },
    EmailBlock: { type: 'object', properties: { content: { type: 'string' } } },
  };
  const fileRef = { $ref: '#/$defs/FileReference' };
  const messages = (field: object, text = 'f: 42\n', verbose = true) =>
    diagnose({ type: 'object', properties: { f: field }, $defs: defs }, text, { verbose }).map(
      (d) => d.message,
    );

  test('a file-reference object and an email-block array are named by what a user writes', () => {
    const field = {
      type: ['string', 'array', 'object'],
      items: { $ref: '#/$defs/EmailBlock' },
      if: { type: 'object' },
      // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, not a thenable
      then: fileRef,
    };
    expect(messages(field)).toEqual([
      '`f` must be a string, a list of email blocks or `{file: ./path}` (got number 42; quote it to make it a string)',
    ]);
  });

  test('any other shape keeps the JSON type names', () => {
    const plain = '`f` must be a string, an array or an object (got number 42; quote it to make it a string)';
    const types = ['string', 'array', 'object'];
    // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, not a thenable
    expect(messages({ type: types, if: { type: 'object', minProperties: 1 }, then: fileRef })).toEqual([
      plain,
    ]);
    // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, not a thenable
    expect(messages({ type: types, if: { type: 'object' }, then: { $ref: '#/$defs/EmailBlock' } })).toEqual([
      plain,
    ]);
    expect(messages({ type: types, items: fileRef })).toEqual([plain]);
    // No verbose errors: no schema to read, so no narrowing.
    const narrowed = {
      type: types,
      items: { $ref: '#/$defs/EmailBlock' },
      if: { type: 'object' },
      // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, not a thenable
      then: fileRef,
    };
    expect(messages(narrowed, 'f: 42\n', false)).toEqual([plain]);
  });

  test('a type is named by a narrowing only on a schema that allows that type', () => {
    // A merged anyOf error carries one branch's schema; ajv's strict mode rejects such a branch, so this is direct.
    const stringBranch = {
      type: 'string',
      if: { type: 'object' },
      // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword, not a thenable
      then: fileRef,
      items: { $ref: '#/$defs/EmailBlock' },
    };
    expect(typeNames(['string', 'array', 'object'], stringBranch)).toBe('a string, an array or an object');
    expect(typeNames(['object'], { ...stringBranch, type: 'object' })).toBe('`{file: ./path}`');
    expect(typeNames(['array'], { ...stringBranch, type: ['array'] })).toBe('a list of email blocks');
  });
});

describe('less common keywords', () => {
  test('multipleOf, minProperties and a property forbidden by a false schema', () => {
    const schema = {
      type: 'object',
      properties: {
        step: { type: 'number', multipleOf: 5 },
        labels: { type: 'object', minProperties: 2 },
        legacy: false,
      },
    };
    const text = yaml`
      step: 7
      labels: { a: b }
      legacy: true
    `;
    expect(diagnose(schema, text).map(brief)).toEqual([
      ['schema-bounds', 1, 7, '`step` must be a multiple of 5 (got 7)'],
      ['schema-bounds', 2, 9, '`labels` must have at least 2 properties'],
      ['schema-invalid', 3, 9, '`legacy` is not allowed here'],
    ]);
  });

  test('keywords without a dedicated message fall back to ajv’s wording under schema-invalid', () => {
    const schema = { type: 'object', dependentRequired: { start: ['end'] } };
    expect(diagnose(schema, 'start: 1\n').map(brief)).toEqual([
      [
        'schema-invalid',
        1,
        1,
        'the workflow definition must have property end when property start is present',
      ],
    ]);
  });

  test('a property-name rule other than a pattern', () => {
    const schema = { type: 'object', propertyNames: { maxLength: 3 } };
    expect(diagnose(schema, 'toolong: 1\n').map(brief)).toEqual([
      [
        'schema-bounds',
        1,
        1,
        '`toolong` is not a valid name in the workflow definition: it must be at most 3 characters long (got 7)',
      ],
    ]);
  });

  test('a validator without verbose errors still gives positioned messages (no allowed-names list)', () => {
    const schema = { type: 'object', properties: { name: { type: 'string' } }, additionalProperties: false };
    expect(diagnose(schema, 'nmae: x\n', { verbose: false }).map(brief)).toEqual([
      ['schema-additional-property', 1, 1, 'the workflow definition has an unknown property `nmae`'],
    ]);
  });
});
