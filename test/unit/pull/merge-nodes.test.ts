import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { WorkflowDefinition } from '../../../src/generated/workflow.js';
import { mergePulledDefinition } from '../../../src/pull/merge.js';
import { FRESH, mergeChecked } from './merge-helpers.js';

/** Lines joined into a file's text (with its final newline). */
const file = (...lines: string[]) => `${lines.join('\n')}\n`;
/** What the service holds, written as YAML for the table (the merge does not validate it). */
const service = (...lines: string[]) => parse(file(...lines)) as WorkflowDefinition;

type Case = [what: string, existing: string, pulled: WorkflowDefinition, merged: string, changed: string[]];

function expectMerge([, existing, pulled, merged, changed]: Case) {
  const result = mergeChecked(existing, pulled);
  expect(result.text).toBe(merged);
  expect(result.changed).toEqual(changed);
}

describe('mergePulledDefinition: keys of a mapping', () => {
  it.each<Case>([
    [
      'a key the service no longer has is deleted',
      file('name: x', 'description: d # gone', 'steps: []', 'triggers: []'),
      service('name: x', 'steps: []', 'triggers: []'),
      file('name: x', 'steps: []', 'triggers: []'),
      ['description'],
    ],
    [
      'two keys deleted, one after the other',
      file('name: x', 'description: d', 'tags: [a]', 'steps: []', 'triggers: []'),
      service('name: x', 'steps: []', 'triggers: []'),
      file('name: x', 'steps: []', 'triggers: []'),
      ['description', 'tags'],
    ],
    [
      'a nested key deleted',
      file('name: x', 'preferenceSettings:', '  sms: false', '  chat: false', 'steps: []', 'triggers: []'),
      service('name: x', 'preferenceSettings: { chat: false }', 'steps: []', 'triggers: []'),
      file('name: x', 'preferenceSettings:', '  chat: false', 'steps: []', 'triggers: []'),
      ['preferenceSettings.sms'],
    ],
    [
      'a new key after the keys the schema puts before it, in the file order',
      file('steps: []', 'name: x', 'triggers: []'),
      service('name: x', 'description: d', 'steps: []', 'triggers: []'),
      file('steps: []', 'name: x', 'description: d', 'triggers: []'),
      ['description'],
    ],
    [
      'new keys at the end',
      file('name: x', 'steps: []'),
      service('name: x', 'steps: []', 'triggers: []', 'extra: 1'),
      file('name: x', 'steps: []', 'triggers: []', 'extra: 1'),
      ['triggers', 'extra'],
    ],
    [
      'a key the schema does not know goes after the known ones',
      file('name: x', 'steps: []', 'triggers: []'),
      service('extra: 1', 'name: x', 'steps: []', 'triggers: []'),
      file('name: x', 'steps: []', 'triggers: []', 'extra: 1'),
      ['extra'],
    ],
    [
      'a key first in a nested map goes under the comment on top of the map',
      file('name: x', 'steps:', '  - template:', '      # the template', '      content: a', 'triggers: []'),
      service('name: x', 'steps: [{ template: { type: chat, content: a } }]', 'triggers: []'),
      file(
        'name: x',
        'steps:',
        '  - template:',
        '      # the template',
        '      type: chat',
        '      content: a',
        'triggers: []',
      ),
      ['steps[0].template.type'],
    ],
    [
      'a key first in the file, which has no top comment',
      file('description: d', 'steps: []', 'triggers: []'),
      service('name: x', 'description: d', 'steps: []', 'triggers: []'),
      file('name: x', 'description: d', 'steps: []', 'triggers: []'),
      ['name'],
    ],
    [
      'a key into an empty flow map',
      file('name: x', 'preferenceSettings: {}', 'steps: []', 'triggers: []'),
      service('name: x', 'preferenceSettings: { sms: false }', 'steps: []', 'triggers: []'),
      file('name: x', 'preferenceSettings: { sms: false }', 'steps: []', 'triggers: []'),
      ['preferenceSettings.sms'],
    ],
    [
      'the top comment stays on top when a key goes after the first',
      file('# top', 'name: x', 'steps: []', 'triggers: []'),
      service('name: x', 'description: d', 'steps: []', 'triggers: []'),
      file('# top', 'name: x', 'description: d', 'steps: []', 'triggers: []'),
      ['description'],
    ],
    [
      'keys into an empty file mapping',
      file('{}'),
      service('name: x', 'steps: []', 'triggers: []'),
      file('{ name: x, steps: [], triggers: [] }'),
      ['name', 'steps', 'triggers'],
    ],
    [
      'maps in free-form data are edited key by key',
      file('name: x', 'data: [{a: 1}, {b: 2}]', 'steps: []', 'triggers: []'),
      service('name: x', 'data: [{a: 1}, {b: 3}]', 'steps: []', 'triggers: []'),
      file('name: x', 'data: [{a: 1}, {b: 3}]', 'steps: []', 'triggers: []'),
      ['data[1].b'],
    ],
    [
      'numbers as keys in free-form data',
      file('name: x', 'data:', '  1: a', '  2: b', 'steps: []', 'triggers: []'),
      service('name: x', 'data: { "1": a, "2": c }', 'steps: []', 'triggers: []'),
      file('name: x', 'data:', '  1: a', '  2: c', 'steps: []', 'triggers: []'),
      ['data.2'],
    ],
  ])('%s', (...c) => expectMerge(c));

  it('a field written out with its default stays when the service leaves it out', () => {
    const text = file('name: x', 'critical: false', 'description: d', 'steps: []', 'triggers: []');
    const result = mergeChecked(text, service('name: x', 'steps: []', 'triggers: []'), {
      expected: service('name: x', 'critical: false', 'steps: []', 'triggers: []'),
    });
    expect(result.text).toBe(file('name: x', 'critical: false', 'steps: []', 'triggers: []'));
    expect(result.changed).toEqual(['description']);
  });
});

