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
import * as reference from './rules/reference/diagnostic.js';

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

describe('pointer and sort helpers give what they gave before the allocation work (differential, property-based)', () => {
  it('escapePointerSegment and joinPointer', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('', '/steps/0', '/a~1b'),
        fc.array(segment, { maxLength: 5 }),
        (base, segments) => {
          for (const s of segments) expect(escapePointerSegment(s)).toBe(reference.escapePointerSegment(s));
          expect(joinPointer(base, ...segments)).toBe(reference.joinPointer(base, ...segments));
        },
      ),
      { numRuns: runs(3000) },
    );
  });

  it('splitPointer, on joined pointers and on any text', () => {
    fc.assert(
      fc.property(fc.array(segment, { maxLength: 5 }), fc.string(), (segments, text) => {
        const pointer = joinPointer('', ...segments);
        expect(splitPointer(pointer)).toEqual(segments.map(String));
        expect(splitPointer(pointer)).toEqual(reference.splitPointer(pointer));
        for (const other of [text, `/${text}`])
          expect(splitPointer(other)).toEqual(reference.splitPointer(other));
      }),
      { numRuns: runs(3000) },
    );
  });

  it('sortDiagnostics, duplicates included, and never the same array back', () => {
    fc.assert(
      fc.property(fc.array(diagnostic, { maxLength: 6 }), (diagnostics) => {
        const sorted = sortDiagnostics(diagnostics);
        expect(sorted).toEqual(reference.sortDiagnostics(diagnostics));
        expect(sorted).not.toBe(diagnostics);
      }),
      { numRuns: runs(2000) },
    );
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
