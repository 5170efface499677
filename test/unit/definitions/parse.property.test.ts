import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDefinition } from '../../../src/definitions/parse.js';
import type { ParseResult } from '../../../src/definitions/types.js';
import { findInvalidUtf8 } from '../../../src/definitions/utf8.js';
import type { Span } from '../../../src/diagnostic.js';
import { runs } from '../../helpers/fc-runs.js';

const encoder = new TextEncoder();
/** Lenient decode, BOM dropped: the text positions refer to (up to the first bad byte, for broken files). */
const decoder = new TextDecoder('utf-8');

function expectInside(span: Span, lines: readonly string[]): void {
  expect(span.line).toBeGreaterThanOrEqual(1);
  expect(span.column).toBeGreaterThanOrEqual(1);
  expect(span.line).toBeLessThanOrEqual(lines.length);
  expect(span.column).toBeLessThanOrEqual((lines[span.line - 1] ?? '').length + 1);
  expect(span.endLine).toBeGreaterThanOrEqual(span.line);
  expect(span.endLine).toBeLessThanOrEqual(lines.length);
  expect(span.endColumn).toBeLessThanOrEqual((lines[span.endLine - 1] ?? '').length + 1);
  if (span.endLine === span.line) expect(span.endColumn).toBeGreaterThanOrEqual(span.column);
}

/** The contract every input must meet: no throw, a definition or an error, every position inside the file. */
function checkContract(bytes: Uint8Array): ParseResult {
  const result = parseDefinition('p.yaml', bytes);
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  expect(result.definition === undefined).toBe(errors.length > 0);
  const lines = decoder.decode(bytes).split('\n');
  for (const d of result.diagnostics) {
    expectInside(d, lines);
    expect(d.file).toBe('p.yaml');
    expect(d.pointer === '' || d.pointer.startsWith('/')).toBe(true);
  }
  if (result.definition) {
    const value = result.definition.value;
    // Plain JSON data: survives a JSON round trip unchanged (no Dates, no NaN, no cycles).
    expect(JSON.parse(JSON.stringify(value))).toEqual(value);
  }
  return result;
}

/** Fragments that exercise YAML's structure: indentation (spaces and tabs), flow, anchors, tags, quotes, markers. */
const fragment = fc.constantFrom(
  '  ',
  '    ',
  '\t',
  '- ',
  '? ',
  ': ',
  'key',
  'name',
  'steps',
  '"',
  "'",
  '"q"',
  "'s'",
  '[',
  ']',
  '{',
  '}',
  ', ',
  '&a ',
  '&b ',
  '*a',
  '*b',
  '<<: ',
  '!!str ',
  '!tag ',
  '!!binary ',
  '|',
  '>-',
  '# c',
  '1',
  '1.5',
  '.inf',
  '~',
  'null',
  'true',
  '---',
  '...',
  '%YAML 1.2',
  '%TAG ! tag:x,1:',
  '\\',
  '\u00e9',
  '\ud83d\ude00',
  '\r',
  ' ',
);
const yamlish = fc
  .array(fc.array(fragment, { maxLength: 8 }), { maxLength: 12 })
  .map((lines) => lines.map((parts) => parts.join('')).join('\n'));

/** Random but well-formed nested mappings and lists, written in block or flow style, sometimes with aliases. */
const tree: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.boolean(), fc.constant(null)),
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(fc.string({ minLength: 1, maxLength: 5 }), tie('node'), { maxKeys: 4 }),
  ),
})).node;

/** Writes JSON-compatible data as block YAML (or as one flow line: JSON is YAML 1.2). */
function toYaml(value: unknown, indent = ''): string[] {
  const nested = (v: unknown) => v !== null && typeof v === 'object' && Object.keys(v).length > 0;
  const entries = Array.isArray(value)
    ? value.map((v) => ['-', v] as const)
    : Object.entries(value as object).map(([k, v]) => [`${JSON.stringify(k)}:`, v] as const);
  return entries.flatMap(([lead, v]) =>
    nested(v) ? [`${indent}${lead}`, ...toYaml(v, `${indent}  `)] : [`${indent}${lead} ${JSON.stringify(v)}`],
  );
}

