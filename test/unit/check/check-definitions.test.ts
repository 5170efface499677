import { cpSync, readFileSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkDefinitions } from '../../../src/check/check-definitions.js';
import { scanDefinitionFiles } from '../../../src/definitions/find.js';
import { DEFAULT_LOAD_LIMITS } from '../../../src/definitions/limits.js';
import { loadDefinitionBytes, readDefinitionBytes, scanDiagnostics } from '../../../src/definitions/read.js';
import type { LoadedDefinition, ParseResult } from '../../../src/definitions/types.js';
import { sortDiagnostics } from '../../../src/diagnostic.js';
import { createFsBoundary } from '../../../src/fs-boundary.js';
import type { RuleOptions } from '../../../src/validate/rules/index.js';
import { BROKEN_DEFINITIONS, VALID, validNumbered } from '../../fixtures/workflow-texts.js';
import { validation } from '../../helpers/rules.js';
import { useTempProjects } from '../../helpers/temp-project.js';

const EXAMPLES = fileURLToPath(new URL('../../../workflows/', import.meta.url));

/** Valid files, broken ones of every kind, and an identifier shared by three files (one failing the schema). */
const PROJECT: Record<string, string | Uint8Array> = {
  'workflows/a-valid.yaml': VALID,
  'workflows/b-copy.yaml': `# the same workflow again\n${VALID}`,
  'workflows/c-schema.yaml': VALID.replace('type: chat', 'type: chatt').replace('name: chat', 'nmae: chat'),
  'workflows/d-syntax.yaml': 'name: [unclosed\nsteps: {\n',
  'workflows/e-tabs.yaml': 'name: x\nsteps:\n\t- a\n',
  'workflows/f-encoding.yaml': new Uint8Array([0x6e, 0x3a, 0x20, 0xe9, 0x0a]),
  'workflows/g-warnings.yaml': VALID.replace('{{orderId}}', '{{orderId}} {{carrier}} {{#if x}}{{/if}}')
    .replace('order shipped', 'Order Shipped Twice')
    .replace('identifier: order-shipped', 'identifier: order-shipped-twice'),
  'workflows/h-duplicate-keys.yaml': `${VALID}name: again\nname: thrice\n`,
  'workflows/i-empty.yaml': '',
  'workflows/j-other.yaml': VALID.replace(/order shipped/, 'order sent').replace(
    /order-shipped/,
    'order-sent',
  ),
  'workflows/k-identifier-only.yaml': 'triggers: [{ identifier: order-sent }]\n',
};

const project = useTempProjects('wfsync-check-');

const RULES: RuleOptions = { severities: { 'variable-undeclared': 'info' } };

/**
 * The reference: every file read by yaml alone (no fast path: loadDefinitionBytes), all definitions validated
 * together (validation), and every decoded text.
 */
async function readReference(cwd: string) {
  const scan = await scanDefinitionFiles([], { cwd, defaultDir: 'workflows' });
  const limits = { ...DEFAULT_LOAD_LIMITS };
  const definitions: LoadedDefinition[] = [];
  const read = scanDiagnostics(scan);
  const sources = new Map<string, string>();
  for (const file of scan.files) {
    const source = { absolute: path.join(cwd, file), file, limits, boundary: createFsBoundary(cwd) };
    const bytes = readDefinitionBytes(source);
    const loaded: ParseResult = 'bytes' in bytes ? loadDefinitionBytes(bytes.bytes, source) : bytes;
    if (loaded.definition) definitions.push(loaded.definition);
    if (loaded.text !== undefined) sources.set(file, loaded.text);
    read.push(...loaded.diagnostics);
  }
  const diagnostics = sortDiagnostics([...read, ...validation({ definitions, options: RULES })]);
  return { definitions, diagnostics, sources };
}

const check = (cwd: string) => checkDefinitions([], { cwd, defaultDir: 'workflows', rules: RULES });

