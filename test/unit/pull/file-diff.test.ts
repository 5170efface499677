import { describe, expect, it } from 'vitest';
import type { DefinitionWithIncludes } from '../../../src/definitions/include-references.js';
import { buildFileDiff, withFileDiff } from '../../../src/pull/file-diff.js';
import { GROUPS, OTHER_GROUP_ID } from '../plan/helpers.js';
import { compared, fileLines, hunksOf, loaded } from './file-diff-helpers.js';

const FILE = 'workflows/welcome.yaml';

const TEXT = `# yaml-language-server: $schema=../schemas/workflow.schema.json
name: welcome
# Shown in the dashboard.
description: Says hello.
tags: [onboarding, email]   # flow style stays
critical: false
steps:
  - name: Send email
    template:
      type: email
      subject: "Welcome, {{name}}"   # quoted on purpose
      content: |
        <p>Hello {{name}}</p>
        <p>Glad you came.</p>
triggers:
  - type: event
    identifier: welcome
`;

function diffOf(text: string, service: Parameters<typeof compared>[1]) {
  const definition = loaded(FILE, text);
  const { changes, serviceName } = compared(definition, service);
  expect(changes.length).toBeGreaterThan(0);
  return { built: buildFileDiff({ definition, changes, serviceName, groups: GROUPS }), changes, definition };
}

/** Every hunk's file side (context and `+` lines) is the file's own lines at the numbers the header gives. */
function expectOnFileLines(diff: string, text: string): void {
  const lines = fileLines(text);
  const hunks = hunksOf(diff);
  expect(hunks.length).toBeGreaterThan(0);
  for (const hunk of hunks) {
    expect(hunk.fileSide.length).toBe(hunk.newLines);
    for (const { line, text: shown } of hunk.fileSide) expect(shown).toBe(lines[line - 1]);
  }
}

describe('buildFileDiff', () => {
  it('a changed subject: one hunk on the subject line, comments and quoting kept around it', () => {
    const { built } = diffOf(TEXT, (def) => {
      (def.steps[0] as { template: { subject: string } }).template.subject = 'Hi, {{name}}';
    });
    expect(built).toEqual({
      kind: 'file',
      line: 11,
      endLine: 11,
      diff: [
        '--- service: welcome',
        `+++ ${FILE}`,
        '@@ -8,7 +8,7 @@',
        '   - name: Send email',
        '     template:',
        '       type: email',
        '-      subject: "Hi, {{name}}" # quoted on purpose',
        '+      subject: "Welcome, {{name}}"   # quoted on purpose',
        '       content: |',
        '         <p>Hello {{name}}</p>',
        '         <p>Glad you came.</p>',
        '',
      ].join('\n'),
    });
  });

  it('a flow list edited in place; a field only the service sets is added where the schema puts it', () => {
    const { built } = diffOf(TEXT, (def) => {
      def.tags = ['onboarding', 'mail'];
      def.active = true;
    });
    expect(built.kind).toBe('file');
    if (built.kind !== 'file') return;
    expect(built.diff).toContain(
      '-tags: [onboarding, mail] # flow style stays\n-active: true\n+tags: [onboarding, email]   # flow style stays\n',
    );
    expect(built.line).toBe(5);
    expectOnFileLines(built.diff, TEXT);
  });

  it('CRLF and a BOM: the lines are the file lines, numbered from the first line after the BOM', () => {
    const text = `\uFEFF${TEXT.replace(/\n/g, '\r\n')}`;
    const { built } = diffOf(text, (def) => {
      def.critical = true;
    });
    expect(built.kind).toBe('file');
    if (built.kind !== 'file') return;
    expect(built.diff).not.toContain('\r');
    expect(built.diff).not.toContain('\uFEFF');
    expect(built.diff).toContain('@@ -3,7 +3,7 @@\n');
    expect(built.diff).toContain('-critical: true\n+critical: false\n');
    expect(built.line).toBe(6);
    expectOnFileLines(built.diff, text);
  });

  it('a step only the service has: the hunk takes lines away and points at where they would stand', () => {
    const { built } = diffOf(TEXT, (def) => {
      def.steps.push({ name: 'Nudge', template: { type: 'in_app', content: 'Hi {{name}}' } } as never);
    });
    expect(built.kind).toBe('file');
    if (built.kind !== 'file') return;
    expect(built.diff).toMatch(/^- {2}- name: Nudge$/m);
    expect(built.diff).not.toMatch(/^\+(?!\+\+ )/m);
    expect(built.line).toBe(15);
    expectOnFileLines(built.diff, TEXT);
  });

  it('a group the service holds under another id is written as the config names it', () => {
    const { built } = diffOf(TEXT, (def) => {
      def.notificationGroupId = `group:transactional`;
    });
    expect(built.kind).toBe('file');
    if (built.kind !== 'file') return;
    expect(built.diff).toContain('-notificationGroupId: group:transactional\n');
    expect(OTHER_GROUP_ID).toBe(GROUPS.named.transactional);
  });

  it('a file without a final line break keeps its last line as it is', () => {
    const text = `${TEXT.replace('critical: false\n', '').trimEnd()}\ncritical: false`;
    const { built } = diffOf(text, (def) => {
      def.critical = true;
    });
    expect(built.kind).toBe('file');
    if (built.kind !== 'file') return;
    expect(built.diff).toMatch(/^\+critical: false\n\\ No newline at end of file\n$/m);
    expect(built.line).toBe(17);
    expectOnFileLines(built.diff, text);
  });

  it('a change in an included file: the projection diff stays', () => {
    const definition = loaded(
      FILE,
      TEXT.replace(/content: \|\n.*\n.*\n/, 'content: { file: ./welcome.html }\n'),
    );
    const html = '<p>Hello {{name}}</p>';
    const withInclude: DefinitionWithIncludes = {
      ...definition,
      value: {
        ...(definition.value as object),
        steps: [
          { name: 'Send email', template: { type: 'email', subject: 'Welcome, {{name}}', content: html } },
        ],
      },
      includes: [
        {
          pointer: '/steps/0/template/content',
          path: './welcome.html',
          absolute: '/w/welcome.html',
          file: 'workflows/welcome.html',
          text: html,
          style: { bom: false, crlf: false },
        },
      ],
    };
    const { changes, serviceName } = compared(withInclude, (def) => {
      (def.steps[0] as { template: { content: string } }).template.content = '<p>Bye</p>';
    });
    expect(buildFileDiff({ definition: withInclude, changes, serviceName, groups: GROUPS })).toEqual({
      kind: 'projection',
      reason: 'steps[0].template.content is kept in an included file',
    });
    // A change beside it is on the file's lines, the reference untouched.
    const beside = compared(withInclude, (def) => {
      (def.steps[0] as { template: { subject: string } }).template.subject = 'Hi';
    });
    const built = buildFileDiff({ definition: withInclude, ...beside, groups: GROUPS });
    expect(built.kind).toBe('file');
    if (built.kind === 'file') expect(built.diff).toContain('content: { file: ./welcome.html }');
  });

  it('a file the merge cannot edit in place (an anchor whose value changed): the projection diff stays', () => {
    const text = `${TEXT.replace('tags: [onboarding, email]   # flow style stays', 'tags: &t [onboarding, email]')}`;
    const { built } = diffOf(text, (def) => {
      def.tags = ['x'];
    });
    expect(built).toMatchObject({ kind: 'projection' });
    if (built.kind === 'projection') expect(built.reason).toMatch(/cannot be edited in place.*anchor/);
  });

  it('a lone carriage return: no claim on line numbers that editors count differently', () => {
    const text = TEXT.replace('# Shown in the dashboard.', '# Shown in\rthe dashboard.');
    const { built } = diffOf(text, (def) => {
      def.critical = true;
    });
    expect(built).toEqual({
      kind: 'projection',
      reason: 'the file has a carriage return without a line feed',
    });
  });
});

