import { describe, expect, it } from 'vitest';
import { buildDefinitionFromRemote } from '../../../src/pull/convert.js';
import { mergePulledDefinition } from '../../../src/pull/merge.js';
import { bodyOf, exampleDefinitions, GROUPS, OTHER_GROUP_ID, storedFor } from '../plan/helpers.js';
import { edited, exampleText, FRESH, lineDiff, loose, mergeChecked, read } from './merge-helpers.js';

const SHIPPED = exampleText('order-shipped');
const shipped = read(SHIPPED);

describe('mergePulledDefinition: the examples', () => {
  it.each(exampleDefinitions().map((e) => [e.file, e] as const))(
    '%s, pulled back from what the service stores, is left byte for byte',
    (file, example) => {
      const text = exampleText(file.replace(/^workflows\/|\.yaml$/g, ''));
      const pulled = buildDefinitionFromRemote(storedFor(bodyOf(example.definition)), { groups: GROUPS });
      expect(mergeChecked(text, pulled, { sets: true, expected: example.definition })).toMatchObject({
        text,
        changed: [],
      });
    },
  );
});

describe('mergePulledDefinition: edits in place', () => {
  it('a changed step content changes that one line; comments, modeline and flow style stay', () => {
    const pulled = edited(shipped, (d) => {
      d.steps[1]!.template.content = 'Order {{orderNumber}} left the warehouse with {{carrier}}.';
    });
    const result = mergeChecked(SHIPPED, pulled);
    expect(result.changed).toEqual(['steps[1].template.content']);
    expect(lineDiff(SHIPPED, result.text)).toEqual({
      removed: ['      content: Order {{orderNumber}} has shipped with {{carrier}}.'],
      added: ['      content: Order {{orderNumber}} left the warehouse with {{carrier}}.'],
    });
    expect(result.text).toContain('      # The service does not scan a customHtml email');
    expect(result.text.startsWith('# yaml-language-server: $schema=../schemas/workflow.schema.json\n')).toBe(
      true,
    );
  });

  it('a tag added and one removed: the flow sequence stays on its line, unpadded as written', () => {
    const pulled = edited(shipped, (d) => {
      d.tags = ['orders', 'urgent'];
    });
    const result = mergeChecked(SHIPPED, pulled);
    expect(result.changed).toEqual(['tags']);
    expect(lineDiff(SHIPPED, result.text)).toEqual({
      removed: ['tags: [orders, transactional]'],
      added: ['tags: [orders, urgent]'],
    });
  });

  it('block-style tags: only the removed and added items change, item comments stay', () => {
    const text =
      'name: x\ntags:\n  # the team\n  - billing\n  - legacy # going away\n  - lifecycle\nsteps: []\ntriggers: []\n';
    const result = mergeChecked(text, { ...read(text), tags: ['billing', 'lifecycle', 'vip'] });
    expect(result.changed).toEqual(['tags']);
    expect(lineDiff(text, result.text)).toEqual({
      removed: ['  - legacy # going away'],
      added: ['  - vip'],
    });
    expect(result.text).toContain('  # the team\n  - billing\n');
  });

  it('a field the service no longer has is deleted, and only its line', () => {
    const pulled = edited(shipped, (d) => {
      delete d.description;
    });
    const result = mergeChecked(SHIPPED, pulled);
    expect(result.changed).toEqual(['description']);
    expect(lineDiff(SHIPPED, result.text)).toEqual({
      removed: ['description: Tells the customer their order is on its way, by email and in the app.'],
      added: [],
    });
  });

  it('a new step is appended after the others in block style; nothing else moves', () => {
    const pulled = edited(shipped, (d) => {
      d.steps.push({ name: 'sms', template: { type: 'sms', content: 'Shipped: {{orderNumber}}' } });
    });
    const result = mergeChecked(SHIPPED, pulled);
    expect(result.changed).toEqual(['steps[2]']);
    expect(lineDiff(SHIPPED, result.text)).toEqual({
      removed: [],
      added: [
        '  - name: sms',
        '    template:',
        '      type: sms',
        '      content: "Shipped: {{orderNumber}}"',
      ],
    });
    expect(result.text).toContain('          url: /orders/{{orderNumber}}/tracking\n  - name: sms\n');
  });

  it('steps set apart by blank lines: a new one is too', () => {
    const text = [
      'name: x',
      'steps:',
      '  - template: { type: chat, content: a }',
      '',
      '  - template: { type: chat, content: b }',
      'triggers: []',
      '',
    ].join('\n');
    const pulled = edited(read(text), (d) => {
      d.steps.push({ template: { type: 'chat', content: 'c' } });
    });
    expect(mergeChecked(text, pulled).text).toBe(
      text.replace('triggers', '\n  - template:\n      type: chat\n      content: c\ntriggers'),
    );
  });

  it('a step removed in the middle is deleted whole; the steps after it are not rewritten', () => {
    const text = exampleText('invoice-overdue');
    const pulled = edited(read(text), (d) => {
      d.steps.splice(1, 1);
    });
    const result = mergeChecked(text, pulled);
    expect(result.changed).toEqual(['steps[1]']);
    const { removed, added } = lineDiff(text, result.text);
    expect(added).toEqual([]);
    expect(removed[0]).toBe('  - name: final reminder sms');
    expect(removed).toHaveLength(13);
  });

  it('trigger variables are a set: the file order stays, new ones are appended in its flow style', () => {
    const pulled = edited(shipped, (d) => {
      const variables = d.triggers[0]!.variables!;
      variables.reverse();
      variables.splice(
        variables.findIndex((v) => v.name === 'carrier'),
        1,
      );
      variables.push({ name: 'eta', type: 'String' });
    });
    const result = mergeChecked(SHIPPED, pulled, { sets: true });
    expect(result.changed).toEqual(['triggers[0].variables']);
    expect(lineDiff(SHIPPED, result.text)).toEqual({
      removed: ['      - { name: carrier, type: String }'],
      added: ['      - { name: eta, type: String }'],
    });
    expect(read(result.text).triggers[0]!.variables!.map((v) => v.name)).toEqual([
      'orderNumber',
      'items',
      'items.quantity',
      'items.name',
      'trackingUrl',
      'eta',
    ]);
  });

  it('template variables are matched by name: a changed field edits its own line', () => {
    const text = [
      'name: x',
      'steps:',
      '  - template:',
      '      type: in_app',
      '      content: "{{a}} {{b}}"',
      '      variables:',
      '        - { name: a, required: true }',
      '        - { name: b, defaultValue: "-" } # shown when absent',
      'triggers: []',
      '',
    ].join('\n');
    const pulled = edited(read(text), (d) => {
      d.steps[0]!.template.variables = [
        { name: 'b', defaultValue: 'n/a' },
        { name: 'a', required: true },
      ];
    });
    const result = mergeChecked(text, pulled, { sets: true });
    expect(result.changed).toEqual(['steps[0].template.variables']);
    expect(lineDiff(text, result.text)).toEqual({
      removed: ['        - { name: b, defaultValue: "-" } # shown when absent'],
      added: ['        - { name: b, defaultValue: "n/a" } # shown when absent'],
    });
  });

  it('new keys go where the schema puts them', () => {
    const text = 'name: x\nactive: true\nsteps: []\ntriggers: []\n';
    const pulled = { ...read(text), description: 'd', critical: true, tags: ['t'] };
    const result = mergeChecked(text, pulled);
    expect(result.changed).toEqual(['description', 'tags', 'critical']);
    expect(result.text).toBe(
      'name: x\ndescription: d\ntags:\n  - t\nactive: true\ncritical: true\nsteps: []\ntriggers: []\n',
    );
  });

  it('text that needs quoting or several lines after the change is written so it reads back', () => {
    const text =
      'name: x\ndescription: plain\nsteps:\n  - template: { type: chat, content: hi }\ntriggers: []\n';
    for (const value of ['true', 'a: b', '#hash', ' padded ', '123', 'null', "it's", '- dash']) {
      mergeChecked(text, { ...read(text), description: value });
    }
    const pulled = edited(read(text), (d) => {
      d.description = 'one\ntwo\n';
      d.steps[0]!.template.content = 'line 1\nline 2';
    });
    const result = mergeChecked(text, pulled);
    expect(result.text).toContain('description: |\n  one\n  two\n');
  });

  it('fields that say what the service assumes anyway are kept as written', () => {
    const text =
      'name: x\ncritical: false\nsteps:\n  - active: true\n    filters: []\n    template: { type: chat, content: a }\ntriggers: []\n';
    const pulled = edited(read(text), (d) => {
      delete d.critical;
      delete d.steps[0]!.active;
      delete d.steps[0]!.filters;
    });
    const result = mergePulledDefinition(text, pulled, { freshText: FRESH });
    expect(result).toMatchObject({ text, changed: [] });
  });
});

