import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type Diagnostic,
  escapePointerSegment,
  joinPointer,
  sortDiagnostics,
  splitPointer,
} from '../../src/diagnostic.js';
import { runs } from '../helpers/fc-runs.js';

/** Segments full of the two characters RFC 6901 escapes, and of what looks like an escape already. */
const segment = fc.oneof(
  fc.nat(30),
  fc
    .array(fc.constantFrom('~', '/', '0', '1', '~0', '~1', 'a', 'steps', '', 'é'), { maxLength: 5 })
    .map((parts) => parts.join('')),
  fc.string(),
);

const diagnostic: fc.Arbitrary<Diagnostic> = fc.record({
  code: fc.constantFrom('a-rule', 'b-rule'),
  severity: fc.constantFrom('error', 'warning', 'info'),
  message: fc.constantFrom('one', 'two'),
  file: fc.constantFrom('a.yaml', 'b.yaml'),
  pointer: fc.constantFrom('', '/name', '/steps/0'),
  line: fc.integer({ min: 1, max: 3 }),
  column: fc.integer({ min: 1, max: 3 }),
  endLine: fc.integer({ min: 1, max: 3 }),
  endColumn: fc.integer({ min: 1, max: 3 }),
});

const SEVERITY_RANK = { error: 0, warning: 1, info: 2 } as const;

/** The order sortDiagnostics promises: file, line, column, severity, code. */
function compare(a: Diagnostic, b: Diagnostic): number {
  return (
    (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
    a.line - b.line ||
    a.column - b.column ||
    SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] ||
    (a.code < b.code ? -1 : a.code > b.code ? 1 : 0)
  );
}

/** What makes two diagnostics the same finding. */
const identity = (d: Diagnostic) => JSON.stringify([d.file, d.line, d.column, d.code, d.pointer, d.message]);

describe('pointer and sort helpers (property-based)', () => {
  it('escapePointerSegment leaves no `/` and no `~` that is not an escape, and changes nothing else', () => {
    fc.assert(
      fc.property(segment, (s) => {
        const escaped = escapePointerSegment(s);
        expect(escaped).not.toContain('/');
        expect(escaped).not.toMatch(/~(?![01])/);
        expect(escaped.replace(/~1/g, '').replace(/~0/g, '')).toBe(String(s).replace(/[~/]/g, ''));
      }),
      { numRuns: runs(3000) },
    );
  });

  it('joinPointer appends one escaped segment at a time to its base', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('', '/steps/0', '/a~1b'),
        fc.array(segment, { maxLength: 5 }),
        (base, segments) => {
          const joined = joinPointer(base, ...segments);
          expect(joined).toBe(segments.reduce<string>((p, s) => joinPointer(p, s), base));
          expect(joined.startsWith(base)).toBe(true);
          expect(splitPointer(joined).slice(splitPointer(base).length)).toEqual(segments.map(String));
        },
      ),
      { numRuns: runs(3000) },
    );
  });

  it('splitPointer undoes joinPointer, and reads any text as one segment per slash', () => {
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 5 }), fc.string(), (segments, text) => {
        expect(splitPointer(joinPointer('', ...segments))).toEqual(segments.map(String));
        const pointer = `/${text}`;
        const split = splitPointer(pointer);
        expect(split).toHaveLength(text.split('/').length);
        // Escapes undone `~1` first: `~01` is `~1`, never `/`.
        expect(split).toEqual(text.split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~')));
        // Well-formed pointers (every `~` an escape) go back to the same text.
        if (!/~(?![01])/.test(text)) expect(joinPointer('', ...split)).toBe(pointer);
      }),
      { numRuns: runs(3000) },
    );
  });

  it('sortDiagnostics sorts, drops exact duplicates only, keeps first-seen order among ties, and returns a new array', () => {
    fc.assert(
      fc.property(fc.array(diagnostic, { maxLength: 8 }), (diagnostics) => {
        const sorted = sortDiagnostics(diagnostics);
        expect(sorted).not.toBe(diagnostics);
        for (let i = 1; i < sorted.length; i++) {
          expect(compare(sorted[i - 1] as Diagnostic, sorted[i] as Diagnostic)).toBeLessThanOrEqual(0);
        }
        // One of each finding, the first seen: a stable sort of the de-duplicated input.
        const seen = new Set<string>();
        const firsts = diagnostics.filter((d) => !seen.has(identity(d)) && seen.add(identity(d)));
        expect(sorted).toEqual([...firsts].sort(compare));
        expect(sortDiagnostics(sorted)).toEqual(sorted);
      }),
      { numRuns: runs(2000) },
    );
  });

  it('sortDiagnostics: a table', () => {
    const d = (fields: Partial<Diagnostic>): Diagnostic =>
      ({
        code: 'a-rule',
        severity: 'error',
        message: 'one',
        file: 'a.yaml',
        pointer: '',
        line: 1,
        column: 1,
        ...fields,
      }) as Diagnostic;
    const list = [
      d({ file: 'b.yaml' }),
      d({ line: 2 }),
      d({ column: 2 }),
      d({ severity: 'info', code: 'b-rule' }),
      d({ severity: 'warning', code: 'c-rule' }),
      // The same finding as the b-rule info above with another severity: a duplicate, the first kept.
      d({ severity: 'warning', code: 'b-rule' }),
      d({}),
      d({ message: 'two' }),
      d({}),
      // The same finding with another severity or end is a duplicate too.
      d({ severity: 'info', endLine: 9 }),
    ];
    expect(sortDiagnostics(list)).toEqual([
      d({}),
      d({ message: 'two' }),
      d({ severity: 'warning', code: 'c-rule' }),
      d({ severity: 'info', code: 'b-rule' }),
      d({ column: 2 }),
      d({ line: 2 }),
      d({ file: 'b.yaml' }),
    ]);
  });
});

describe('pointer helpers: the escapes', () => {
  it('escapes ~ before / and undoes them in the opposite order', () => {
    expect(joinPointer('', 'a/b', '~1', 0)).toBe('/a~1b/~01/0');
    expect(splitPointer('/a~1b/~01/0')).toEqual(['a/b', '~1', '0']);
    expect(escapePointerSegment('plain')).toBe('plain');
    expect(splitPointer('')).toEqual([]);
    expect(splitPointer('/')).toEqual(['']);
  });
});