describe('checkDefinitions', () => {
  it('gives what the reference read + validation give, with the texts of files with findings', async () => {
    const cwd = project(PROJECT);
    const result = await check(cwd);
    const reference = await readReference(cwd);
    expect(result.files).toEqual(Object.keys(PROJECT));
    expect(result.diagnostics).toEqual(reference.diagnostics);
    expect(
      result.diagnostics.map((d) => `${d.file.slice('workflows/'.length)} ${d.severity} ${d.code}`),
    ).toEqual([
      'a-valid.yaml error identifier-duplicate',
      'b-copy.yaml error identifier-duplicate',
      'c-schema.yaml error schema-additional-property',
      'c-schema.yaml error schema-enum',
      'c-schema.yaml error identifier-duplicate',
      'd-syntax.yaml error yaml-syntax',
      'd-syntax.yaml error yaml-syntax',
      'e-tabs.yaml error yaml-tab-indent',
      'f-encoding.yaml error file-encoding',
      'g-warnings.yaml info variable-undeclared',
      'g-warnings.yaml info variable-undeclared',
      'h-duplicate-keys.yaml error yaml-duplicate-key',
      'h-duplicate-keys.yaml error yaml-duplicate-key',
      'i-empty.yaml error file-empty',
      'j-other.yaml error identifier-duplicate',
      // Three findings at the same place with the same code: their order is the single-thread path's.
      'k-identifier-only.yaml error schema-required',
      'k-identifier-only.yaml error schema-required',
      'k-identifier-only.yaml error schema-required',
      'k-identifier-only.yaml error identifier-duplicate',
    ]);
    expect(result.sources.get('workflows/d-syntax.yaml')).toBe(PROJECT['workflows/d-syntax.yaml']);
    expect(result.sources.has('workflows/f-encoding.yaml')).toBe(false);
  });

  it('a file with any finding is reported as the reference reads it, whatever the fast path made of it', async () => {
    // js-yaml reads this flow mapping key ({name}) where yaml reports a non-string key (a property-test counterexample).
    const gap = '---\n{name: {1: [a::, {{name}}]}, k: }\n';
    const cwd = project({ 'workflows/a-valid.yaml': VALID, 'workflows/b-gap.yaml': gap });
    const result = await check(cwd);
    expect(result.diagnostics).toEqual((await readReference(cwd)).diagnostics);
    expect(result.diagnostics.map((d) => d.code)).toContain('yaml-non-string-key');
    expect(result.sources.get('workflows/b-gap.yaml')).toBe(gap);
  });

  it('keeps the texts of files with findings only, and reports shared identifiers where each file has it', async () => {
    const cwd = project(PROJECT);
    const result = await check(cwd);
    const reference = await readReference(cwd);
    // Texts are kept only for files with findings (all a report can frame), and they are the same texts.
    const framed = new Set(result.diagnostics.map((d) => d.file));
    for (const file of framed) expect(result.sources.get(file)).toBe(reference.sources.get(file));
    expect([...result.sources.keys()].every((file) => framed.has(file))).toBe(true);
    const duplicates = result.diagnostics.filter((d) => d.code === 'identifier-duplicate');
    expect(duplicates.map((d) => `${d.file}:${d.line}`)).toEqual([
      'workflows/a-valid.yaml:9',
      'workflows/b-copy.yaml:10',
      'workflows/c-schema.yaml:9',
      'workflows/j-other.yaml:9',
      'workflows/k-identifier-only.yaml:1',
    ]);
  });

  it('matches the reference report on the example workflows too', async () => {
    const cwd = project({});
    cpSync(EXAMPLES, path.join(cwd, 'workflows'), { recursive: true });
    const result = await check(cwd);
    expect(result.files.length).toBeGreaterThan(5);
    expect(result.diagnostics).toEqual((await readReference(cwd)).diagnostics);
  });

  it('frames findings inside included files from their texts', async () => {
    const including = (identifier: string, file: string) =>
      VALID.replace('"Order {{orderId}} shipped"', `{ file: ${file} }`)
        .replace('order shipped', identifier.replace('-', ' '))
        .replace('order-shipped', identifier);
    const cwd = project({
      'wfsync.config.yaml': 'workflowsDir: workflows\n',
      'workflows/a.yaml': including('order-a', './texts/shared.txt'),
      'workflows/b.yaml': including('order-b', './texts/shared.txt'),
      'workflows/c.yaml': including('order-c', './texts/fine.txt'),
      'workflows/texts/shared.txt': 'Order {{orderId}}\r\nby {{carrier}}\r\n',
      'workflows/texts/fine.txt': 'Order {{orderId}}\n',
    });
    const single = await check(cwd);
    const read = await readReference(cwd);
    expect(single.diagnostics).toEqual(read.diagnostics);
    expect(single.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.includedBy}`)).toEqual([
      'workflows/texts/shared.txt:2:6 workflows/a.yaml',
      'workflows/texts/shared.txt:2:6 workflows/b.yaml',
    ]);
    // The included text (line breaks as LF, no final one): frames show the file's lines. No other text travels.
    expect([...single.sources]).toEqual([
      ['workflows/a.yaml', read.sources.get('workflows/a.yaml')],
      ['workflows/b.yaml', read.sources.get('workflows/b.yaml')],
      ['workflows/texts/shared.txt', 'Order {{orderId}}\nby {{carrier}}'],
    ]);
  });

  it('finds every kind of finding, in every kind of file, with the positions and texts of the reference', async () => {
    const including = (file: string) => VALID.replace('"Order {{orderId}} shipped"', `{ file: ${file} }`);
    const files: Record<string, string | Uint8Array> = {
      'workflows/valid.yaml': VALID,
      'workflows/numbered.yaml': validNumbered(7),
      ...Object.fromEntries(
        Object.entries(BROKEN_DEFINITIONS).map(([name, text]) => [`workflows/${name}`, text]),
      ),
      // Anchors and aliases: valid, but the fast path refuses them.
      'workflows/anchors.yaml': VALID.replace('type: chat\n', 'type: &t chat\n').replace(
        'variables:\n',
        'variables:\n      # uses the anchor: *t\n',
      ),
      'workflows/included.yaml': including('./texts/fine.txt'),
      'workflows/included-finding.yaml': including('./texts/undeclared.txt'),
      'workflows/included-missing.yaml': including('./texts/gone.txt'),
      'workflows/texts/fine.txt': 'Order {{orderId}}\n',
      'workflows/texts/undeclared.txt': 'Order {{orderId}}\nby {{carrier}}\n',
    };
    const cwd = project(files);
    symlinkSync(path.join(cwd, 'nowhere.yaml'), path.join(cwd, 'workflows/dangling.yaml'));
    const result = await checkDefinitions([], { cwd, defaultDir: 'workflows', rules: {} });
    const codes = (file: string) =>
      result.diagnostics.filter((d) => (d.includedBy ?? d.file) === `workflows/${file}`).map((d) => d.code);
    expect(codes('valid.yaml')).toEqual(['identifier-duplicate']);
    expect(codes('anchors.yaml')).toEqual(['identifier-duplicate']);
    expect(codes('included-finding.yaml')).toEqual(['identifier-duplicate', 'variable-undeclared']);
    expect(codes('included-missing.yaml')).toEqual(['include-not-found']);
    expect(codes('dangling.yaml')).toEqual(['file-unreadable']);
    expect(codes('template.yaml')).toEqual(['template-syntax', 'variable-unused']);
    // A finding in a file the fast path read: placed and framed as the reference path places it.
    const warning = result.diagnostics.filter((d) => d.file === 'workflows/warnings.yaml');
    expect(warning.map((d) => `${d.code} ${d.line}:${d.column}`)).toEqual(['variable-undeclared 6:37']);
    expect(result.sources.get('workflows/warnings.yaml')).toBe(BROKEN_DEFINITIONS['warnings.yaml']);
  });

  it('gives the definitions without an error of their own, typed, with their identifiers, if asked', async () => {
    const cwd = project(PROJECT);
    expect((await check(cwd)).definitions).toEqual([]);
    const options = { cwd, defaultDir: 'workflows', rules: RULES, keepDefinitions: true };
    const result = await checkDefinitions([], options);
    expect(result.diagnostics).toEqual((await check(cwd)).diagnostics);
    expect(result.definitions.map((d) => `${d.file} ${d.identifier}`)).toEqual([
      'workflows/a-valid.yaml order-shipped',
      'workflows/b-copy.yaml order-shipped',
      'workflows/g-warnings.yaml order-shipped-twice',
      'workflows/j-other.yaml order-sent',
    ]);
    for (const definition of result.definitions) {
      expect(definition.workflow).toBe(definition.value);
      expect(definition.workflow.triggers[0].identifier).toBe(definition.identifier);
      expect(definition.text).toBe(readFileSync(path.join(cwd, definition.file), 'utf8'));
    }
  });
});
