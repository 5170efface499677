import { describe, expect, it } from 'vitest';
import { type ObjectShape, type Shape, STEP_SHAPE, WORKFLOW_SHAPE } from '../../../src/plan/shape.js';
import { isImplied, sameDeclared } from '../../../src/pull/merge-equal.js';

const fieldOf = (shape: ObjectShape, key: string): ObjectShape => shape.fields[key] as ObjectShape;
const itemsOf = (shape: Shape | undefined): ObjectShape => (shape as { items: ObjectShape }).items;
const TEMPLATE = fieldOf(STEP_SHAPE, 'template');
const TRIGGER = itemsOf(WORKFLOW_SHAPE.fields.triggers);
const PREFERENCES = fieldOf(WORKFLOW_SHAPE, 'preferenceSettings');
const TIMED = fieldOf(fieldOf(STEP_SHAPE, 'metadata'), 'timed');

describe('isImplied: a value that says what leaving the key out says', () => {
  it.each<[string, unknown, string, Shape | undefined, boolean]>([
    ['a documented default', true, 'active', STEP_SHAPE, true],
    ['another value than the default', false, 'active', STEP_SHAPE, false],
    ['a default of false', false, 'critical', WORKFLOW_SHAPE, true],
    ['the default list', [], 'filters', STEP_SHAPE, true],
    ['a list unlike the default', [{ type: 'x' }], 'filters', STEP_SHAPE, false],
    ['a fill-in pull leaves out (no defaults on the shape)', [], 'variables', TEMPLATE, true],
    ['another fill-in pull leaves out', [], 'weekDays', TIMED, true],
    ['a value unlike the fill-in', [1], 'weekDays', TIMED, false],
    ['a key with neither a default nor a fill-in', 'x', 'content', TEMPLATE, false],
    ['a key the shape does not know, on a shape with defaults only', true, 'fax', PREFERENCES, false],
    ['the default of a key on a shape with defaults only', true, 'email', PREFERENCES, true],
    ['an empty object where the default is {}', {}, 'preferenceSettings', WORKFLOW_SHAPE, true],
    ['an object of defaults only', { email: true, sms: true }, 'preferenceSettings', WORKFLOW_SHAPE, true],
    [
      'an object with one non-default',
      { email: true, sms: false },
      'preferenceSettings',
      WORKFLOW_SHAPE,
      false,
    ],
    ['a list where an object is declared', [], 'preferenceSettings', WORKFLOW_SHAPE, false],
    ['null where an object is declared', null, 'preferenceSettings', WORKFLOW_SHAPE, false],
    ['an empty object at a free-form value', {}, 'data', WORKFLOW_SHAPE, false],
    ['an empty object at an unknown key', {}, 'other', WORKFLOW_SHAPE, false],
    ['an object with no shape', { email: true }, 'preferenceSettings', undefined, false],
    ['no shape', true, 'active', undefined, false],
    ['undefined at a key with no default', undefined, 'name', WORKFLOW_SHAPE, false],
    ['a list shape', [], 'variables', WORKFLOW_SHAPE.fields.steps, false],
    ['a value shape', true, 'active', WORKFLOW_SHAPE.fields.name, false],
  ])('%s', (_what, value, key, shape, expected) => {
    expect(isImplied(value, key, shape)).toBe(expected);
  });
});

describe('sameDeclared', () => {
  const steps = WORKFLOW_SHAPE.fields.steps;
  const variables = TEMPLATE.fields.variables;
  const triggerVariables = TRIGGER.fields.variables;
  const content = TEMPLATE.fields.content;
  const a = { name: 'a', type: 'String' };
  const b = { name: 'b', type: 'String' };

  it.each<[string, unknown, unknown, Shape | undefined, boolean]>([
    // Lists matched element by element.
    ['the same steps', [{ name: 'x' }, { name: 'y' }], [{ name: 'x' }, { name: 'y' }], steps, true],
    ['steps in another order', [{ name: 'x' }, { name: 'y' }], [{ name: 'y' }, { name: 'x' }], steps, false],
    ['one step more', [{ name: 'x' }], [{ name: 'x' }, { name: 'y' }], steps, false],
    ['one step fewer', [{ name: 'x' }, { name: 'y' }], [{ name: 'x' }], steps, false],
    ['a step that writes its defaults out', [{ name: 'x', active: true }], [{ name: 'x' }], steps, true],
    ['a step with another value', [{ name: 'x', active: false }], [{ name: 'x' }], steps, false],
    // Sets.
    ['variables in another order', [a, b], [b, a], variables, true],
    ['trigger variables in another order', [a, b], [b, a], triggerVariables, true],
    ['a variable twice against two', [a, a], [a, b], triggerVariables, false],
    ['two against a variable twice', [a, b], [b, b], triggerVariables, false],
    ['a variable unlike any', [a], [b], triggerVariables, false],
    ['a set of different size', [a], [a, b], triggerVariables, false],
    [
      'a variable that writes required: false',
      [{ name: 'a', required: false }],
      [{ name: 'a' }],
      variables,
      true,
    ],
    ['a variable with required: true', [{ name: 'a', required: true }], [{ name: 'a' }], variables, false],
    // A list shape where the values are not lists: compared as values.
    ['text against a one-letter list', 'x', ['x'], content, false],
    ['a one-letter list against text', ['x'], 'x', content, false],
    ['the same text at a list field', '<p>x</p>', '<p>x</p>', content, true],
    // Objects.
    ['a key only on the left, implied', { name: 'x', critical: false }, { name: 'x' }, WORKFLOW_SHAPE, true],
    ['a key only on the right, implied', { name: 'x' }, { name: 'x', critical: false }, WORKFLOW_SHAPE, true],
    [
      'a key only on the left, not implied',
      { name: 'x', critical: true },
      { name: 'x' },
      WORKFLOW_SHAPE,
      false,
    ],
    [
      'a key only on the right, not implied',
      { name: 'x' },
      { name: 'x', critical: true },
      WORKFLOW_SHAPE,
      false,
    ],
    ['a key on both sides, different', { name: 'x' }, { name: 'y' }, WORKFLOW_SHAPE, false],
    ['nested objects by their shape', { preferenceSettings: { email: true } }, {}, WORKFLOW_SHAPE, true],
    ['an object against null', { name: 'x' }, null, WORKFLOW_SHAPE, false],
    ['null against an object', null, {}, WORKFLOW_SHAPE, false],
    ['an object against a list', {}, [], WORKFLOW_SHAPE, false],
    ['objects of no shape, as data', { a: 1, b: 2 }, { b: 2, a: 1 }, undefined, true],
    ['objects of no shape, a default is not implied', { critical: false }, {}, undefined, false],
    ['lists of no shape, in order', [1, 2], [2, 1], undefined, false],
  ])('%s', (_what, left, right, shape, expected) => {
    expect(sameDeclared(left, right, shape)).toBe(expected);
  });
});
