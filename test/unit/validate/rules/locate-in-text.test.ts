import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeIncludeText } from '../../../../src/definitions/include-references.js';
import { locateInText } from '../../../../src/validate/rules/string-span.js';

/**
 * The included text as the loader makes it from a file's decoded text (the UTF-8 decoder drops a leading BOM,
 * normalizeIncludeText the rest): what locateInText positions are computed on.
 */
function included(disk: string): string {
  return normalizeIncludeText(disk.startsWith('\uFEFF') ? disk.slice(1) : disk);
}

/** Where `needle` is on disk, as an editor counts: lines split at CRLF or LF, columns after a BOM, 1-based. */
function onDisk(disk: string, needle: string): { line: number; column: number } {
  const lines = (disk.startsWith('\uFEFF') ? disk.slice(1) : disk).split(/\r\n|\n/);
  const line = lines.findIndex((l) => l.includes(needle));
  expect(line).toBeGreaterThanOrEqual(0);
  return { line: line + 1, column: lines[line]!.indexOf(needle) + 1 };
}

/** locateInText for the first `needle` of the included text of `disk`, underlining the needle. */
function locate(disk: string, needle: string) {
  const text = included(disk);
  const offset = text.indexOf(needle);
  expect(offset).toBeGreaterThanOrEqual(0);
  return locateInText(text, offset, needle.length);
}

describe('locateInText (positions in an included file)', () => {
  it('LF: the first line, a middle line and the last line', () => {
    const disk = '{{a}} first\nthen {{b}}\n  last {{c}}\n';
    expect(locate(disk, '{{a')).toEqual({ line: 1, column: 1, endLine: 1, endColumn: 4 });
    expect(locate(disk, '{{b')).toEqual({ line: 2, column: 6, endLine: 2, endColumn: 9 });
    expect(locate(disk, '{{c')).toEqual({ line: 3, column: 8, endLine: 3, endColumn: 11 });
  });

  it('CRLF: the same lines and columns as the LF file (a CR ends a line, it is in no column)', () => {
    const lf = '<p>\n  {{#if x}}\n    {{name}\n</p>\n';
    const crlf = lf.replace(/\n/g, '\r\n');
    for (const needle of ['<p>', '{{#if', '{{name}', '</p>']) {
      expect(locate(crlf, needle)).toEqual(locate(lf, needle));
      expect(locate(crlf, needle)).toMatchObject(onDisk(crlf, needle));
    }
    expect(locate(crlf, '{{name}')).toEqual({ line: 3, column: 5, endLine: 3, endColumn: 12 });
  });

  it('BOM: column 1 is the first character after it, on the first line only', () => {
    const disk = '\uFEFF{{x}} and\r\n{{y}}\r\n';
    expect(locate(disk, '{{x')).toEqual({ line: 1, column: 1, endLine: 1, endColumn: 4 });
    expect(locate(disk, 'and')).toMatchObject({ line: 1, column: 7 });
    expect(locate(disk, '{{y')).toEqual({ line: 2, column: 1, endLine: 2, endColumn: 4 });
  });

  it('tabs and characters outside the BMP count as the UTF-16 units they are', () => {
    const disk = '\t\t{{a}}\n😀 {{b}}\n';
    expect(locate(disk, '{{a')).toMatchObject({ line: 1, column: 3 });
    expect(locate(disk, '{{b')).toMatchObject({ line: 2, column: 4 });
  });

  it('blank lines and a text that starts with a line break', () => {
    expect(locate('\n\n\n{{x}}\n', '{{x')).toEqual({ line: 4, column: 1, endLine: 4, endColumn: 4 });
    expect(locateInText('\nx', 0)).toEqual({ line: 1, column: 1, endLine: 1, endColumn: 2 });
    expect(locateInText('\nx', 1)).toEqual({ line: 2, column: 1, endLine: 2, endColumn: 2 });
  });

  it('an offset at or past the end is just after the last character (Handlebars at the end of the text)', () => {
    const text = included('<p>\n{{#each items}}<li>\n');
    expect(locateInText(text, text.length)).toEqual({ line: 2, column: 20, endLine: 2, endColumn: 21 });
    expect(locateInText(text, text.length + 5)).toEqual(locateInText(text, text.length));
    // A final blank line is a line of the file: the text keeps it (only one line break was dropped).
    const blank = included('a\n\n');
    expect(locateInText(blank, blank.length)).toEqual({ line: 2, column: 1, endLine: 2, endColumn: 2 });
    expect(locateInText('', 0)).toEqual({ line: 1, column: 1, endLine: 1, endColumn: 2 });
  });

  it('a span that would run onto the next line, or past the end, stays on its line', () => {
    expect(locateInText('ab\ncd', 1, 3)).toEqual({ line: 1, column: 2, endLine: 1, endColumn: 3 });
    expect(locateInText('ab\ncd', 4, 10)).toEqual({ line: 2, column: 2, endLine: 2, endColumn: 3 });
    // The line break itself belongs to its line.
    expect(locateInText('ab\ncd', 2)).toEqual({ line: 1, column: 3, endLine: 1, endColumn: 4 });
  });

  it('for any file, LF or CRLF, with or without a BOM, gives the line and column the character has on disk', () => {
    const line = fc.string({
      unit: fc.constantFrom('a', ' ', '\t', '{', '}', 'é', '😀', '\u2028'),
      maxLength: 12,
    });
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 8 }),
        fc.boolean(),
        fc.boolean(),
        fc.boolean(),
        fc.nat(),
        fc.nat(),
        (lines, bom, crlf, finalBreak, pickLine, pickColumn) => {
          const eol = crlf ? '\r\n' : '\n';
          const disk = (bom ? '\uFEFF' : '') + lines.join(eol) + (finalBreak ? eol : '');
          const text = included(disk);
          const i = pickLine % lines.length;
          const j = pickColumn % (lines[i]!.length + 1); // the end of a line (its break) included
          const offset = lines.slice(0, i).reduce((sum, l) => sum + l.length + 1, 0) + j;
          // A last empty line without a break after it is that final break, which the text does not keep.
          fc.pre(offset <= text.length);
          const span = locateInText(text, offset);
          expect(span).toMatchObject({ line: i + 1, column: j + 1, endLine: i + 1 });
          // The same character on disk, where an editor shows it (a line's end stands for its break).
          const diskLines = (bom ? disk.slice(1) : disk).split(eol);
          expect(diskLines[span.line - 1]![span.column - 1] ?? '\n').toBe(text[offset] ?? '\n');
        },
      ),
    );
  });
});
