import { appendFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hashBody } from '../../../src/cache/hash.js';
import { checkDefinitions } from '../../../src/check/check-definitions.js';
import {
  fitsInFile,
  formatIncludeText,
  normalizeIncludeText,
} from '../../../src/definitions/include-references.js';
import type { Diagnostic } from '../../../src/diagnostic.js';
import { validateWorkflowDefinition } from '../../../src/generated/validators.js';
import { buildDesired } from '../../../src/plan/desired.js';
import { validateDefinitionSchema } from '../../../src/validate/schema.js';
import { validation } from '../../helpers/rules.js';
import { parseText, useTempDir } from './helpers.js';
import { emailWithContent, readWorkflows, useIncludesProject, write } from './includes-helpers.js';

const project = useIncludesProject();
const tempDir = useTempDir();
const GROUPS = { defaultId: '6650f0c0ffee00000000a000', named: {} };

async function validateProject(cwd: string): Promise<Diagnostic[]> {
  const read = await readWorkflows(cwd);
  return [...read.diagnostics, ...validation({ definitions: read.definitions, options: {} })];
}

describe('rules and plans see the included text', () => {
  it('the example project is valid: variables used only in the HTML file count as used', async () => {
    expect(await validateProject(await project())).toEqual([]);
  });

  it('a Handlebars error or an undeclared variable in the file is reported inside it', async () => {
    const cwd = await project();
    const html = 'workflows/emails/order-shipped.html';
    const inFile = (d: Diagnostic) =>
      `${d.file}:${d.line}:${d.column}-${d.endLine}:${d.endColumn} ${d.pointer}`;
    // `{{#each items}}` left open, and `{{trackingUrl}}` declared nowhere.
    await writeFile(
      path.join(cwd, html),
      '<p>{{carrier}} {{orderNumber}} <a href="{{trackingUrl}}">track</a></p>\n{{#each items}}<li>{{this}}</li>\n',
    );
    const diagnostics = await validateProject(cwd);
    // (With the template broken the service derives no variable from it: the declared ones count as unused.)
    const [syntax, ...unused] = diagnostics;
    expect(unused.map((d) => `${d.code} ${d.file}`)).toEqual(
      Array(4).fill('variable-unused workflows/order-shipped.yaml'),
    );
    // Handlebars reports the unclosed block at the end of the text: just after the last character of line 2.
    expect(syntax!.code).toBe('template-syntax');
    expect(inFile(syntax!)).toBe(`${html}:2:33-2:34 /steps/0/template/content`);
    expect(syntax!.includedBy).toBe('workflows/order-shipped.yaml');
    expect(syntax!.message).toBe(
      'steps[0].template.content is not valid Handlebars (unexpected end of text), so the service would answer ' +
        '400 "Failed to extract variables": fix the template (included by workflows/order-shipped.yaml at ' +
        'steps[0].template.content).',
    );

    await writeFile(
      path.join(cwd, html),
      '<p>{{carrier}} {{orderNumber}} <a href="{{trackingUrl}}">track</a></p>\n' +
        '{{#each items}}{{name}} {{quantity}}{{/each}}\n',
    );
    const warnings = await validateProject(cwd);
    // `trackingUrl` at line 1, column 43 of the HTML file, underlined over its 11 characters.
    expect(warnings.map(inFile)).toEqual([`${html}:1:43-1:54 /steps/0/template/content`]);
    expect(warnings[0]!.message).toBe(
      '`trackingUrl` is used in steps[0].template.content but not declared in triggers[0].variables; the service ' +
        'will add it to the trigger, so declare it there (type String) (included by workflows/order-shipped.yaml ' +
        'at steps[0].template.content).',
    );
  });

  it('a subject kept in a file is checked like one written inline (a blank one is empty)', async () => {
    const cwd = await project();
    await writeFile(path.join(cwd, 'workflows/emails/order-shipped.subject.txt'), '  \n');
    const diagnostics = await validateProject(cwd);
    expect(diagnostics.map((d) => `${d.code} ${d.pointer} ${d.line}`)).toEqual([
      'email-subject-missing /steps/0/template/subject 10',
    ]);
  });

  it('an edit to the included file alone changes the create body and its hash', async () => {
    const cwd = await project();
    const checked = async () =>
      (await checkDefinitions([], { cwd, defaultDir: 'workflows', rules: {}, keepDefinitions: true }))
        .definitions;
    const before = buildDesired(await checked(), GROUPS, hashBody);
    await appendFile(path.join(cwd, 'workflows/emails/order-shipped.html'), '<p>Thanks!</p>\n');
    const after = buildDesired(await checked(), GROUPS, hashBody);
    expect(before.diagnostics).toEqual([]);
    const [was] = before.desired;
    const [now] = after.desired;
    expect(now!.hash).not.toBe(was!.hash);
    const email = (body: unknown) =>
      (body as { steps: Array<{ template: Record<string, unknown> }> }).steps[0]!.template;
    expect(email(now!.body).content).toMatch(/<\/html>\n<p>Thanks!<\/p>$/);
    expect(email(was!.body).subject).toBe('Your order {{orderNumber}} has shipped');
  });

  it('the check reports a reference that does not resolve as the read does, with the text to frame it', async () => {
    const cwd = await tempDir();
    await write(cwd, {
      '.git/HEAD': '',
      'workflows/welcome.yaml': emailWithContent('{ file: ./welcom.html }'),
      'workflows/welcome.html': 'Hi',
    });
    const outcome = await checkDefinitions([], { cwd, defaultDir: 'workflows', rules: {} });
    const read = await readWorkflows(cwd);
    expect(outcome.diagnostics).toEqual(read.diagnostics);
    expect(outcome.diagnostics.map((d) => d.code)).toEqual(['include-not-found']);
    expect(outcome.sources.get('workflows/welcome.yaml')).toBe(read.sources.get('workflows/welcome.yaml'));
  });
});