describe('mergePulledDefinition: the notification group', () => {
  const text = 'name: x\nnotificationGroupId: group:transactional # ours\nsteps: []\ntriggers: []\n';

  it('a group reference that resolves to the service group stays, even where pull would leave it out', () => {
    const pulled = loose({ name: 'x', steps: [], triggers: [] });
    const ids = { existingGroupId: OTHER_GROUP_ID, serviceGroupId: OTHER_GROUP_ID };
    const result = mergeChecked(text, pulled, { ...ids, expected: read(text) });
    expect(result).toMatchObject({ text, changed: [] });
  });

  it('a group the service moved the workflow to replaces the reference', () => {
    const pulled = loose({
      name: 'x',
      notificationGroupId: 'cccccccccccccccccccccccc',
      steps: [],
      triggers: [],
    });
    const ids = { existingGroupId: OTHER_GROUP_ID, serviceGroupId: 'cccccccccccccccccccccccc' };
    const result = mergeChecked(text, pulled, ids);
    expect(result.changed).toEqual(['notificationGroupId']);
    expect(lineDiff(text, result.text).added).toEqual([
      'notificationGroupId: cccccccccccccccccccccccc # ours',
    ]);
  });

  it('without the resolved ids the pulled reference wins', () => {
    const result = mergeChecked(text, loose({ name: 'x', steps: [], triggers: [] }));
    expect(result.changed).toEqual(['notificationGroupId']);
  });
});