describe('mergePulledDefinition: values', () => {
  it.each<Case>([
    [
      'a quoted text keeps its quotes',
      file('name: x', "description: 'old' # c", 'steps: []', 'triggers: []'),
      service('name: x', 'description: new', 'steps: []', 'triggers: []'),
      file('name: x', "description: 'new' # c", 'steps: []', 'triggers: []'),
      ['description'],
    ],
    [
      'a quoted line that becomes several lines is written as a block',
      file('name: x', 'description: "old"', 'steps: []', 'triggers: []'),
      service('name: x', 'description: "one\\ntwo"', 'steps: []', 'triggers: []'),
      file('name: x', 'description: |-', '  one', '  two', 'steps: []', 'triggers: []'),
      ['description'],
    ],
    [
      'a block that becomes one line is written plain',
      file('name: x', 'description: |-', '  one', '  two', 'steps: []', 'triggers: []'),
      service('name: x', 'description: one', 'steps: []', 'triggers: []'),
      file('name: x', 'description: one', 'steps: []', 'triggers: []'),
      ['description'],
    ],
    [
      'a block that stays a block keeps its style',
      file('name: x', 'description: >', '  one', '  two', '', '  three', 'steps: []', 'triggers: []'),
      service('name: x', 'description: "one two\\nfour\\n"', 'steps: []', 'triggers: []'),
      file('name: x', 'description: >', '  one', '  two', '', '  four', 'steps: []', 'triggers: []'),
      ['description'],
    ],
    [
      'a number that becomes text is quoted',
      file('name: x', 'description: 1 # c', 'steps: []', 'triggers: []'),
      service('name: x', 'description: "2"', 'steps: []', 'triggers: []'),
      file('name: x', 'description: "2" # c', 'steps: []', 'triggers: []'),
      ['description'],
    ],
    [
      'text that becomes a boolean is written as one',
      file('name: x', 'critical: "yes"', 'steps: []', 'triggers: []'),
      service('name: x', 'critical: true', 'steps: []', 'triggers: []'),
      file('name: x', 'critical: true', 'steps: []', 'triggers: []'),
      ['critical'],
    ],
    [
      'a replaced value keeps the comments around it and its blank line',
      file('name: x', '', '# about data', 'data: 1 # one', 'steps: []', 'triggers: []'),
      service('name: x', 'data: { a: 1 }', 'steps: []', 'triggers: []'),
      file('name: x', '', '# about data', 'data:', '  a: 1', '  # one', 'steps: []', 'triggers: []'),
      ['data'],
    ],
    [
      'a flow map replaced whole stays flow',
      file('name: x', 'data: { a: [1] }', 'steps: []', 'triggers: []'),
      service('name: x', 'data: [{ b: 2 }]', 'steps: []', 'triggers: []'),
      file('name: x', 'data: [{b: 2}]', 'steps: []', 'triggers: []'),
      ['data'],
    ],
    [
      'a block map replaced by a list is block',
      file('name: x', 'data:', '  a: 1', 'steps: []', 'triggers: []'),
      service('name: x', 'data: [1, 2]', 'steps: []', 'triggers: []'),
      file('name: x', 'data:', '  - 1', '  - 2', 'steps: []', 'triggers: []'),
      ['data'],
    ],
    [
      'a map edited key by key keeps its flow style',
      file('name: x', 'data: { a: 1, b: 2 }', 'steps: []', 'triggers: []'),
      service('name: x', 'data: { a: 1, b: 3 }', 'steps: []', 'triggers: []'),
      file('name: x', 'data: { a: 1, b: 3 }', 'steps: []', 'triggers: []'),
      ['data.b'],
    ],
    [
      'an alias to a map whose value changes is replaced by the value; the anchor stays',
      file(
        'name: x',
        'steps:',
        '  - template: &t { type: chat, content: a }',
        '  - template: *t',
        'triggers: []',
      ),
      service(
        'name: x',
        'steps: [{template: {type: chat, content: a}}, {template: {type: chat, content: b}}]',
        'triggers: []',
      ),
      file(
        'name: x',
        'steps:',
        '  - template: &t { type: chat, content: a }',
        '  - template:',
        '      type: chat',
        '      content: b',
        'triggers: []',
      ),
      ['steps[1].template'],
    ],
    [
      'an alias to a list whose value changes is replaced by the value',
      file('name: x', 'tags: &t [a]', 'data: *t', 'steps: []', 'triggers: []'),
      service('name: x', 'tags: [a]', 'data: [b]', 'steps: []', 'triggers: []'),
      file('name: x', 'tags: &t [a]', 'data:', '  - b', 'steps: []', 'triggers: []'),
      ['data'],
    ],
    [
      'a nested map is edited where it differs',
      file(
        'name: x',
        'steps:',
        '  - template:',
        '      type: chat # the kind',
        '      content: a',
        'triggers: []',
      ),
      service('name: x', 'steps: [{ template: { type: sms, content: a } }]', 'triggers: []'),
      file(
        'name: x',
        'steps:',
        '  - template:',
        '      type: sms # the kind',
        '      content: a',
        'triggers: []',
      ),
      ['steps[0].template.type'],
    ],
  ])('%s', (...c) => expectMerge(c));
});

