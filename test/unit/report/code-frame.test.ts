import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Span } from '../../../src/diagnostic.js';
import { buildCodeFrame, MAX_FRAME_WIDTH } from '../../../src/report/code-frame.js';
import { createStyle } from '../../../src/report/style.js';

const plain = { style: createStyle(false), paint: (s: string) => s };

function frame(source: string, span: Partial<Span> & { line: number; column: number }, maxWidth?: number) {
  const full: Span = { endLine: span.line, endColumn: span.column + 1, ...span };
  return buildCodeFrame(source, full, { ...plain, ...(maxWidth === undefined ? {} : { maxWidth }) });
}

/** The source text shown in a `> N | text` row and the caret run of the row after it, as string offsets. */
function caretTarget(rows: string[], line: number): { text: string; start: number; length: number } {
  const index = rows.findIndex((r) => r.startsWith(`> ${line} |`) || new RegExp(`^> +${line} \\|`).test(r));
  const textRow = rows[index] ?? '';
  const caretRow = rows[index + 1] ?? '';
  const prefix = textRow.indexOf('|') + 2;
  const match = /\^+/.exec(caretRow) ?? { index: -1, 0: '' };
  return { text: textRow.slice(prefix), start: match.index - prefix, length: match[0].length };
}

describe('buildCodeFrame', () => {
  it('shows the line with a gutter, one line of context before, and carets under the span', () => {
    expect(frame('a: 1\nbb: 2\n', { line: 2, column: 5, endColumn: 6 })).toEqual([
      '  1 | a: 1',
      '> 2 | bb: 2',
      '    |     ^',
    ]);
  });

  it('skips the context line when it is blank or absent', () => {
    expect(frame('\n  key: 1', { line: 2, column: 3, endColumn: 6 })).toEqual([
      '> 2 |   key: 1',
      '    |   ^^^',
    ]);
    expect(frame('key: 1', { line: 1, column: 1, endColumn: 4 })).toEqual(['> 1 | key: 1', '    | ^^^']);
  });

  it('expands tabs so the carets stay under the text after them', () => {
    const rows = frame('\tkey: value', { line: 1, column: 7, endColumn: 12 });
    expect(rows).toEqual(['> 1 |     key: value', '    |          ^^^^^']);
    // The tab itself is underlined over its whole width.
    expect(frame('\tx', { line: 1, column: 1, endColumn: 2 })[1]).toBe('    | ^^^^');
  });

  it('counts wide characters and emoji as two cells and columns as UTF-16 code units', () => {
    expect(frame('名前: x', { line: 1, column: 5, endColumn: 6 })).toEqual([
      '> 1 | 名前: x',
      '    |       ^',
    ]);
    // 🎉 is two code units: column 4 is the `b` after it, column 3 (inside the pair) maps to the emoji.
    expect(frame('a🎉b', { line: 1, column: 4, endColumn: 5 })[1]).toBe('    |    ^');
    expect(frame('a🎉b', { line: 1, column: 3, endColumn: 4 })[1]).toBe('    |  ^^');
    expect(frame('a🎉b', { line: 1, column: 2, endColumn: 4 })[1]).toBe('    |  ^^');
  });

  it('puts one caret after the line for an empty span or a column past the end', () => {
    expect(frame('key:', { line: 1, column: 5, endColumn: 5 })).toEqual(['> 1 | key:', '    |     ^']);
    expect(frame('key:', { line: 1, column: 40, endColumn: 41 })).toEqual(['> 1 | key:', '    |     ^']);
    expect(frame('key: 1', { line: 1, column: 1, endColumn: 1 })[1]).toBe('    | ^');
  });

  it('clamps the underline to the line', () => {
    expect(frame('ab', { line: 1, column: 1, endColumn: 99 })[1]).toBe('    | ^^');
  });

  it('returns no rows for a span outside the source', () => {
    expect(frame('a\nb', { line: 3, column: 1 })).toEqual([]);
    expect(frame('a', { line: 0, column: 1 })).toEqual([]);
  });

  it('underlines every line of a short multi-line span, from each continuation line\u2019s content', () => {
    const rows = frame('a:\n  b: 1\n  c: 2\n', { line: 2, column: 3, endLine: 3, endColumn: 7 });
    expect(rows).toEqual(['  1 | a:', '> 2 |   b: 1', '    |   ^^^^', '> 3 |   c: 2', '    |   ^^^^']);
  });

  it('treats a span ending at column 1 as ending with the previous line', () => {
    const rows = frame('a: 1\nb: 2\n', { line: 1, column: 1, endLine: 2, endColumn: 1 });
    expect(rows).toEqual(['> 1 | a: 1', '    | ^^^^']);
  });

  it('elides the middle of a long span and widens the gutter for the ellipsis', () => {
    const source = Array.from({ length: 12 }, (_, i) => `k${i + 1}: v`).join('\n');
    const rows = frame(source, { line: 2, column: 1, endLine: 9, endColumn: 6 });
    expect(rows).toEqual([
      '    1 | k1: v',
      '>   2 | k2: v',
      '      | ^^^^^',
      '>   3 | k3: v',
      '      | ^^^^^',
      '  ... |',
      '>   9 | k9: v',
      '      | ^^^^^',
    ]);
  });

  it('drops the \\r of CRLF line ends', () => {
    expect(frame('a: 1\r\nb: 2\r\n', { line: 2, column: 1, endColumn: 2 })).toEqual([
      '  1 | a: 1',
      '> 2 | b: 2',
      '    | ^',
    ]);
  });

  it('shows control and bidi characters as visible symbols, never raw', () => {
    const rows = frame('a\x1b[31mb\u202ec\x00', { line: 1, column: 1, endColumn: 2 });
    expect(rows[0]).toBe('> 1 | a\u241b[31mb\ufffdc\u2400');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: checking that none get through
    expect(rows.join('\n')).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f\u202e]/);
  });

  it('cuts a very long line around the span and marks both cuts', () => {
    const line = `${'a'.repeat(200)}TARGET${'b'.repeat(200)}`;
    const rows = frame(line, { line: 1, column: 201, endColumn: 207 });
    const { text, start, length } = caretTarget(rows, 1);
    expect(text.startsWith('…')).toBe(true);
    expect(text.endsWith('…')).toBe(true);
    expect(text.length).toBeLessThanOrEqual(MAX_FRAME_WIDTH + 2);
    expect(text.slice(start, start + length)).toBe('TARGET');
  });

  it('frames a line of a megabyte as it frames a short one: the same window around the caret', () => {
    for (const at of [1, 3_000, 500_000, 999_990]) {
      const line = `${'a'.repeat(at - 1)}TARGET${'b'.repeat(1_000_000 - at)}`;
      const rows = frame(line, { line: 1, column: at, endColumn: at + 6 });
      const { text, start, length } = caretTarget(rows, 1);
      expect(text.slice(start, start + length), `at ${at}`).toBe('TARGET');
      expect(text.startsWith('…')).toBe(at > 50);
      expect(text.endsWith('…')).toBe(at < 999_900);
      // The same text and caret as the line cut to a few hundred characters around the target.
      const short = `${'a'.repeat(Math.min(at - 1, 300))}TARGET${'b'.repeat(Math.min(1_000_000 - at, 300))}`;
      const column = Math.min(at - 1, 300) + 1;
      if (at > 300 && at < 999_000)
        expect(rows).toEqual(frame(short, { line: 1, column, endColumn: column + 6 }));
    }
  });

  it('cuts only the end when the span is near the start', () => {
    const rows = frame(`key: ${'x'.repeat(300)}`, { line: 1, column: 1, endColumn: 4 });
    const { text, start } = caretTarget(rows, 1);
    expect(text.startsWith('key')).toBe(true);
    expect(text.endsWith('…')).toBe(true);
    expect(start).toBe(0);
  });

  it('keeps the caret under the right character for any ASCII line and column (property)', () => {
    const asciiLine = fc.string({
      unit: fc.constantFrom(...'abc xyz:-_"{}0123456789'),
      minLength: 1,
      maxLength: 400,
    });
    fc.assert(
      fc.property(
        asciiLine,
        fc.nat(),
        fc.nat(12),
        fc.integer({ min: 10, max: 120 }),
        (line, at, len, width) => {
          const column = (at % line.length) + 1;
          const rows = frame(`before\n${line}`, { line: 2, column, endColumn: column + len }, width);
          const target = caretTarget(rows, 2);
          expect(target.length).toBeGreaterThanOrEqual(1);
          // Trailing blanks are trimmed from the row: a caret past the text stands on a space.
          expect(target.text[target.start] ?? ' ').toBe(line[column - 1]);
          expect(target.text.length).toBeLessThanOrEqual(width + 2);
        },
      ),
    );
  });

  it('never throws and never emits control characters for arbitrary text (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 200 }),
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: -3, max: 250 }),
        fc.integer({ min: 0, max: 6 }),
        fc.integer({ min: -3, max: 250 }),
        (source, line, column, extraLines, endColumn) => {
          const rows = buildCodeFrame(source, { line, column, endLine: line + extraLines, endColumn }, plain);
          // biome-ignore lint/suspicious/noControlCharactersInRegex: checking that none get through
          expect(rows.join('\n')).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
          // The first line of the span always gets carets (continuation lines only when not blank).
          const first = rows.findIndex((r) => r.startsWith('>'));
          if (first >= 0) expect(rows[first + 1] ?? '').toMatch(/\^/);
        },
      ),
    );
  });
});
