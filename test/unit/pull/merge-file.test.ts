import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import type { WorkflowDefinition } from '../../../src/generated/workflow.js';
import { mergePulledDefinition } from '../../../src/pull/merge.js';
import { FRESH, mergeChecked } from './merge-helpers.js';

const file = (...lines: string[]) => `${lines.join('\n')}\n`;
const service = (...lines: string[]) => parse(file(...lines)) as WorkflowDefinition;
const merge = (
  text: string,
  pulled: WorkflowDefinition,
  ids: { existingGroupId?: string; serviceGroupId?: string } = {},
) => mergePulledDefinition(text, pulled, { freshText: FRESH, ...ids });

describe('mergePulledDefinition: the file as a whole', () => {
  it.each<[string, string, string]>([
    [
      'a byte order mark, LF',
      '\uFEFFname: x\ndescription: a\nsteps: []\ntriggers: []\n',
      '\uFEFFname: x\ndescription: b\nsteps: []\ntriggers: []\n',
    ],
    [
      'CRLF, no byte order mark',
      'name: x\r\ndescription: a\r\nsteps: []\r\ntriggers: []\r\n',
      'name: x\r\ndescription: b\r\nsteps: []\r\ntriggers: []\r\n',
    ],
    [
      'neither',
      'name: x\ndescription: a\nsteps: []\ntriggers: []\n',
      'name: x\ndescription: b\nsteps: []\ntriggers: []\n',
    ],
  ])('%s: kept as the file had it', (_what, text, merged) => {
    expect(merge(text, service('name: x', 'description: b', 'steps: []', 'triggers: []'))).toEqual({
      text: merged,
      changed: ['description'],
      definition: service('name: x', 'description: b', 'steps: []', 'triggers: []'),
    });
  });

  it('a byte order mark stays when the first line is edited', () => {
    const text = '\uFEFFname: x\nsteps: []\ntriggers: []\n';
    expect(merge(text, service('name: y', 'steps: []', 'triggers: []')).text).toBe(
      '\uFEFFname: y\nsteps: []\ntriggers: []\n',
    );
  });

  it('nothing changed in a file of mixed line ends: the very text', () => {
    const text = 'name: x\r\nsteps: []\ntriggers: []\n';
    expect(merge(text, service('name: x', 'steps: []', 'triggers: []'))).toEqual({
      text,
      changed: [],
      definition: service('name: x', 'steps: []', 'triggers: []'),
    });
  });

  it("a value that is not JSON is the caller's bug: thrown, not written as fresh text", () => {
    const pulled = { name: 'x', data: 1n, steps: [], triggers: [] } as unknown as WorkflowDefinition;
    expect(() => merge(file('name: x', 'data: 1', 'steps: []', 'triggers: []'), pulled)).toThrow(TypeError);
  });

  it('nothing changed: the very text, and the definition the file holds', () => {
    const text = '\uFEFFname: x\r\ncritical: false # explicit\r\nsteps: []\r\ntriggers: []\r\n';
    expect(merge(text, service('name: x', 'steps: []', 'triggers: []'))).toEqual({
      text,
      changed: [],
      definition: service('name: x', 'critical: false', 'steps: []', 'triggers: []'),
    });
  });

  it("where the file's own lines do not fit the edit, yaml's printing of the edited file", () => {
    // The first nested map decides the indent (4); the file's 2-space line and the edited 4-space line would clash.
    const text = file(
      'name: x',
      'data:',
      '    a: 1',
      'preferenceSettings:',
      '  sms: false',
      'steps: []',
      'triggers: []',
    );
    const pulled = service(
      'name: x',
      'data: {a: 1}',
      'preferenceSettings: {sms: false, chat: false}',
      'steps: []',
      'triggers: []',
    );
    const result = mergeChecked(text, pulled);
    expect(result.text).toBe(
      file(
        'name: x',
        'data:',
        '    a: 1',
        'preferenceSettings:',
        '    sms: false',
        '    chat: false',
        'steps: []',
        'triggers: []',
      ),
    );
    expect(result.changed).toEqual(['preferenceSettings.chat']);
  });

  it.each<[string, string]>([
    ['an empty file', ''],
    ['a comment only', '# nothing\n'],
    ['two documents', 'name: x\n---\nname: y\n'],
    ['nesting deeper than the loader reads', `name: x\ndata: ${'['.repeat(80)}${']'.repeat(80)}\n`],
    [
      'an alias that nests it deeper than the loader reads',
      `name: x\na: &a ${'['.repeat(60)}1${']'.repeat(60)}\nb: ${'['.repeat(60)}*a${']'.repeat(60)}\n`,
    ],
    ['a YAML error', 'name: x\n  bad: indent\n'],
    ['a merge key that merges no mapping', 'name: x\ndata:\n  <<: y\nsteps: []\ntriggers: []\n'],
  ])('%s: the fresh text', (_what, text) => {
    const pulled = service('name: y', 'steps: []', 'triggers: []');
    expect(merge(text, pulled)).toEqual({
      text: FRESH,
      changed: [],
      definition: pulled,
      rewritten: 'the file does not read as a YAML mapping',
    });
  });

  it.each<[string, string, WorkflowDefinition, string[]]>([
    [
      'a key whose anchor an alias refers to is deleted',
      file('name: x', 'description: &d y', 'data: *d', 'steps: []', 'triggers: []'),
      service('name: x', 'data: y', 'steps: []', 'triggers: []'),
      ['description'],
    ],
    [
      'a step whose anchor the next step merges is deleted',
      file(
        'name: x',
        'steps:',
        '  - &chat',
        '    name: one',
        '    template: { type: chat, content: a }',
        '  - <<: *chat',
        '    name: two',
        'triggers: []',
      ),
      service('name: x', 'steps: [{ name: two, template: { type: chat, content: a } }]', 'triggers: []'),
      ['steps[0]'],
    ],
    [
      'a value replaced whole held an anchor',
      file('name: x', 'data:', '  a: &a 1', 'description: *a', 'steps: []', 'triggers: []'),
      service('name: x', 'data: [1]', 'description: 1', 'steps: []', 'triggers: []'),
      ['data'],
    ],
  ])('%s: the fresh text, not a crash', (_what, text, pulled, changed) => {
    const alias = /\*(\w+)/.exec(text)![1];
    expect(merge(text, pulled)).toEqual({
      text: FRESH,
      changed,
      definition: pulled,
      rewritten: `*${alias} refers to an anchor the service's changes remove`,
    });
  });

  it('an edit that does not read back (a data key `<<` is read as a merge key): the fresh text', () => {
    const pulled = {
      name: 'x',
      data: { '<<': 'y' },
      steps: [],
      triggers: [],
    } as unknown as WorkflowDefinition;
    expect(merge(file('name: x', 'data: x', 'steps: []', 'triggers: []'), pulled)).toEqual({
      text: FRESH,
      changed: ['data'],
      definition: pulled,
      rewritten: 'the edited file did not read back as the service holds it',
    });
  });

  it('an anchor and its alias both kept: edited in place', () => {
    const text = file('name: x', 'description: &d y', 'data: *d', 'tags: [a]', 'steps: []', 'triggers: []');
    const result = mergeChecked(
      text,
      service('name: x', 'description: y', 'data: y', 'steps: []', 'triggers: []'),
    );
    expect(result.text).toBe(file('name: x', 'description: &d y', 'data: *d', 'steps: []', 'triggers: []'));
  });
});