describe('parseDefinition never throws and always answers (property-based)', () => {
  it('on arbitrary strings', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (text) => {
        checkContract(encoder.encode(text));
      }),
      { numRuns: runs(400) },
    );
  });

  it('on arbitrary bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        checkContract(bytes);
      }),
      { numRuns: runs(400) },
    );
  });

  it('on YAML-ish texts with nesting, anchors, tags, tabs and quotes', () => {
    fc.assert(
      fc.property(yamlish, (text) => {
        const result = checkContract(encoder.encode(text));
        if (result.definition) {
          const pointers = ['', '/name', '/steps/0', '/key/0/a', '/~0/~1', '/-'];
          const lines = result.definition.text.split('\n');
          for (const pointer of pointers) expectInside(result.definition.locate(pointer), lines);
        }
      }),
      { numRuns: runs(600) },
    );
  });

  it('reads generated documents back to the data they were written from', () => {
    const root = fc.dictionary(fc.string({ minLength: 1, maxLength: 5 }), tree, { minKeys: 1, maxKeys: 4 });
    fc.assert(
      fc.property(root, fc.boolean(), (value, flow) => {
        const text = flow ? JSON.stringify(value) : toYaml(value).join('\n');
        const result = checkContract(encoder.encode(text));
        expect(result.diagnostics).toEqual([]);
        expect(result.definition?.value).toEqual(value);
      }),
      { numRuns: runs(200) },
    );
  });

  it('locate never throws and stays inside the file, for any pointer', () => {
    const definition = parseDefinition(
      'p.yaml',
      encoder.encode('name: x\nsteps:\n  - a: &s {b: [1, 2]}\n  - *s\n  - <<: *s\n    c: "~/"\nk~/: v\n'),
    ).definition!;
    const lines = definition.text.split('\n');
    const segment = fc.oneof(
      fc.constantFrom('steps', '0', '1', '2', 'a', 'b', 'c', 'k~0~1', '~', '-', '01'),
      fc.string(),
    );
    const pointer = fc.oneof(
      fc.string(),
      fc.array(segment, { maxLength: 6 }).map((s) => s.map((x) => `/${x}`).join('')),
    );
    fc.assert(
      fc.property(pointer, fc.constantFrom<'value' | 'key'>('value', 'key'), (p, target) => {
        expectInside(definition.locate(p, target), lines);
      }),
      { numRuns: runs(500) },
    );
  });
});

describe('findInvalidUtf8 agrees with the WHATWG decoder', () => {
  const fatal = new TextDecoder('utf-8', { fatal: true });
  const valid = (bytes: Uint8Array) => {
    try {
      fatal.decode(bytes);
      return true;
    } catch {
      return false;
    }
  };

  it('on arbitrary bytes, and the prefix before the reported byte is valid', () => {
    // Bias towards multi-byte leads and continuation bytes, where the edge cases are.
    const byte = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.integer({ min: 0x80, max: 0xf5 }));
    fc.assert(
      fc.property(fc.array(byte, { maxLength: 40 }), (array) => {
        const bytes = Uint8Array.from(array);
        const bad = findInvalidUtf8(bytes);
        expect(bad === -1).toBe(valid(bytes));
        if (bad >= 0) {
          expect(valid(bytes.subarray(0, bad))).toBe(true);
          // Nothing that starts at the reported byte decodes: it really is where the trouble begins.
          expect(valid(bytes.subarray(bad, bad + 4))).toBe(false);
        }
      }),
      { numRuns: runs(2000) },
    );
  });

  it('on the classic cases', () => {
    const cases: Array<[number[], number]> = [
      [[0x61, 0xc3, 0xa9], -1],
      [[0xf0, 0x9f, 0x98, 0x80], -1],
      [[0x61, 0xc0, 0x80], 1], // overlong NUL
      [[0xed, 0xa0, 0x80], 0], // UTF-16 surrogate
      [[0xf4, 0x90, 0x80, 0x80], 0], // above U+10FFFF
      [[0x61, 0x62, 0xe2, 0x82], 2], // truncated at the end
      [[0x80], 0], // lone continuation byte
      [[0xff], 0],
    ];
    for (const [bytes, expected] of cases) expect(findInvalidUtf8(Uint8Array.from(bytes))).toBe(expected);
  });
});
