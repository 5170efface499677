import { describe, expect, it } from 'vitest';
import { sanitizeTerminalText, UNSAFE } from '../../../src/report/terminal-text.js';

describe('the unsafe characters of terminal text', () => {
  it('are exactly \\p{Cc}, \\p{Cs}, the bidi embeddings, overrides and isolates, for every code point', () => {
    const byProperty = /^[\p{Cc}\p{Cs}\u202a-\u202e\u2066-\u2069]$/u;
    const byRange = new RegExp(`^${UNSAFE.source}$`, 'u');
    const differ: number[] = [];
    for (let code = 0; code <= 0x10ffff; code++) {
      const ch = String.fromCodePoint(code);
      if (byProperty.test(ch) !== byRange.test(ch)) differ.push(code);
    }
    expect(differ).toEqual([]);
    // Sanity: both find something, and a surrogate pair (one astral character) is not two lone surrogates.
    expect(byRange.test('\u0085')).toBe(true);
    expect(sanitizeTerminalText('a\ud800b\u{1f600}\u202e')).toBe('a\ufffdb\u{1f600}\ufffd');
  });
});
