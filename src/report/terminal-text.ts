/**
 * Making untrusted text (YAML sources, messages quoting user values) safe and measurable for a terminal:
 * control characters become visible symbols so a definition cannot inject escape codes or reorder a line
 * (bidi overrides, "Trojan source"), and each grapheme gets a display width for caret alignment.
 */

/**
 * C0 controls, DEL, C1 controls, bidi embeddings/overrides/isolates, lone surrogates: `\p{Cc}` and `\p{Cs}` written
 * as their ranges (both fixed by Unicode), since V8 looks each `\p{…}` up in ICU as it compiles the pattern: ~3 M
 * instructions of every run that prints (a test holds the two equal).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it finds
export const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u{d800}-\u{dfff}\u202a-\u202e\u2066-\u2069]/gu;

function visible(ch: string): string {
  const code = ch.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code); // ␀…␟ (Control Pictures)
  if (code === 0x7f) return '\u2421'; // ␡
  return '\ufffd';
}

/** Replaces unsafe characters with visible stand-ins; characters in `keep` (e.g. `\n`) pass through. */
export function sanitizeTerminalText(text: string, keep = ''): string {
  return text.replace(UNSAFE, (ch) => (keep.includes(ch) ? ch : visible(ch)));
}

export interface Glyph {
  /** What to print (tabs expanded to spaces, controls made visible). */
  text: string;
  /** Terminal cells it occupies. */
  width: number;
  /** UTF-16 offset of its first code unit in the original line. */
  offset: number;
  /** UTF-16 code units it covers in the original line. */
  length: number;
}

export const TAB_WIDTH = 4;

// Made on first use: building one loads ICU's break rules (~8 ms), which a run with nothing to frame never needs.
let segmenter: Intl.Segmenter | undefined;
// Also made on first use: V8 looks each `\p{…}` up in ICU as it creates the pattern (~2 M instructions).
let widthPatterns: { emoji: RegExp; zeroWidth: RegExp } | undefined;

// East Asian Wide and Fullwidth blocks (UAX #11), the common ones: close enough for a caret under a line.
const WIDE_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x1b000, 0x1b2ff],
  [0x1f200, 0x1f2ff],
  [0x20000, 0x3fffd],
];

function isWideCodePoint(cp: number): boolean {
  return WIDE_RANGES.some(([from, to]) => cp >= from && cp <= to);
}

function graphemeWidth(segment: string): number {
  widthPatterns ??= {
    emoji: /\p{Emoji_Presentation}|\p{Extended_Pictographic}\ufe0f/u,
    zeroWidth: /^[\p{Mn}\p{Me}\p{Cf}]+$/u,
  };
  if (widthPatterns.zeroWidth.test(segment)) return 0;
  if (widthPatterns.emoji.test(segment)) return 2;
  const first = segment.codePointAt(0) ?? 0;
  return isWideCodePoint(first) ? 2 : 1;
}

/** Splits one line (no line breaks) into printable glyphs, expanding tabs to the next tab stop. */
export function layoutLine(line: string): Glyph[] {
  const glyphs: Glyph[] = [];
  let column = 0;
  segmenter ??= new Intl.Segmenter('en', { granularity: 'grapheme' });
  for (const { segment, index } of segmenter.segment(line)) {
    let text: string;
    let width: number;
    if (segment === '\t') {
      width = TAB_WIDTH - (column % TAB_WIDTH);
      text = ' '.repeat(width);
    } else {
      text = sanitizeTerminalText(segment);
      width = text === segment ? graphemeWidth(segment) : text.length;
    }
    glyphs.push({ text, width, offset: index, length: segment.length });
    column += width;
  }
  return glyphs;
}

/** Total cells of a laid-out line. */
export function glyphsWidth(glyphs: readonly Glyph[]): number {
  return glyphs.reduce((sum, g) => sum + g.width, 0);
}

/**
 * Display cell (0-based) where a 1-based UTF-16 column starts. A column inside a grapheme (a surrogate pair,
 * a combining sequence) maps to that grapheme's start; a column past the end of the line, to the end.
 */
export function displayColumn(glyphs: readonly Glyph[], column: number): number {
  const offset = column - 1;
  let cells = 0;
  for (const g of glyphs) {
    if (offset < g.offset + g.length) return cells;
    cells += g.width;
  }
  return cells;
}