describe('mergePulledDefinition: file styles', () => {
  it('CRLF line ends and a BOM are kept', () => {
    const text = '\uFEFFname: x\r\n# note\r\ndescription: a\r\nsteps: []\r\ntriggers: []\r\n';
    const result = mergePulledDefinition(text, { ...read(text), description: 'b' }, { freshText: FRESH });
    expect(result.text).toBe('\uFEFFname: x\r\n# note\r\ndescription: b\r\nsteps: []\r\ntriggers: []\r\n');
  });

  it('dashes level with their key and unpadded braces are followed by new lines too', () => {
    const text = [
      'name: x',
      'steps:',
      '- name: one',
      '  template:',
      '    type: chat',
      '    content: a',
      'triggers:',
      '- type: event',
      '  identifier: x',
      '  variables:',
      '  - {name: a, type: String}',
      '',
    ].join('\n');
    const pulled = edited(read(text), (d) => {
      d.steps.push({ name: 'two', template: { type: 'chat', content: 'b' } });
      d.triggers[0]!.variables!.push({ name: 'b', type: 'String' });
    });
    const result = mergeChecked(text, pulled);
    expect(lineDiff(text, result.text)).toEqual({
      removed: [],
      added: [
        '- name: two',
        '  template:',
        '    type: chat',
        '    content: b',
        '  - {name: b, type: String}',
      ],
    });
  });

  it('4-space indents are followed by new lines', () => {
    const text = [
      'name: x',
      'preferenceSettings:',
      '    sms: false',
      'steps:',
      '    - name: one',
      '      template:',
      '          type: chat',
      '          content: a',
      'triggers: []',
      '',
    ].join('\n');
    const pulled = edited(read(text), (d) => {
      d.preferenceSettings = { sms: false, chat: false };
      d.steps[0]!.template.cta = { type: 'redirect', data: { url: '/x' } };
    });
    const result = mergeChecked(text, pulled);
    expect(result.changed).toEqual(['preferenceSettings.chat', 'steps[0].template.cta']);
    expect(lineDiff(text, result.text)).toEqual({
      removed: [],
      added: [
        '    chat: false',
        '          cta:',
        '              type: redirect',
        '              data:',
        '                  url: /x',
      ],
    });
  });

  it('the modeline stays on top when a key is inserted before all others', () => {
    const text = '# yaml-language-server: $schema=x.json\ndescription: d\nsteps: []\ntriggers: []\n';
    const result = mergeChecked(text, { ...read(text), name: 'x' });
    expect(result.text).toBe(
      '# yaml-language-server: $schema=x.json\nname: x\ndescription: d\nsteps: []\ntriggers: []\n',
    );
  });

  it('a step that merges shared defaults (<<) is written out whole when it changes; the others keep theirs', () => {
    const text = [
      'name: x',
      'steps:',
      '  - &chat',
      '    name: one',
      '    template: { type: chat, content: a }',
      '  - <<: *chat',
      '    name: two',
      'triggers: []',
      '',
    ].join('\n');
    const pulled = edited(read(text), (d) => {
      d.steps[1]!.template.content = 'b';
    });
    const result = mergeChecked(text, pulled);
    expect(result.changed).toEqual(['steps[1]']);
    expect(result.text).toContain('  - &chat\n    name: one\n');
  });
});

describe('mergePulledDefinition: when it cannot edit in place', () => {
  it.each([
    ['the file does not parse', 'name: [x\n', 'the file does not read as a YAML mapping'],
    ['the file is not a mapping', '- x\n', 'the file does not read as a YAML mapping'],
    ['a key repeats', 'name: x\nname: y\nsteps: []\ntriggers: []\n', 'the file repeats a key'],
    [
      'an anchored value changes under its aliases',
      'name: &n x\ndescription: *n\nsteps: []\ntriggers: []\n',
      'name is an anchor (&n) whose value changed',
    ],
  ])('%s: the fresh text, and why', (_what, text, reason) => {
    const pulled = loose({ name: 'y', description: 'x', steps: [], triggers: [] });
    expect(mergePulledDefinition(text, pulled, { freshText: FRESH })).toMatchObject({
      text: FRESH,
      rewritten: reason,
    });
  });
});
