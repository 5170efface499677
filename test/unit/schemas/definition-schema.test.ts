// The definition schema against /work/shared/service-contract.md: enums, defaults, and the editor-facing rules
// (descriptions everywhere, additionalProperties false everywhere).

import { describe, expect, test } from 'vitest';
import { readSchema } from '../../../scripts/gen.mjs';
import { WRITE_ACTIONS } from '../../../src/config/target.js';
import { SERVER_MANAGED_FIELDS } from '../../../src/validate/server-managed.js';

type Schema = Record<string, unknown>;

const workflow = readSchema('schemas/workflow.schema.json') as Schema;
const config = readSchema('schemas/config.schema.json') as Schema;

/** The contract's enum table, written out by hand. */
const CONTRACT = {
  templateType: ['in_app', 'email', 'sms', 'chat', 'push', 'digest', 'trigger', 'delay', 'custom'],
  filterValue: ['AND', 'OR'],
  filterType: ['BOOLEAN', 'TEXT', 'DATE', 'NUMBER', 'STATEMENT', 'LIST', 'MULTI_LIST', 'GROUP'],
  operator: [
    'LARGER',
    'SMALLER',
    'LARGER_EQUAL',
    'SMALLER_EQUAL',
    'EQUAL',
    'NOT_EQUAL',
    'ALL_IN',
    'ANY_IN',
    'NOT_IN',
    'BETWEEN',
    'NOT_BETWEEN',
    'LIKE',
    'NOT_LIKE',
    'IN',
    'IS_DEFINED',
  ],
  on: ['subscriber', 'payload', 'webhook', 'isOnline', 'isOnlineInLast', 'previousStep', 'tenant'],
  unit: ['seconds', 'minutes', 'hours', 'days', 'weeks', 'months'],
  // Digest (regular, backoff, timed) and delay (regular, scheduled) metadata share one object.
  metadataType: ['regular', 'backoff', 'timed', 'scheduled'],
  weekDays: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'],
  ordinal: ['1', '2', '3', '4', '5', 'last'],
  monthlyType: ['each', 'on'],
  variableType: ['String', 'Array', 'Boolean'],
  contentType: ['editor', 'customHtml'],
  triggerType: ['event'],
  blockType: ['text', 'button'],
  textAlign: ['center', 'left', 'right'],
  timeOperator: ['days', 'hours', 'minutes'],
  stepType: ['read', 'unread', 'seen', 'unseen'],
};

/** Every enum of a schema by JSON pointer into the schema. */
function enumsOf(schema: unknown, pointer = ''): Record<string, unknown[]> {
  const out: Record<string, unknown[]> = {};
  if (schema === null || typeof schema !== 'object') return out;
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'enum' && Array.isArray(value)) out[pointer] = value;
    else if (key !== 'examples' && key !== 'default') Object.assign(out, enumsOf(value, `${pointer}/${key}`));
  }
  return out;
}

function at(schema: Schema, pointer: string): Schema {
  return pointer
    .split('/')
    .slice(1)
    .reduce<Schema>((node, key) => node[key] as Schema, schema);
}

describe('enums match the contract exactly', () => {
  test('workflow.schema.json', () => {
    expect(enumsOf(workflow)).toEqual({
      '/$defs/StepTemplate/properties/type': CONTRACT.templateType,
      '/$defs/StepTemplate/properties/contentType': CONTRACT.contentType,
      '/$defs/EmailBlock/properties/type': CONTRACT.blockType,
      '/$defs/EmailBlock/properties/styles/properties/textAlign': CONTRACT.textAlign,
      '/$defs/TemplateVariable/properties/type': CONTRACT.variableType,
      // Not in the contract's table: taken from the service's source (MessageAction, ButtonType, ActorType).
      '/$defs/MessageAction/properties/status': ['pending', 'done'],
      '/$defs/MessageAction/properties/buttons/items/properties/type': ['primary', 'secondary'],
      '/$defs/MessageAction/properties/result/properties/type': ['primary', 'secondary'],
      '/$defs/MessageActor/properties/type': ['none', 'user', 'system_icon', 'system_custom'],
      '/$defs/StepFilter/properties/type': CONTRACT.filterType,
      '/$defs/StepFilter/properties/value': CONTRACT.filterValue,
      '/$defs/FilterPart/properties/on': CONTRACT.on,
      '/$defs/FilterPart/properties/operator': CONTRACT.operator,
      '/$defs/FilterPart/properties/timeOperator': CONTRACT.timeOperator,
      '/$defs/FilterPart/properties/stepType': CONTRACT.stepType,
      '/$defs/StepMetadata/properties/type': CONTRACT.metadataType,
      '/$defs/TimeUnit': CONTRACT.unit,
      '/$defs/TimedConfig/properties/weekDays/items': CONTRACT.weekDays,
      '/$defs/TimedConfig/properties/ordinal': CONTRACT.ordinal,
      '/$defs/TimedConfig/properties/monthlyType': CONTRACT.monthlyType,
      '/$defs/TriggerDefinition/properties/type': CONTRACT.triggerType,
      '/$defs/TriggerVariable/properties/type': CONTRACT.variableType,
    });
    expect(at(workflow, '/$defs/StepMetadata/properties/unit')).toEqual({ $ref: '#/$defs/TimeUnit' });
    expect(at(workflow, '/$defs/StepMetadata/properties/backoffUnit')).toEqual({ $ref: '#/$defs/TimeUnit' });
    expect(at(workflow, '/$defs/CallToAction/properties/type').const).toBe('redirect');
  });

  test('config.schema.json', () => {
    expect(enumsOf(config)).toEqual({
      '/$defs/RuleSeverity': ['error', 'warning', 'info', 'off'],
      '/$defs/TargetConfig/properties/allow/items': [...WRITE_ACTIONS],
    });
  });
});