describe('mergePulledDefinition: the group the file names', () => {
  const named = file('name: x', 'notificationGroupId: group:a', 'steps: []', 'triggers: []');
  const omitted = file('name: x', 'steps: []', 'triggers: []');
  const pulledNamed = service('name: x', 'notificationGroupId: group:b', 'steps: []', 'triggers: []');
  const pulledOmitted = service('name: x', 'steps: []', 'triggers: []');

  it.each<
    [string, string, WorkflowDefinition, { existingGroupId?: string; serviceGroupId?: string }, string]
  >([
    [
      'the file names the service group its own way',
      named,
      pulledNamed,
      { existingGroupId: 'g1', serviceGroupId: 'g1' },
      named,
    ],
    [
      'the file omits the service group',
      omitted,
      pulledNamed,
      { existingGroupId: 'g1', serviceGroupId: 'g1' },
      omitted,
    ],
    [
      'the file names the service group, pull would omit it',
      named,
      pulledOmitted,
      { existingGroupId: 'g1', serviceGroupId: 'g1' },
      named,
    ],
    [
      'another group on the service',
      named,
      pulledNamed,
      { existingGroupId: 'g1', serviceGroupId: 'g2' },
      named.replace('group:a', 'group:b'),
    ],
    [
      'another group on the service, pull omits it',
      named,
      pulledOmitted,
      { existingGroupId: 'g1', serviceGroupId: 'g2' },
      omitted,
    ],
    [
      'the file group does not resolve',
      named,
      pulledNamed,
      { serviceGroupId: 'g1' },
      named.replace('group:a', 'group:b'),
    ],
    ['neither resolves', named, pulledNamed, {}, named.replace('group:a', 'group:b')],
    [
      'the service group unknown',
      omitted,
      pulledNamed,
      { existingGroupId: 'g1' },
      file('name: x', 'notificationGroupId: group:b', 'steps: []', 'triggers: []'),
    ],
  ])('%s', (_what, text, pulled, ids, merged) => {
    expect(merge(text, pulled, ids).text).toBe(merged);
  });
});