describe('mergePulledDefinition: lists in order (steps, tags)', () => {
  const steps = (...contents: string[]) =>
    service(
      'name: x',
      'steps:',
      ...contents.map((c) => `  - { template: { type: chat, content: ${c} } }`),
      'triggers: []',
    );
  const blockSteps = (...contents: string[]) =>
    file(
      'name: x',
      'steps:',
      ...contents.flatMap((c) => ['  - template:', '      type: chat', `      content: ${c}`]),
      'triggers: []',
    );

  it.each<Case>([
    [
      'one step edited in place',
      blockSteps('a', 'b', 'c'),
      steps('a', 'B', 'c'),
      blockSteps('a', 'B', 'c'),
      ['steps[1].template.content'],
    ],
    ['a step deleted', blockSteps('a', 'b', 'c'), steps('a', 'c'), blockSteps('a', 'c'), ['steps[1]']],
    ['the first step deleted', blockSteps('a', 'b'), steps('b'), blockSteps('b'), ['steps[0]']],
    ['a step inserted', blockSteps('a', 'c'), steps('a', 'b', 'c'), blockSteps('a', 'b', 'c'), ['steps[1]']],
    ['a step inserted first', blockSteps('b'), steps('a', 'b'), blockSteps('a', 'b'), ['steps[0]']],
    [
      'three replaced by two: two edited, one deleted',
      blockSteps('a', 'b', 'c'),
      steps('x', 'y'),
      blockSteps('x', 'y'),
      ['steps[0].template.content', 'steps[1].template.content', 'steps[2]'],
    ],
    [
      'two replaced by three: two edited, one added',
      blockSteps('a', 'b', 'k'),
      steps('x', 'y', 'z', 'k'),
      blockSteps('x', 'y', 'z', 'k'),
      ['steps[0].template.content', 'steps[1].template.content', 'steps[2]'],
    ],
    [
      'edits on both sides of a kept step',
      blockSteps('a', 'k', 'b', 'c'),
      steps('x', 'k', 'c'),
      blockSteps('x', 'k', 'c'),
      ['steps[0].template.content', 'steps[2]'],
    ],
    [
      'a step deleted after an added one',
      blockSteps('k', 'a', 'm', 'b', 'c'),
      steps('k', 'n', 'a', 'm', 'c'),
      blockSteps('k', 'n', 'a', 'm', 'c'),
      ['steps[1]', 'steps[3]'],
    ],
    [
      'new steps after flow ones are flow',
      file('name: x', 'steps:', '  - { template: { type: chat, content: a } }', 'triggers: []'),
      steps('a', 'b'),
      file(
        'name: x',
        'steps:',
        '  - { template: { type: chat, content: a } }',
        '  - { template: { type: chat, content: b } }',
        'triggers: []',
      ),
      ['steps[1]'],
    ],
    [
      'a new first step is written like the step it comes before',
      file('name: x', 'steps:', '  - { template: { type: chat, content: b } }', 'triggers: []'),
      steps('a', 'b'),
      file(
        'name: x',
        'steps:',
        '  - { template: { type: chat, content: a } }',
        '  - { template: { type: chat, content: b } }',
        'triggers: []',
      ),
      ['steps[0]'],
    ],
    [
      'the blank line before the first step belongs to the key: the new one has none',
      file('name: x', 'steps:', '', '  - { template: { type: chat, content: a } }', 'triggers: []'),
      steps('a', 'b'),
      file(
        'name: x',
        'steps:',
        '',
        '  - { template: { type: chat, content: a } }',
        '  - { template: { type: chat, content: b } }',
        'triggers: []',
      ),
      ['steps[1]'],
    ],
    [
      'block steps after flow ones, unless the last one is flow',
      file(
        'name: x',
        'steps:',
        '  - { template: { type: chat, content: a } }',
        '  - template:',
        '      type: chat',
        '      content: b',
        'triggers: []',
      ),
      steps('a', 'b', 'c'),
      file(
        'name: x',
        'steps:',
        '  - { template: { type: chat, content: a } }',
        '  - template:',
        '      type: chat',
        '      content: b',
        '  - template:',
        '      type: chat',
        '      content: c',
        'triggers: []',
      ),
      ['steps[2]'],
    ],
    [
      'a new element is written like the last one, not the others',
      file('name: x', 'data:', '  - a: 1', '  - {b: 1}', '  - c: 1', 'steps: []', 'triggers: []'),
      service('name: x', 'data: [{a: 1}, {b: 1}, {c: 1}, {d: 1}]', 'steps: []', 'triggers: []'),
      file('name: x', 'data:', '  - a: 1', '  - {b: 1}', '  - c: 1', '  - d: 1', 'steps: []', 'triggers: []'),
      ['data[3]'],
    ],
    [
      'an element into an empty list',
      file('name: x', 'tags: []', 'steps: []', 'triggers: []'),
      service('name: x', 'tags: [a]', 'steps: []', 'triggers: []'),
      file('name: x', 'tags: [ a ]', 'steps: []', 'triggers: []'),
      ['tags'],
    ],
    [
      'tags change as a whole: one path',
      file('name: x', 'tags:', '  - a', '  - b # b', '  - c', 'steps: []', 'triggers: []'),
      service('name: x', 'tags: [a, x, c, d]', 'steps: []', 'triggers: []'),
      file('name: x', 'tags:', '  - a', '  - x # b', '  - c', '  - d', 'steps: []', 'triggers: []'),
      ['tags'],
    ],
    [
      'nulls are plain values too',
      file('name: x', 'data: [a, null]', 'steps: []', 'triggers: []'),
      service('name: x', 'data: [b, null]', 'steps: []', 'triggers: []'),
      file('name: x', 'data: [b, null]', 'steps: []', 'triggers: []'),
      ['data'],
    ],
    [
      'a list of lists is not plain values: each changed element is',
      file('name: x', 'data: [[a], [b], [c]]', 'steps: []', 'triggers: []'),
      service('name: x', 'data: [[x], [b], [y]]', 'steps: []', 'triggers: []'),
      file('name: x', 'data: [[x], [b], [y]]', 'steps: []', 'triggers: []'),
      ['data[0]', 'data[2]'],
    ],
    [
      'a new element written like the one before it, its blank line too',
      file('name: x', 'data:', '  - 1', '', '  - 2', 'steps: []', 'triggers: []'),
      service('name: x', 'data: [1, 2, 3]', 'steps: []', 'triggers: []'),
      file('name: x', 'data:', '  - 1', '', '  - 2', '', '  - 3', 'steps: []', 'triggers: []'),
      ['data'],
    ],
    [
      'a replaced element keeps its blank line',
      file('name: x', 'data:', '  - 1', '', '  - 2', 'steps: []', 'triggers: []'),
      service('name: x', 'data: [1, [3]]', 'steps: []', 'triggers: []'),
      file('name: x', 'data:', '  - 1', '', '  - - 3', 'steps: []', 'triggers: []'),
      ['data[1]'],
    ],
    [
      'a replaced element keeps the comment above it',
      file('name: x', 'data:', '  - # c', '    1', 'steps: []', 'triggers: []'),
      service('name: x', 'data: [{ a: 1 }]', 'steps: []', 'triggers: []'),
      file('name: x', 'data:', '  # c', '  - a: 1', 'steps: []', 'triggers: []'),
      ['data[0]'],
    ],
  ])('%s', (...c) => expectMerge(c));
});