describe('withFileDiff', () => {
  const item = (definition: ReturnType<typeof loaded>, changes: ReturnType<typeof compared>['changes']) => ({
    identifier: 'welcome',
    action: 'drifted' as const,
    attribution: 'state' as const,
    file: FILE,
    name: 'welcome',
    changes,
    diff: '--- service: welcome\n+++ workflows/welcome.yaml\n@@ -1 +1 @@\n-a\n+b\n',
    next: 'pull it',
    _definition: definition,
  });

  it('replaces the diff and says where the first change is', () => {
    const definition = loaded(FILE, TEXT);
    const { changes } = compared(definition, (def) => {
      def.description = 'Hi.';
    });
    const { _definition, ...planned } = item(definition, changes);
    expect(withFileDiff(planned, definition, GROUPS)).toMatchObject({
      diffKind: 'file',
      line: 4,
      endLine: 4,
      diff: expect.stringContaining('-description: Hi.\n+description: Says hello.\n'),
    });
  });

  it('a fallback keeps the projection diff, marked, with the line located in the file', () => {
    const definition = loaded(
      FILE,
      TEXT.replace('tags: [onboarding, email]   # flow style stays', 'tags: &t [a]'),
    );
    const { changes } = compared(definition, (def) => {
      def.tags = ['x'];
    });
    const { _definition, ...planned } = item(definition, changes);
    expect(withFileDiff(planned, definition, GROUPS)).toEqual({
      ...planned,
      diffKind: 'projection',
      line: 5,
      endLine: 5,
    });
  });

  it('leaves items without a diff alone', () => {
    const definition = loaded(FILE, TEXT);
    const { _definition, ...planned } = item(definition, []);
    const noDiff = { ...planned, diff: undefined };
    expect(withFileDiff(noDiff, definition, GROUPS)).toBe(noDiff);
  });
});
