import { describe, expect, it } from 'vitest';
import { buildCacheEntry, type CacheEntry, readCacheEntry, storedEntry } from '../../../src/cache/entry.js';
import type { Diagnostic } from '../../../src/diagnostic.js';

const DIAGNOSTIC: Diagnostic = {
  code: 'schema-enum',
  severity: 'error',
  message: 'must be one of: chat',
  file: 'workflows/a.yaml',
  pointer: '/steps/0/template/type',
  line: 5,
  column: 13,
  endLine: 5,
  endColumn: 18,
};

const FULL: CacheEntry = {
  file: 'workflows/a.yaml',
  hash: 'aGFzaA==',
  includes: [{ path: './a.html', hash: 'aW5jbHVkZWQ=' }],
  identifier: 'order-shipped',
  diagnostics: [DIAGNOSTIC],
};

/** What a value goes through between two runs. */
const stored = (path: string, entry: CacheEntry): unknown =>
  JSON.parse(JSON.stringify(storedEntry(path, entry)));

describe('buildCacheEntry', () => {
  it('leaves out empty lists and an absent identifier', () => {
    expect(buildCacheEntry('a.yaml', { hash: 'h', includes: [] }, { diagnostics: [] })).toEqual({
      file: 'a.yaml',
      hash: 'h',
    });
    expect(
      buildCacheEntry(
        'workflows/a.yaml',
        { hash: 'aGFzaA==', includes: FULL.includes! },
        {
          diagnostics: [DIAGNOSTIC],
          identifier: 'order-shipped',
        },
      ),
    ).toEqual(FULL);
  });
});

describe('storedEntry and readCacheEntry', () => {
  it('round-trip an entry through JSON, under its own path or another', () => {
    expect(readCacheEntry(stored('workflows/a.yaml', FULL), 'workflows/a.yaml')).toEqual(FULL);
    expect(readCacheEntry(stored('../elsewhere/a.yaml', FULL), '../elsewhere/a.yaml')).toEqual(FULL);
    const minimal: CacheEntry = { file: 'a.yaml', hash: 'h' };
    expect(readCacheEntry(stored('a.yaml', minimal), 'a.yaml')).toEqual(minimal);
  });

  it('stores the path, and the display path only when it is not the path', () => {
    expect(storedEntry('workflows/a.yaml', { file: 'workflows/a.yaml', hash: 'h', identifier: 'a' })).toEqual(
      {
        path: 'workflows/a.yaml',
        hash: 'h',
        identifier: 'a',
      },
    );
    expect(storedEntry('workflows/a.yaml', FULL)).not.toHaveProperty('file');
    expect(storedEntry('other.yaml', FULL)).toMatchObject({ path: 'other.yaml', file: 'workflows/a.yaml' });
    // Nothing is taken from the entry itself.
    expect(FULL.file).toBe('workflows/a.yaml');
  });

  it('rebuilds diagnostics with exactly the Diagnostic fields', () => {
    const value = { hash: 'h', diagnostics: [{ ...DIAGNOSTIC, extra: 'dropped', fix: { a: 1 } }] };
    expect(readCacheEntry(value, 'workflows/a.yaml')?.diagnostics).toEqual([DIAGNOSTIC]);
    expect(Object.keys(readCacheEntry(value, 'workflows/a.yaml')?.diagnostics?.[0] ?? {}).sort()).toEqual(
      Object.keys(DIAGNOSTIC).sort(),
    );
  });

  it('keeps the definition of a finding inside an included file', () => {
    const included: Diagnostic = {
      ...DIAGNOSTIC,
      code: 'template-syntax',
      file: 'workflows/emails/a.html',
      pointer: '/steps/0/template/content',
      includedBy: 'workflows/a.yaml',
    };
    const entry: CacheEntry = { ...FULL, diagnostics: [DIAGNOSTIC, included] };
    const read = readCacheEntry(stored('workflows/a.yaml', entry), 'workflows/a.yaml');
    expect(read).toEqual(entry);
    expect(read?.diagnostics?.[0]).not.toHaveProperty('includedBy');
  });

  it('rejects anything malformed, field by field', () => {
    const valid = stored('workflows/a.yaml', FULL) as Record<string, unknown>;
    expect(readCacheEntry(valid, 'workflows/a.yaml')).toBeDefined();
    const broken: Record<string, unknown> = {
      'not an object': 'x',
      'an array': [valid],
      null: null,
      'no hash': { ...valid, hash: undefined },
      'a numeric hash': { ...valid, hash: 1 },
      'a numeric file': { ...valid, file: 7 },
      'a numeric identifier': { ...valid, identifier: 3 },
      'includes not a list': { ...valid, includes: { path: './a.html', hash: 'x' } },
      'an empty include list': { ...valid, includes: [] },
      'an include without hash': { ...valid, includes: [{ path: './a.html' }] },
      'an include with a numeric path': { ...valid, includes: [{ path: 1, hash: 'x' }] },
      'diagnostics not a list': { ...valid, diagnostics: DIAGNOSTIC },
      'an empty diagnostic list': { ...valid, diagnostics: [] },
      'an unknown severity': { ...valid, diagnostics: [{ ...DIAGNOSTIC, severity: 'fatal' }] },
      'a missing message': { ...valid, diagnostics: [{ ...DIAGNOSTIC, message: undefined }] },
      'a numeric pointer': { ...valid, diagnostics: [{ ...DIAGNOSTIC, pointer: 0 }] },
      'a fractional line': { ...valid, diagnostics: [{ ...DIAGNOSTIC, line: 1.5 }] },
      'a negative column': { ...valid, diagnostics: [{ ...DIAGNOSTIC, column: -1 }] },
      'a string endLine': { ...valid, diagnostics: [{ ...DIAGNOSTIC, endLine: '5' }] },
      'no endColumn': { ...valid, diagnostics: [{ ...DIAGNOSTIC, endColumn: undefined }] },
      'a numeric includedBy': { ...valid, diagnostics: [{ ...DIAGNOSTIC, includedBy: 1 }] },
      'one good diagnostic and one bad': {
        ...valid,
        diagnostics: [DIAGNOSTIC, { ...DIAGNOSTIC, code: null }],
      },
    };
    for (const [name, value] of Object.entries(broken)) {
      expect(
        readCacheEntry(JSON.parse(JSON.stringify(value) ?? 'null'), 'workflows/a.yaml'),
        name,
      ).toBeUndefined();
    }
  });
});