describe('mergePulledDefinition: lists that are sets (variables)', () => {
  const trigger = (...variables: string[]) =>
    file(
      'name: x',
      'steps: []',
      'triggers:',
      '  - type: event',
      '    identifier: e',
      '    variables:',
      ...variables.map((v) => `      - ${v}`),
    );

  it.each<Case>([
    [
      'a new one appended after the others, a gone one deleted',
      trigger('{ name: a, type: String }', '{ name: b, type: String } # b'),
      parse(trigger('{ name: c, type: String }', '{ name: a, type: String }')),
      trigger('{ name: a, type: String }', '{ name: c, type: String }'),
      ['triggers[0].variables'],
    ],
    [
      'one matched by name edited in place, wherever it stands',
      trigger('{ name: a, type: String } # a', '{ name: b, type: String }'),
      parse(trigger('{ name: b, type: String }', '{ name: a, type: Array }')),
      trigger('{ name: a, type: Array } # a', '{ name: b, type: String }'),
      ['triggers[0].variables'],
    ],
    [
      'two new ones after a block list are block',
      trigger('name: a'),
      parse(trigger('name: a', 'name: b', 'name: c')),
      trigger('name: a', 'name: b', 'name: c'),
      ['triggers[0].variables'],
    ],
    [
      'the first new one after all are deleted is written like the old first',
      trigger('{ name: a }'),
      parse(trigger('{ name: b }')),
      trigger('{ name: b }'),
      ['triggers[0].variables'],
    ],
  ])('%s', (_what, existing, pulled, merged, changed) => {
    const result = mergeChecked(existing, pulled, { sets: true });
    expect(result.text).toBe(merged);
    expect(result.changed).toEqual(changed);
  });

  it('records without a name are matched whole: a gone one is deleted with its comment', () => {
    const text = file(
      'name: x',
      'steps: []',
      'triggers:',
      '  - variables:',
      '      - { type: A } # a',
      '      - { type: B }',
      '      - null',
    );
    const pulled = service(
      'name: x',
      'steps: []',
      'triggers:',
      '  - variables: [{type: B}, {type: C}, null]',
    );
    const result = mergeChecked(text, pulled, { sets: true });
    expect(result.text).toBe(
      file(
        'name: x',
        'steps: []',
        'triggers:',
        '  - variables:',
        '      - { type: B }',
        '      - null',
        '      - type: C',
      ),
    );
    expect(result.changed).toEqual(['triggers[0].variables']);
  });

  it('an anchored element that changes is named by its place on the service', () => {
    const text = file(
      'name: x',
      'steps: []',
      'triggers:',
      '  - variables:',
      '      - { name: a }',
      '      - &v { name: b }',
      '    subscriberVariables: [*v]',
    );
    const pulled = service(
      'name: x',
      'steps: []',
      'triggers:',
      '  - variables: [{name: b, type: X}, {name: a}]',
      '    subscriberVariables: [{name: b}]',
    );
    expect(mergePulledDefinition(text, pulled, { freshText: FRESH })).toMatchObject({
      text: FRESH,
      rewritten: 'triggers[0].variables[0] is an anchor (&v) whose value changed',
    });
  });

  it('elements without a name are matched whole', () => {
    const text = file('name: x', 'steps: []', 'triggers:', '  - variables: [a, b]');
    const result = mergeChecked(text, service('name: x', 'steps: []', 'triggers:', '  - variables: [c, b]'), {
      sets: true,
    });
    expect(result.text).toBe(file('name: x', 'steps: []', 'triggers:', '  - variables: [b, c]'));
    expect(result.changed).toEqual(['triggers[0].variables']);
  });

  it('template variables: a field in one of them is edited in place', () => {
    const text = file(
      'name: x',
      'steps:',
      '  - template:',
      '      type: chat',
      '      content: a',
      '      variables:',
      '        - name: a',
      '          required: true',
      'triggers: []',
    );
    const result = mergeChecked(
      text,
      service(
        'name: x',
        'steps: [{ template: { type: chat, content: a, variables: [{ name: a }] } }]',
        'triggers: []',
      ),
      { sets: true },
    );
    expect(result.text).toBe(
      file(
        'name: x',
        'steps:',
        '  - template:',
        '      type: chat',
        '      content: a',
        '      variables:',
        '        - name: a',
        'triggers: []',
      ),
    );
    expect(result.changed).toEqual(['steps[0].template.variables']);
  });
});

