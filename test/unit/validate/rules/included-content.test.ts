import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { includesOf } from '../../../../src/definitions/include-references.js';
import { includedTextsFor } from '../../../../src/definitions/includes.js';
import type { LoadedDefinition } from '../../../../src/definitions/types.js';
import type { Diagnostic } from '../../../../src/diagnostic.js';
import { readDefinitions } from '../../../helpers/read-definitions.js';
import { validation } from '../../../helpers/rules.js';

/**
 * Rules on template text kept in files of their own (`content: {file: …}`), loaded by the real loader from real
 * files: a finding inside the text names the included file, at the line and column an editor shows for it.
 */

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function validate(files: Record<string, string>): Promise<{
  diagnostics: Diagnostic[];
  definitions: LoadedDefinition[];
}> {
  const cwd = mkdtempSync(path.join(tmpdir(), 'wfsync-included-'));
  made.push(cwd);
  for (const [file, content] of Object.entries({
    'wfsync.config.yaml': 'workflowsDir: workflows\n',
    ...files,
  })) {
    mkdirSync(path.dirname(path.join(cwd, file)), { recursive: true });
    writeFileSync(path.join(cwd, file), content);
  }
  const read = await readDefinitions([], { cwd, defaultDir: 'workflows' });
  expect(read.diagnostics).toEqual([]);
  return {
    diagnostics: validation({ definitions: read.definitions, options: {} }),
    definitions: read.definitions,
  };
}

/** An email workflow whose subject and content are the given YAML values; `orderId` is declared. */
function email(subject: string, content: string, identifier = 'order-shipped'): string {
  return [
    `name: ${identifier.replace('-', ' ')}`,
    'steps:',
    '  - name: email',
    '    template:',
    '      type: email',
    `      subject: ${subject}`,
    `      content: ${content}`,
    'triggers:',
    '  - type: event',
    `    identifier: ${identifier}`,
    '    variables:',
    '      - { name: orderId, type: String }',
    '',
  ].join('\n');
}

const where = (d: Diagnostic) => `${d.code} ${d.file}:${d.line}:${d.column}-${d.endLine}:${d.endColumn}`;

