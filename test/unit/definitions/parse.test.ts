import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_LOAD_LIMITS } from '../../../src/definitions/limits.js';
import { parseDefinition } from '../../../src/definitions/parse.js';
import { load, parseText, where } from './helpers.js';

const encoder = new TextEncoder();
const bytes = (...parts: Array<string | number[]>): Uint8Array =>
  new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...encoder.encode(p)] : p)));

/** `depth` flow sequences nested under the key `a:` (the root mapping is level 1). */
const flowNest = (depth: number) => `a: ${'['.repeat(depth)}${']'.repeat(depth)}\n`;
/** `levels` block mappings, each key indented one more space than its parent. */
const blockNest = (levels: number) =>
  `${Array.from({ length: levels }, (_, i) => `${' '.repeat(i)}a:`).join('\n')} 1\n`;

describe('parseDefinition: bytes and encoding', () => {
  it('strips a UTF-8 BOM silently and counts columns after it', () => {
    const clean = parseDefinition('w.yaml', bytes([0xef, 0xbb, 0xbf], 'name: Welcome\nsteps: []\n'));
    expect(clean.diagnostics).toEqual([]);
    expect(clean.definition?.text).toBe('name: Welcome\nsteps: []\n');
    expect(where(parseDefinition('w.yaml', bytes([0xef, 0xbb, 0xbf], 'a: b: c\n')).diagnostics)).toEqual([
      'yaml-syntax@1:4',
    ]);
  });

  it('reports invalid UTF-8 at the first bad byte, columns in UTF-16 units', () => {
    const result = parseDefinition('w.yaml', bytes('name: ok\nsteps: [caf', [0xc3, 0x28], ']\n'));
    expect(result.definition).toBeUndefined();
    expect(result.text).toBeUndefined(); // nothing decoded, so no code frame can be drawn
    expect(result.diagnostics).toEqual([
      {
        code: 'file-encoding',
        severity: 'error',
        message: 'file is not valid UTF-8 (byte 0xC3 at offset 20); save it as UTF-8',
        file: 'w.yaml',
        pointer: '',
        line: 2,
        column: 12,
        endLine: 2,
        endColumn: 13,
      },
    ]);
    // The emoji before the bad byte is two UTF-16 units, as editors count it.
    expect(where(parseDefinition('w.yaml', bytes('x: 😀', [0xff], '\n')).diagnostics)).toEqual([
      'file-encoding@1:6',
    ]);
  });

  it('recognises a UTF-16 file and says so', () => {
    const [d] = parseDefinition('w.yaml', bytes([0xff, 0xfe], [0x61, 0x00])).diagnostics;
    expect(d).toMatchObject({
      code: 'file-encoding',
      line: 1,
      column: 1,
      message: 'file is UTF-16 encoded; save it as UTF-8',
    });
  });

  it('refuses a file over the cap, naming its size and the cap, and accepts one exactly at it', () => {
    const over = parseDefinition('w.yaml', new Uint8Array(DEFAULT_LOAD_LIMITS.maxBytes + 1));
    expect(over.diagnostics).toMatchObject([
      { code: 'file-too-large', line: 1, column: 1, message: expect.stringContaining('1048577 bytes') },
    ]);
    expect(over.diagnostics[0]?.message).toContain('1 MiB limit');
    expect(over.text).toBeUndefined();
    const text = `name: x\nsteps: []\n# ${'-'.repeat(80)}\n`;
    const size = encoder.encode(text).length;
    expect(parseDefinition('w.yaml', encoder.encode(text), { maxBytes: size }).diagnostics).toEqual([]);
    expect(
      where(parseDefinition('w.yaml', encoder.encode(text), { maxBytes: size - 1 }).diagnostics),
    ).toEqual(['file-too-large@1:1']);
  });
});

