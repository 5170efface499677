import { chmod, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { includesOf } from '../../../src/definitions/include-references.js';
import { readDefinitionIncludes } from '../../../src/definitions/includes.js';
import { readDefinition } from '../../../src/definitions/read.js';
import type { Diagnostic } from '../../../src/diagnostic.js';
import { createFsBoundary } from '../../../src/fs-boundary.js';
import { readDefinitions } from '../../helpers/read-definitions.js';
import { parseText, useTempDir } from './helpers.js';
import { emailWithContent, readWorkflows, useIncludesProject, write } from './includes-helpers.js';

const project = useIncludesProject();
const tempDir = useTempDir();

/** `code@line:column-endColumn pointer`: where a diagnostic points, compactly. */
function at(d: Diagnostic): string {
  return `${d.code}@${d.line}:${d.column}-${d.endColumn} ${d.pointer}`;
}

/** A project (config at its root) holding workflows/welcome.yaml with the given content reference, and files. */
async function welcome(reference: string, files: Record<string, string | Uint8Array> = {}): Promise<string> {
  const cwd = await tempDir();
  await write(cwd, {
    'wfsync.config.yaml': 'workflowsDir: workflows\n',
    'workflows/welcome.yaml': emailWithContent(reference),
    ...files,
  });
  return cwd;
}

// Line 7 of emailWithContent is `      content: { file: <path> }`: the path starts at column 24.
const PATH_COLUMN = 24;
const POINTER = '/steps/0/template/content/file';
const CONTENT_0 = '/steps/0/template/content';

describe('resolving file references', () => {
  it('puts the text of each file in the value (content, subject), paths relative to the definition', async () => {
    const cwd = await project();
    const read = await readWorkflows(cwd);
    expect(read.diagnostics).toEqual([]);
    const [definition] = read.definitions;
    const html = await readFile(path.join(cwd, 'workflows/emails/order-shipped.html'), 'utf8');
    const template = (definition!.value as { steps: Array<{ template: Record<string, unknown> }> }).steps[0]!
      .template;
    // One final line break is dropped: the subject line would otherwise end with it.
    expect(template.subject).toBe('Your order {{orderNumber}} has shipped');
    expect(template.content).toBe(html.slice(0, -1));
    expect(includesOf(definition!).map((i) => [i.pointer, i.path, i.file])).toEqual([
      ['/steps/0/template/content', './emails/order-shipped.html', 'workflows/emails/order-shipped.html'],
      [
        '/steps/0/template/subject',
        './emails/order-shipped.subject.txt',
        'workflows/emails/order-shipped.subject.txt',
      ],
    ]);
    expect(includesOf(definition!)[0]!.absolute).toBe(path.join(cwd, 'workflows/emails/order-shipped.html'));
    // The text and positions stay the definition's own: reports frame the reference.
    expect(definition!.text).toBe(await readFile(path.join(cwd, 'workflows/order-shipped.yaml'), 'utf8'));
    expect(definition!.locate('/steps/0/template/content')).toMatchObject({ line: 11, column: 16 });
  });

  it('reads CRLF as LF, drops a BOM and one final line break, and remembers how the file was written', async () => {
    const cwd = await welcome('{ file: ./welcome.html }', {
      'workflows/welcome.html': '\uFEFF<p>Hi</p>\r\n<p>there</p>\r\n\r\n',
    });
    const [definition] = (await readWorkflows(cwd)).definitions;
    const content = (definition!.value as { steps: [{ template: { content: string } }] }).steps[0].template
      .content;
    expect(content).toBe('<p>Hi</p>\n<p>there</p>\n');
    expect(includesOf(definition!)[0]!.style).toEqual({ bom: true, crlf: true });
  });

  it('resolves variants (at any depth), subject and title; a path may climb inside the project', async () => {
    const cwd = await tempDir();
    await write(cwd, {
      '.git/HEAD': 'ref: refs/heads/main\n',
      'shared/title.txt': 'Heads up',
      'workflows/push/alert.yaml': [
        'name: alert',
        'steps:',
        '  - template: { type: push, title: { file: ../../shared/title.txt }, content: Now }',
        '    variants:',
        '      - template: { type: push, title: Plain, content: { file: body.txt } }',
        '        variants:',
        '          - template: { type: push, title: T, content: { file: ./body.txt } }',
        'triggers: [{ type: event, identifier: alert }]',
        '',
      ].join('\n'),
      'workflows/push/body.txt': 'Body\n',
    });
    const read = await readWorkflows(cwd);
    expect(read.diagnostics).toEqual([]);
    const [definition] = read.definitions;
    expect(includesOf(definition!).map((i) => `${i.pointer} ${i.file}`)).toEqual([
      '/steps/0/template/title shared/title.txt',
      '/steps/0/variants/0/template/content workflows/push/body.txt',
      '/steps/0/variants/0/variants/0/template/content workflows/push/body.txt',
    ]);
    expect(definition!.value).toMatchObject({
      steps: [
        {
          template: { title: 'Heads up', content: 'Now' },
          variants: [{ template: { content: 'Body' }, variants: [{ template: { content: 'Body' } }] }],
        },
      ],
    });
  });

  it('a reference shared through a YAML alias is resolved at both places; a broken one is reported at both', async () => {
    const cwd = await tempDir();
    const text = (file: string) =>
      [
        'name: two',
        'steps:',
        `  - template: &mail { type: email, subject: Hi, content: { file: ${file} } }`,
        '  - template: *mail',
        'triggers: [{ type: event, identifier: two }]',
        '',
      ].join('\n');
    await write(cwd, { '.git/HEAD': '', 'workflows/two.yaml': text('./a.html'), 'workflows/a.html': 'A\n' });
    const [definition] = (await readWorkflows(cwd)).definitions;
    expect(definition!.value).toMatchObject({
      steps: [{ template: { content: 'A' } }, { template: { content: 'A' } }],
    });
    expect(includesOf(definition!).map((i) => i.pointer)).toEqual([CONTENT_0, '/steps/1/template/content']);

    await writeFile(path.join(cwd, 'workflows/two.yaml'), text('./b.html'));
    const read = await readWorkflows(cwd);
    expect(read.diagnostics.map(at)).toEqual([
      `include-not-found@3:66-74 ${CONTENT_0}/file`,
      'include-not-found@4:15-20 /steps/1/template/content/file',
    ]);
  });

  it('leaves a definition without references untouched: the same result, nothing read', () => {
    const parsed = parseText(emailWithContent('Hello {{name}}'));
    const resolved = readDefinitionIncludes(parsed, { definitionPath: '/nonexistent/dir/welcome.yaml' });
    expect(resolved).toBe(parsed);
  });

  it('leaves things shaped almost like a reference to the schema (no file is read)', () => {
    for (const reference of [
      '{ file: 5 }',
      '{ fiel: ./x.html }',
      '{ file: ./x.html, extra: 1 }',
      '{ file: "" }',
    ]) {
      const parsed = parseText(emailWithContent(reference));
      expect(readDefinitionIncludes(parsed, { definitionPath: '/nonexistent/welcome.yaml' })).toBe(parsed);
    }
  });
});

describe('a reference that cannot be resolved', () => {
  it('include-not-found at the path, with a did-you-mean; the definition is dropped, its text kept for frames', async () => {
    const cwd = await welcome('{ file: ./welcom.html }', { 'workflows/welcome.html': '<p>Hi</p>' });
    const read = await readWorkflows(cwd);
    expect(read.definitions).toEqual([]);
    expect(read.diagnostics.map(at)).toEqual([
      `include-not-found@7:${PATH_COLUMN}-${PATH_COLUMN + 13} ${POINTER}`,
    ]);
    expect(read.diagnostics[0]).toMatchObject({
      severity: 'error',
      file: 'workflows/welcome.yaml',
      message:
        'steps[0].template.content: workflows/welcom.html does not exist (did you mean "./welcome.html"?)',
    });
    expect(read.sources.get('workflows/welcome.yaml')).toContain('{ file: ./welcom.html }');
  });

  it('include-not-found through a missing directory, without a suggestion when nothing is close', async () => {
    const cwd = await welcome('{ file: ./mails/welcome.html }');
    const [diagnostic] = (await readWorkflows(cwd)).diagnostics;
    expect(diagnostic?.message).toBe(
      'steps[0].template.content: workflows/mails/welcome.html does not exist',
    );
  });

  it('include-path-invalid: absolute, home-relative, backslashes, a directory name', async () => {
    const cases: Array<[string, string]> = [
      ['/etc/passwd', '"/etc/passwd" is an absolute path'],
      ['~/notes.txt', '"~/notes.txt" starts with "~", which is not expanded'],
      ['C:/mail.html', '"C:/mail.html" is an absolute path'],
      ['".\\\\mail.html"', '".\\mail.html" uses "\\": separate directories with "/"'],
      ['./', '"./" names a directory, not a file'],
    ];
    for (const [written, message] of cases) {
      const cwd = await welcome(`{ file: ${written} }`);
      const diagnostics = (await readWorkflows(cwd)).diagnostics;
      expect(
        diagnostics.map((d) => `${d.code}@${d.line}:${d.column}`),
        written,
      ).toEqual([`include-path-invalid@7:${PATH_COLUMN}`]);
      expect(diagnostics[0]!.message, written).toContain(`steps[0].template.content: ${message}`);
    }
  });

  it('include-outside-project: a path climbing out of the project, and a symbolic link leading out', async () => {
    const outside = await tempDir();
    await writeFile(path.join(outside, 'secret.txt'), 'password=hunter2');
    const cwd = await welcome('{ file: ../../secret.txt }', {});
    const [climb] = (await readWorkflows(cwd)).diagnostics;
    expect(climb && at(climb)).toBe(
      `include-outside-project@7:${PATH_COLUMN}-${PATH_COLUMN + 16} ${POINTER}`,
    );
    expect(climb?.message).toBe(
      'steps[0].template.content: "../../secret.txt" leads outside the project (the directory of ' +
        'wfsync.config.yaml): keep included files inside it',
    );

    const linked = await welcome('{ file: ./linked.txt }');
    await symlink(path.join(outside, 'secret.txt'), path.join(linked, 'workflows/linked.txt'));
    const [link] = (await readWorkflows(linked)).diagnostics;
    expect(link?.code).toBe('include-outside-project');
    expect(link?.message).toContain('"./linked.txt" is a symbolic link that leads outside the project');
    expect(JSON.stringify(link)).not.toContain('hunter2');
  });

  it('without a config or .git above it, the working directory is the project', async () => {
    const cwd = await tempDir();
    await write(cwd, {
      'a/shared.txt': 'x',
      'a/b/welcome.yaml': emailWithContent('{ file: ../shared.txt }'),
      'a/b/c/away.yaml': emailWithContent('{ file: ../../../../away.txt }'),
    });
    const [diagnostic, ...others] = (await readDefinitions([], { cwd, defaultDir: 'a/b' })).diagnostics;
    expect(others).toEqual([]);
    expect(diagnostic?.file).toBe('a/b/c/away.yaml');
    expect(diagnostic?.message).toContain(
      'outside the working directory (no wfsync.config.yaml or .git above it)',
    );
  });

  it('include-too-large: over the same cap as a definition file', async () => {
    const cwd = await welcome('{ file: ./big.html }', { 'workflows/big.html': 'x'.repeat(2048) });
    const read = await readWorkflows(cwd, 1024);
    expect(read.diagnostics.map(at)).toEqual([
      `include-too-large@7:${PATH_COLUMN}-${PATH_COLUMN + 10} ${POINTER}`,
    ]);
    expect(read.diagnostics[0]!.message).toBe(
      'steps[0].template.content: workflows/big.html is 2 KiB (2048 bytes), over the 1 KiB limit for an included file',
    );
  });

  it('include-encoding: names the first bad byte by line and column of the included file', async () => {
    const latin1 = new Uint8Array([
      ...new TextEncoder().encode('<p>Hi</p>\n<p>Caf'),
      0xe9,
      0x3c,
      0x2f,
      0x70,
      0x3e,
    ]);
    const cwd = await welcome('{ file: ./latin1.html }', {
      'workflows/latin1.html': latin1,
      'workflows/utf16.txt': new Uint8Array([0xff, 0xfe, 0x48, 0x00]),
    });
    const [diagnostic] = (await readWorkflows(cwd)).diagnostics;
    expect(diagnostic && at(diagnostic)).toBe(
      `include-encoding@7:${PATH_COLUMN}-${PATH_COLUMN + 13} ${POINTER}`,
    );
    expect(diagnostic?.message).toBe(
      'steps[0].template.content: workflows/latin1.html is not valid UTF-8 (byte 0xE9 at line 2, column 7); save it as UTF-8',
    );
    await writeFile(path.join(cwd, 'workflows/welcome.yaml'), emailWithContent('{ file: ./utf16.txt }'));
    const [utf16] = (await readWorkflows(cwd)).diagnostics;
    expect(utf16?.message).toBe(
      'steps[0].template.content: workflows/utf16.txt is UTF-16 encoded; save it as UTF-8',
    );
  });

  it('include-unreadable: a directory, a file without read permission', async () => {
    const cwd = await welcome('{ file: ./emails }');
    await mkdir(path.join(cwd, 'workflows/emails'));
    const [directory] = (await readWorkflows(cwd)).diagnostics;
    expect(directory && at(directory)).toBe(
      `include-unreadable@7:${PATH_COLUMN}-${PATH_COLUMN + 8} ${POINTER}`,
    );
    expect(directory?.message).toBe(
      'steps[0].template.content: cannot read workflows/emails: it is a directory',
    );

    if (process.getuid?.() === 0) return; // root reads whatever the mode says
    await writeFile(path.join(cwd, 'workflows/locked.html'), '<p>Hi</p>');
    await chmod(path.join(cwd, 'workflows/locked.html'), 0o000);
    await writeFile(path.join(cwd, 'workflows/welcome.yaml'), emailWithContent('{ file: ./locked.html }'));
    const [locked] = (await readWorkflows(cwd)).diagnostics;
    expect(locked?.message).toBe(
      'steps[0].template.content: cannot read workflows/locked.html: permission denied (EACCES)',
    );
  });

  it('reports every bad reference of a file, each at its own position (sorted), without a definition', async () => {
    const cwd = await tempDir();
    await write(cwd, {
      'wfsync.config.yaml': '',
      'workflows/two.yaml': [
        'name: two',
        'steps:',
        '  - template:',
        '      type: email',
        '      subject:',
        '        file: ./nope.txt',
        '      content: { file: /abs.html }',
        'triggers: [{ type: event, identifier: two }]',
        '',
      ].join('\n'),
    });
    const read = readDefinition({
      absolute: path.join(cwd, 'workflows/two.yaml'),
      file: 'workflows/two.yaml',
      limits: { maxBytes: 1024, maxDepth: 64, maxAliasCount: 100 },
      boundary: createFsBoundary(cwd),
    });
    expect(read.definition).toBeUndefined();
    expect(read.diagnostics.map(at)).toEqual([
      'include-not-found@6:15-25 /steps/0/template/subject/file',
      'include-path-invalid@7:24-33 /steps/0/template/content/file',
    ]);
  });
});