/** A long HTML email, CRLF line breaks, saved with a BOM, with `line` put in as its 120th line. */
function longHtml(line: string): string {
  const lines = Array.from({ length: 300 }, (_, i) => `    <p>Line ${i + 1}: order {{orderId}}</p>`);
  lines[119] = line;
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

describe('findings inside included template text', () => {
  it('template-syntax: at the line and column of the HTML file, CRLF and BOM included', async () => {
    const { diagnostics } = await validate({
      'workflows/order.yaml': email('Order {{orderId}}', '{ file: ./emails/order.html }'),
      'workflows/emails/order.html': longHtml('\t<p>Hi {{name</p>'),
    });
    const syntax = diagnostics.filter((d) => d.code === 'template-syntax');
    // Line 120 on disk is `\t<p>Hi {{name</p>`: Handlebars stops reading at `name` (column 10, the tab is one).
    expect(syntax.map(where)).toEqual(['template-syntax workflows/emails/order.html:120:10-120:11']);
    expect(syntax[0]).toMatchObject({
      severity: 'error',
      pointer: '/steps/0/template/content',
      includedBy: 'workflows/order.yaml',
      message:
        'steps[0].template.content is not valid Handlebars (an unclosed or malformed `{{…}}`), so the service ' +
        'would answer 400 "Failed to extract variables": fix the template (included by workflows/order.yaml at ' +
        'steps[0].template.content).',
    });
  });

  it('template-syntax: where the same text written inline is reported, less the indentation', async () => {
    const html = '<p>\n  {{#if vip}}\n    Hello {{name}\n</p>';
    const inline = await validate({
      'workflows/order.yaml': email('Order', `|-\n${html.replace(/^/gm, '        ')}`),
    });
    const included = await validate({
      'workflows/order.yaml': email('Order', '{ file: ./order.html }'),
      'workflows/order.html': `${html.replace(/\n/g, '\r\n')}\r\n`,
    });
    const [a] = inline.diagnostics.filter((d) => d.code === 'template-syntax');
    const [b] = included.diagnostics.filter((d) => d.code === 'template-syntax');
    // Inline, the text starts on line 8 with 8 spaces of indentation.
    expect(b).toMatchObject({ file: 'workflows/order.html', line: a!.line - 7, column: a!.column - 8 });
    expect(b!.endColumn - b!.column).toBe(a!.endColumn - a!.column);
    expect(b!.line).toBe(3);
  });

  it('variable-undeclared: the use itself, in a push title kept in a file', async () => {
    const push = [
      'name: order shipped',
      'steps:',
      '  - name: push',
      '    template:',
      '      type: push',
      '      title: { file: ./title.txt }',
      '      content: Order {{orderId}}',
      'triggers:',
      '  - type: event',
      '    identifier: order-shipped',
      '    variables:',
      '      - { name: orderId, type: String }',
      '',
    ].join('\n');
    const { diagnostics } = await validate({
      'workflows/order.yaml': push,
      'workflows/title.txt': 'Your order\n  is on its way, {{customer.firstName}}\n',
    });
    expect(diagnostics.map(where)).toEqual(['variable-undeclared workflows/title.txt:2:20-2:38']);
    expect(diagnostics[0]).toMatchObject({
      pointer: '/steps/0/template/title',
      includedBy: 'workflows/order.yaml',
    });
    expect(diagnostics[0]!.message).toBe(
      '`customer.firstName` is used in steps[0].template.title but not declared in triggers[0].variables; the ' +
        'service will add it to the trigger, so declare it there (type String) (included by workflows/order.yaml ' +
        'at steps[0].template.title).',
    );
  });

  it('the same text written inline is still reported in the definition', async () => {
    const { diagnostics } = await validate({
      'workflows/order.yaml': email('Order {{orderId}}', '"<p>{{orderId}} {{carrier}}</p>"'),
    });
    expect(diagnostics.map(where)).toEqual(['variable-undeclared workflows/order.yaml:7:34-7:41']);
    expect(diagnostics[0]!.includedBy).toBeUndefined();
    expect(diagnostics[0]!.message).not.toContain('included by');
  });

  it('a finding about the whole value stays at the reference in the definition', async () => {
    const { diagnostics } = await validate({
      'workflows/order.yaml': email('{ file: ./subject.txt }', '"<p>{{orderId}}</p>"'),
      'workflows/subject.txt': '   \n',
    });
    expect(diagnostics.map(where)).toEqual(['email-subject-missing workflows/order.yaml:6:16-6:39']);
    expect(diagnostics[0]!.includedBy).toBeUndefined();
  });

  it('a file two definitions include: one finding for each, named by the file, sorted by their definitions', async () => {
    const { diagnostics, definitions } = await validate({
      'workflows/b.yaml': email('Order {{orderId}}', '{ file: ./shared.html }', 'order-b'),
      'workflows/a.yaml': email('Order {{orderId}}', '{ file: ./shared.html }', 'order-a'),
      'workflows/shared.html': '<p>{{orderId}}</p>\n<p>{{#if vip}}VIP{{/if}}</p>\n',
    });
    expect(diagnostics.map((d) => `${where(d)} ${d.includedBy}`)).toEqual([
      'variable-undeclared workflows/shared.html:2:10-2:13 workflows/a.yaml',
      'variable-undeclared workflows/shared.html:2:10-2:13 workflows/b.yaml',
    ]);
    // Each definition's findings get that file's text to frame them, once.
    for (const definition of definitions) {
      const own = diagnostics.filter((d) => d.includedBy === definition.file);
      expect(includedTextsFor(definition.file, own, includesOf(definition))).toEqual([
        { file: 'workflows/shared.html', text: '<p>{{orderId}}</p>\n<p>{{#if vip}}VIP{{/if}}</p>' },
      ]);
      expect(includedTextsFor(definition.file, [], includesOf(definition))).toEqual([]);
    }
  });

  it('only the included files findings point into travel for frames', async () => {
    const { diagnostics, definitions } = await validate({
      'workflows/order.yaml': email('{ file: ./emails/subject.txt }', '{ file: ./emails/body.html }'),
      'workflows/emails/subject.txt': 'Order {{orderId}}\n',
      'workflows/emails/body.html': '<p>{{orderId}} {{trackingUrl}}</p>\n',
    });
    expect(diagnostics.map(where)).toEqual(['variable-undeclared workflows/emails/body.html:1:18-1:29']);
    const [definition] = definitions;
    expect(includedTextsFor(definition!.file, diagnostics, includesOf(definition!))).toEqual([
      { file: 'workflows/emails/body.html', text: '<p>{{orderId}} {{trackingUrl}}</p>' },
    ]);
  });
});
