import { describe, expect, it } from 'vitest';
import { DEFAULT_LOAD_LIMITS } from '../../../src/definitions/limits.js';
import {
  type CheckSetup,
  checkDefinitionFile,
  checkParsedFile,
  parseDefinitionFile,
} from '../../../src/parallel/check-file.js';
import { nextChunkMode } from '../../../src/parallel/pool.js';
import { useTempProjects } from '../../fixtures/temp-projects.js';
import { BROKEN_DEFINITIONS, VALID, validNumbered } from '../../fixtures/workflow-texts.js';

const project = useTempProjects('wfsync-check-file-');

const including = (file: string) => VALID.replace('"Order {{orderId}} shipped"', `{ file: ${file} }`);

/** Every kind of file: valid, broken in each way, refused by the fast path, with includes (fine and failing). */
const FILES: Record<string, string | Uint8Array> = {
  'workflows/valid.yaml': VALID,
  'workflows/numbered.yaml': validNumbered(7),
  ...Object.fromEntries(
    Object.entries(BROKEN_DEFINITIONS).map(([name, text]) => [`workflows/${name}`, text]),
  ),
  // Anchors and aliases: valid, but the fast path refuses them (the worker then checks the file in full).
  'workflows/anchors.yaml': VALID.replace('type: chat\n', 'type: &t chat\n').replace(
    'variables:\n',
    'variables:\n      # uses the anchor: *t\n',
  ),
  'workflows/included.yaml': including('./texts/fine.txt'),
  'workflows/included-finding.yaml': including('./texts/undeclared.txt'),
  'workflows/included-missing.yaml': including('./texts/gone.txt'),
  'workflows/texts/fine.txt': 'Order {{orderId}}\n',
  'workflows/texts/undeclared.txt': 'Order {{orderId}}\nby {{carrier}}\n',
  'workflows/folder.yaml/.keep': '',
};

describe('parseDefinitionFile + checkParsedFile (a worker parses, the main thread validates)', () => {
  it('give checkDefinitionFile’s outcome for every kind of file, after crossing threads', () => {
    const cwd = project(FILES);
    const setup: CheckSetup = { cwd, limits: { ...DEFAULT_LOAD_LIMITS }, rules: {} };
    const files = Object.keys(FILES).filter((file) => !file.includes('/texts/') && !file.endsWith('.keep'));
    files.push('workflows/folder.yaml', 'workflows/not-there.yaml');
    for (const file of files) {
      // structuredClone: what postMessage does to it on the way from a worker; a `parsed` entry may also cross as
      // JSON (worker.ts, when its whole chunk is such entries).
      const read = parseDefinitionFile(file, setup);
      const expected = checkDefinitionFile(file, setup);
      expect(checkParsedFile(file, structuredClone(read), setup), file).toStrictEqual(expected);
      if ('parsed' in read) {
        const viaJson = JSON.parse(JSON.stringify(read)) as typeof read;
        expect(viaJson, file).toStrictEqual(read);
        expect(checkParsedFile(file, viaJson, setup), file).toStrictEqual(expected);
      }
    }
    // The kinds above really produce findings, of reading, YAML, schema and rules, inside includes too.
    const codes = (file: string) =>
      checkDefinitionFile(`workflows/${file}`, setup).diagnostics.map((d) => d.code);
    expect(codes('valid.yaml')).toEqual([]);
    expect(codes('anchors.yaml')).toEqual([]);
    expect(codes('included.yaml')).toEqual([]);
    expect(codes('included-finding.yaml')).toEqual(['variable-undeclared']);
    expect(codes('included-missing.yaml')).toEqual(['include-not-found']);
    expect(codes('folder.yaml')).toEqual(['file-unreadable']);
    expect(codes('template.yaml')).toEqual(['template-syntax', 'variable-unused']);
  });

  it('sends a valid file’s value only (no text), and a refused or unreadable file’s whole outcome', () => {
    const cwd = project(FILES);
    const setup: CheckSetup = { cwd, limits: { ...DEFAULT_LOAD_LIMITS }, rules: {} };
    const valid = parseDefinitionFile('workflows/valid.yaml', setup);
    expect(Object.keys(valid)).toEqual(['parsed']);
    expect(valid).toEqual({ parsed: { value: expect.objectContaining({ name: 'order shipped' }) } });
    const included = parseDefinitionFile('workflows/included.yaml', setup);
    expect(included).toMatchObject({
      parsed: { includes: [{ file: 'workflows/texts/fine.txt', text: 'Order {{orderId}}' }] },
    });
    expect(parseDefinitionFile('workflows/anchors.yaml', setup)).toEqual({
      outcome: { diagnostics: [], identifier: 'order-shipped' },
    });
    const syntax = parseDefinitionFile('workflows/syntax.yaml', setup);
    expect(syntax).toMatchObject({ outcome: { text: 'name: [unclosed\nsteps: {\n' } });
    expect('outcome' in syntax && syntax.outcome.diagnostics.map((d) => d.code)).toEqual([
      'yaml-syntax',
      'yaml-syntax',
    ]);
  });

  it('redoes a parsed file with findings from the file itself, positions and code frame text included', () => {
    const cwd = project({ 'workflows/w.yaml': BROKEN_DEFINITIONS['warnings.yaml']! });
    const setup: CheckSetup = { cwd, limits: { ...DEFAULT_LOAD_LIMITS }, rules: {} };
    const parsed = parseDefinitionFile('workflows/w.yaml', setup);
    expect('parsed' in parsed).toBe(true);
    const outcome = checkParsedFile('workflows/w.yaml', parsed, setup);
    expect(outcome.text).toBe(BROKEN_DEFINITIONS['warnings.yaml']);
    expect(outcome.diagnostics.map((d) => `${d.code} ${d.line}:${d.column}`)).toEqual([
      'variable-undeclared 6:37',
    ]);
  });
});

describe('nextChunkMode', () => {
  it('has workers parse while the main thread keeps up, and check in full once parsed chunks pile up', () => {
    expect(nextChunkMode(true, 0, 1)).toBe('parse');
    expect(nextChunkMode(true, 3, 1)).toBe('parse');
    expect(nextChunkMode(true, 4, 1)).toBe('check');
    expect(nextChunkMode(true, 7, 2)).toBe('parse');
    expect(nextChunkMode(true, 8, 2)).toBe('check');
    // The validate cache's misses: the main thread cannot validate parsed files (their outcomes need the bytes).
    expect(nextChunkMode(false, 0, 1)).toBe('check');
  });
});