describe('parseDefinition: documents', () => {
  it('keeps the text of a file whose YAML is broken, for code frames, and of a clean one', () => {
    const broken = parseText('name: [unclosed\n');
    expect(broken.definition).toBeUndefined();
    expect(where(broken.diagnostics)).toEqual(['yaml-syntax@2:1']);
    expect(broken.text).toBe('name: [unclosed\n');
    expect(parseText('- a\n').text).toBe('- a\n'); // root-not-mapping
    const clean = parseText('name: x\nsteps: []\n');
    expect(clean.text).toBe('name: x\nsteps: []\n');
    expect(clean.definition?.text).toBe(clean.text);
  });

  it('keeps positions right with CRLF line endings', () => {
    const definition = load('name: Welcome\r\nsteps:\r\n  - name: In-app\r\n    active: false\r\n');
    expect(definition.value).toEqual({ name: 'Welcome', steps: [{ name: 'In-app', active: false }] });
    expect(definition.locate('/steps/0/active')).toEqual({ line: 4, column: 13, endLine: 4, endColumn: 18 });
    const duplicate = parseText('name: x\r\nsteps:\r\n  - a: 1\r\n    a: 2\r\n').diagnostics;
    expect(duplicate).toMatchObject([
      {
        code: 'yaml-duplicate-key',
        line: 4,
        column: 5,
        endColumn: 6,
        message: 'duplicate key "a": it is already set on line 3',
      },
    ]);
    expect(where(parseText('name: x\r\nsteps:\r\n\t- a\r\n').diagnostics)).toEqual(['yaml-tab-indent@3:1']);
  });

  it('treats a lone "---" (with or without a comment) as an empty file, but "~" as a null root', () => {
    expect(where(parseText('---\n').diagnostics)).toEqual(['file-empty@1:1']);
    expect(where(parseText('--- # nothing yet\n').diagnostics)).toEqual(['file-empty@1:1']);
    expect(where(parseText('   \n\n').diagnostics)).toEqual(['file-empty@1:1']);
    expect(where(parseText('~\n').diagnostics)).toEqual(['root-not-mapping@1:1']);
  });

  it('reports a second document at its start, also after a "..." end marker', () => {
    expect(where(parseText('name: a\n...\n---\nname: b\n').diagnostics)).toEqual([
      'yaml-multiple-documents@3:1',
    ]);
    expect(where(parseText('name: a\n---\n').diagnostics)).toEqual(['yaml-multiple-documents@2:1']);
  });

  it('caps a cascade of YAML errors at 20 and says how many more there are', () => {
    const text = Array.from({ length: 40 }, (_, i) => `k${i}: a: b`).join('\n');
    const { diagnostics } = parseText(text);
    expect(diagnostics).toHaveLength(20);
    expect(where(diagnostics).slice(0, 2)).toEqual(['yaml-syntax@1:5', 'yaml-syntax@2:5']);
    expect(diagnostics[19]?.message).toBe(
      'Nested mappings are not allowed in compact mappings (BLOCK_AS_IMPLICIT_KEY) (and 20 more YAML errors in this file)',
    );
  });
});