describe('the schema (what editors check the file as written against)', () => {
  it('accepts a reference for content, subject and title, in steps and variants', () => {
    const raw = parseText(
      [
        'name: welcome',
        'steps:',
        '  - template: { type: email, subject: { file: ./s.txt }, content: { file: ./c.html } }',
        '    variants:',
        '      - template: { type: push, title: { file: ../t.txt }, content: Hi }',
        '        filters: [{ value: AND, children: [{ on: payload, field: x, value: y, operator: EQUAL }] }]',
        'triggers: [{ type: event, identifier: welcome }]',
      ].join('\n'),
    ).definition!;
    expect(validateWorkflowDefinition(raw.value), JSON.stringify(validateWorkflowDefinition.errors)).toBe(
      true,
    );
  });

  it('names what is wrong with a malformed reference', () => {
    const messages = (reference: string) =>
      validateDefinitionSchema(parseText(emailWithContent(reference)).definition!).map(
        (d) => `${d.code} ${d.pointer}: ${d.message}`,
      );
    expect(messages('{ fiel: ./x.html }')).toEqual([
      'schema-required /steps/0/template/content/file: `steps[0].template.content` is missing required property `file`',
      'schema-additional-property /steps/0/template/content/fiel: `steps[0].template.content` has an unknown ' +
        'property `fiel`; did you mean `file`?',
    ]);
    expect(messages('{ file: 5 }')).toEqual([
      expect.stringMatching(/^schema-type \/steps\/0\/template\/content\/file: /),
    ]);
    expect(messages('{ file: /etc/passwd }')).toEqual([
      expect.stringMatching(/^schema-pattern .*a relative path with `\/` separators/),
    ]);
    expect(messages('5')).toEqual([
      expect.stringMatching(/^schema-type \/steps\/0\/template\/content: .*string/),
    ]);
  });
});

describe('included text and the bytes written for it', () => {
  it('reading what pull writes gives the text back, for every text a file can hold, whatever the style', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }).filter(fitsInFile),
        fc.boolean(),
        fc.boolean(),
        (text, bom, crlf) => {
          const written = formatIncludeText(text, { bom, crlf });
          // The UTF-8 decoder drops the byte order mark before the text is normalized.
          expect(normalizeIncludeText(bom ? written.slice(1) : written)).toBe(text);
          expect(written.endsWith(crlf ? '\r\n' : '\n')).toBe(true);
        },
      ),
    );
  });

  it('text with a carriage return or a leading byte order mark does not fit in a file', () => {
    expect(['a\r\nb', 'a\r', '\uFEFFa'].map(fitsInFile)).toEqual([false, false, false]);
    expect(['', 'a\nb\n', 'a\uFEFF'].map(fitsInFile)).toEqual([true, true, true]);
  });
});