describe('mergePulledDefinition: files it does not edit in place', () => {
  it.each<[string, string, WorkflowDefinition, string, string[]]>([
    [
      'the whole file is an anchor',
      file('&all', 'name: x', 'steps: []', 'triggers: []'),
      service('name: y', 'steps: []', 'triggers: []'),
      'the file is an anchor (&all) whose value changed',
      [],
    ],
    [
      'a nested map repeats a key',
      file('name: x', 'steps:', '  - template: { type: chat, type: sms, content: a }', 'triggers: []'),
      service('name: x', 'steps: [{ template: { type: sms, content: b } }]', 'triggers: []'),
      'steps[0].template repeats a key',
      [],
    ],
    [
      'a key that is a collection',
      file('name: x', 'data:', '  ? [a]', '  : 1', 'steps: []', 'triggers: []'),
      service('name: x', 'data: { b: 1 }', 'steps: []', 'triggers: []'),
      'a key is not plain text',
      [],
    ],
    [
      'a key that is a boolean',
      file('name: x', 'data:', '  true: 1', 'steps: []', 'triggers: []'),
      service('name: x', 'data: { b: 1 }', 'steps: []', 'triggers: []'),
      'a key is not plain text',
      [],
    ],
    [
      'an anchor after other changes',
      file('name: x', 'description: d', 'data: &d { a: 1 }', 'steps: []', 'triggers: []'),
      service('name: x', 'data: { a: 2 }', 'steps: []', 'triggers: []'),
      'data is an anchor (&d) whose value changed',
      ['description'],
    ],
  ])('%s: the fresh text, and why', (_what, text, pulled, reason, changed) => {
    expect(mergePulledDefinition(text, pulled, { freshText: FRESH })).toEqual({
      text: FRESH,
      changed,
      definition: pulled,
      rewritten: reason,
    });
  });
});
