import { describe, expect, it } from 'vitest';
import { createStyle } from '../../../src/report/style.js';
import { displayColumn, layoutLine, sanitizeTerminalText } from '../../../src/report/terminal-text.js';

describe('createStyle', () => {
  it('returns text unchanged without color', () => {
    const style = createStyle(false);
    for (const paint of Object.values(style)) expect(paint('x')).toBe('x');
  });

  it('wraps text in open and close codes with color, and leaves empty text alone', () => {
    const style = createStyle(true);
    expect(style.red('x')).toBe('\x1b[31mx\x1b[39m');
    expect(style.bold('x')).toBe('\x1b[1mx\x1b[22m');
    expect(style.red('')).toBe('');
  });

  it('re-opens an outer style that an inner one with the same reset code closed', () => {
    const { bold, dim } = createStyle(true);
    // Without the re-open, "after" would lose its boldness at the inner \x1b[22m.
    expect(bold(`a${dim('b')}after`)).toBe('\x1b[1ma\x1b[2mb\x1b[22m\x1b[1mafter\x1b[22m');
  });
});

describe('terminal text', () => {
  it('makes controls, bidi overrides and lone surrogates visible, keeping what the caller asks for', () => {
    expect(sanitizeTerminalText('a\x1b[0m\x7f\x85\u202e\ud800b')).toBe('a\u241b[0m\u2421\ufffd\ufffd\ufffdb');
    expect(sanitizeTerminalText('a\nb\tc', '\n')).toBe('a\nb\u2409c');
    expect(sanitizeTerminalText('名前 🎉 é')).toBe('名前 🎉 é');
  });

  it('measures graphemes in cells and maps UTF-16 columns to cells', () => {
    const glyphs = layoutLine('e\u0301名🎉👍🏽x');
    expect(glyphs.map((g) => [g.text, g.width])).toEqual([
      ['e\u0301', 1],
      ['名', 2],
      ['🎉', 2],
      ['👍🏽', 2],
      ['x', 1],
    ]);
    expect([1, 3, 4, 5, 6, 7, 10].map((c) => displayColumn(glyphs, c))).toEqual([0, 1, 3, 3, 5, 5, 7]);
    expect(displayColumn(glyphs, 99)).toBe(8);
  });

  it('expands tabs to the next stop of four', () => {
    expect(layoutLine('ab\tc\t').map((g) => g.text)).toEqual(['a', 'b', '  ', 'c', '   ']);
  });
});