describe('defaults are the server defaults of the contract', () => {
  test.each([
    ['/properties/active', false],
    ['/properties/critical', false],
    ['/properties/tags', []],
    ['/$defs/PreferenceSettings/properties/email', true],
    ['/$defs/PreferenceSettings/properties/sms', true],
    ['/$defs/PreferenceSettings/properties/in_app', true],
    ['/$defs/PreferenceSettings/properties/chat', true],
    ['/$defs/PreferenceSettings/properties/push', true],
    ['/$defs/WorkflowStep/properties/active', true],
    ['/$defs/WorkflowStep/properties/shouldStopOnFail', false],
    ['/$defs/TemplateVariable/properties/required', false],
  ])('%s defaults to %j', (pointer, value) => {
    expect(at(workflow, pointer).default).toEqual(value);
  });
});

describe('bounds of the contract', () => {
  test('name 1-128, description ≤256, tags unique 1-64, steps 1-20, exactly one trigger, identifier 1-128', () => {
    expect(at(workflow, '/properties/name')).toMatchObject({ minLength: 1, maxLength: 128 });
    expect(at(workflow, '/properties/description')).toMatchObject({ maxLength: 256 });
    expect(at(workflow, '/properties/tags')).toMatchObject({
      uniqueItems: true,
      items: { minLength: 1, maxLength: 64 },
    });
    expect(at(workflow, '/properties/steps')).toMatchObject({ minItems: 1, maxItems: 20 });
    expect(at(workflow, '/properties/triggers')).toMatchObject({ minItems: 1, maxItems: 1 });
    const identifier = at(workflow, '/$defs/TriggerDefinition/properties/identifier');
    expect(identifier).toMatchObject({ minLength: 1, maxLength: 128 });
    // The format is a semantic rule (identifier-format) with a better message than a pattern could give.
    expect(identifier).not.toHaveProperty('pattern');
  });
});

/** Every subschema that describes an object, with its pointer. */
function objectSchemas(schema: unknown, pointer = ''): Array<[string, Schema]> {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema)) return [];
  const node = schema as Schema;
  const own: Array<[string, Schema]> = node.type === 'object' ? [[pointer, node]] : [];
  return own.concat(
    Object.entries(node).flatMap(([key, value]) =>
      // `if` holds a condition, not a shape an editor offers.
      key === 'examples' || key === 'default' || key === 'if'
        ? []
        : objectSchemas(value, `${pointer}/${key}`),
    ),
  );
}

describe('the definition schema as editors use it', () => {
  test('additionalProperties is false on every object except the free-form ones', () => {
    const open = objectSchemas(workflow)
      .filter(([, node]) => node.additionalProperties !== false)
      .map(([pointer]) => pointer);
    expect(open).toEqual(['/properties/data', '/$defs/MessageAction/properties/result/properties/payload']);
  });

  test('every property has a description (directly or through the $def it references)', () => {
    const missing = objectSchemas(workflow).flatMap(([pointer, node]) =>
      Object.entries((node.properties ?? {}) as Record<string, Schema>)
        .filter(([, property]) => {
          const ref = property.$ref as string | undefined;
          const target = ref ? at(workflow, ref.slice(1)) : property;
          return typeof target.description !== 'string';
        })
        .map(([name]) => `${pointer}/properties/${name}`),
    );
    expect(missing).toEqual([]);
  });

  test('no server-managed field is a property of the workflow, except `type` below the top level', () => {
    const properties = objectSchemas(workflow).flatMap(([pointer, node]) =>
      Object.keys((node.properties ?? {}) as Schema).map((name) => [pointer, name] as const),
    );
    const clashes = properties.filter(
      ([pointer, name]) =>
        (SERVER_MANAGED_FIELDS as readonly string[]).includes(name) && !(name === 'type' && pointer !== ''),
    );
    expect(clashes).toEqual([]);
  });
});