describe('parseDefinition: keys', () => {
  it('finds duplicates after keys become strings (`1` and "1" collide)', () => {
    expect(parseText('name: x\n1: a\n"1": b\n').diagnostics).toMatchObject([
      {
        code: 'yaml-duplicate-key',
        line: 3,
        column: 1,
        pointer: '/1',
        message: 'duplicate key "1": it is already set on line 2',
      },
    ]);
  });

  it('rejects complex, alias and empty keys', () => {
    expect(where(parseText('name: x\n? {a: 1}\n: y\n').diagnostics)).toEqual(['yaml-non-string-key@2:3']);
    expect(where(parseText('a: &k name\n*k : 1\n').diagnostics)).toEqual(['yaml-non-string-key@2:1']);
    expect(parseText('name: x\n: y\n').diagnostics).toMatchObject([
      { code: 'yaml-non-string-key', line: 2, column: 3, message: 'empty key: every key needs a name' },
    ]);
  });

  it('keeps __proto__ as an ordinary own property', () => {
    const value = load('__proto__: {polluted: true}\nname: x\n').value as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__', 'name']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reads a pair inside a flow sequence as a one-key object', () => {
    expect(load('name: x\nlist: [b: 1, c]\n').value).toEqual({ name: 'x', list: [{ b: 1 }, 'c'] });
  });
});

describe('parseDefinition: aliases and merges', () => {
  it('resolves ordinary aliases and merge lists (earlier sources win, own keys win over all)', () => {
    const text = 'a: &a {x: 1, y: 1}\nb: &b {x: 2, z: 2}\nc:\n  <<: [*a, *b]\n  y: 0\nd: *a\n';
    expect(load(text).value).toEqual({
      a: { x: 1, y: 1 },
      b: { x: 2, z: 2 },
      c: { x: 1, y: 0, z: 2 },
      d: { x: 1, y: 1 },
    });
  });

  it('stops a "billion laughs" document at its first alias', () => {
    const rows = ['lol0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]'];
    for (let i = 1; i < 10; i++)
      rows.push(
        `lol${i}: &l${i} [${Array(9)
          .fill(`*l${i - 1}`)
          .join(', ')}]`,
      );
    const result = parseText(`${rows.join('\n')}\n`);
    expect(result.definition).toBeUndefined();
    expect(result.diagnostics).toMatchObject([
      {
        code: 'yaml-alias-limit',
        line: 2,
        column: 12,
        endColumn: 15,
        message: expect.stringContaining('over 100'),
      },
    ]);
  });

  it('honours a custom alias limit (0 forbids aliases altogether)', () => {
    const text = 'a: &a x\nb: [1, *a]\n';
    expect(where(parseDefinition('w.yaml', encoder.encode(text), { maxAliasCount: 0 }).diagnostics)).toEqual([
      'yaml-alias-limit@2:8',
    ]);
    expect(parseDefinition('w.yaml', encoder.encode(text)).definition?.value).toEqual({
      a: 'x',
      b: [1, 'x'],
    });
  });
});

describe('parseDefinition: merge keys', () => {
  it('rejects merging anything but mappings, pointing at the culprit', () => {
    expect(parseText('a: &a {x: 1}\nb:\n  <<: [*a, 1]\n').diagnostics).toMatchObject([
      { code: 'yaml-invalid-merge', line: 3, column: 12, pointer: '/b' },
    ]);
    expect(where(parseText('b:\n  <<: *nowhere\n').diagnostics)).toEqual(['yaml-unresolved-alias@2:7']);
  });

  it('reports problems inside an inline merged mapping at the pointer where its keys land', () => {
    expect(parseText('s:\n  <<: {a: 1, a: 2}\n').diagnostics).toMatchObject([
      { code: 'yaml-duplicate-key', line: 2, column: 14, pointer: '/s/a' },
    ]);
  });
});

describe('parseDefinition: nesting', () => {
  it('accepts 64 levels and rejects 65 at the first collection too deep', () => {
    expect(parseText(flowNest(63)).diagnostics).toEqual([]);
    expect(parseText(flowNest(64)).diagnostics).toMatchObject([
      { code: 'yaml-too-deep', line: 1, column: 67, message: 'nesting is deeper than 64 levels' },
    ]);
    expect(parseText(blockNest(64)).diagnostics).toEqual([]);
    expect(where(parseText(blockNest(65)).diagnostics)).toEqual(['yaml-too-deep@65:65']);
  });

  it('stops absurd nesting before yaml recurses, with the same position', () => {
    expect(where(parseText(flowNest(400_000)).diagnostics)).toEqual(['yaml-too-deep@1:67']);
    expect(where(parseText('{'.repeat(500_000)).diagnostics)).toEqual(['yaml-too-deep@1:65']);
    expect(where(parseText(blockNest(1_000)).diagnostics)).toEqual(['yaml-too-deep@65:65']);
  });

  it('counts what an alias brings in at the place it is used', () => {
    const text = `a: &a ${'['.repeat(40)}${']'.repeat(40)}\nb: ${'['.repeat(30)}*a${']'.repeat(30)}\n`;
    expect(parseText(text).diagnostics).toMatchObject([
      {
        code: 'yaml-too-deep',
        line: 2,
        column: 34,
        message: 'alias *a nests the document 71 levels deep; the limit is 64',
      },
    ]);
  });

  it('counts a merged mapping at the level of the mapping it joins', () => {
    const limits = { maxDepth: 2 };
    const parse = (text: string) =>
      where(parseDefinition('w.yaml', encoder.encode(text), limits).diagnostics);
    expect(parse('a: &a {x: 1}\nb:\n  <<: *a\n  <<: {y: 2}\n')).toEqual([]);
    expect(parse('a: &a {x: 1}\nb: *a\n')).toEqual([]);
    expect(parse('a: &a {x: 1}\nb: [*a]\n')).toEqual(['yaml-too-deep@2:5']);
  });

  it('honours a custom depth limit', () => {
    const text = 'a:\n  b:\n    c: 1\n';
    expect(parseDefinition('w.yaml', encoder.encode(text), { maxDepth: 3 }).diagnostics).toEqual([]);
    expect(where(parseDefinition('w.yaml', encoder.encode(text), { maxDepth: 2 }).diagnostics)).toEqual([
      'yaml-too-deep@3:5',
    ]);
  });
});

describe('parseDefinition: never prints', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('keeps yaml quiet on warnings, odd keys and tags', () => {
    const spies = [
      vi.spyOn(console, 'log'),
      vi.spyOn(console, 'warn'),
      vi.spyOn(console, 'error'),
      vi.spyOn(process, 'emitWarning'),
    ];
    for (const text of [
      '%YAML 1.3\n---\na: 1\n',
      '? [a]\n: 1\n',
      'a: !foo x\n',
      'a: 1\n---\nb: 2\n',
      'a: *x\n',
    ]) {
      parseText(text);
    }
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });
});
