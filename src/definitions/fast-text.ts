/**
 * The text half of the fast path's proof (see fast-parse.ts): constructs where js-yaml and yaml may read the same
 * text differently, or where yaml reports something js-yaml lets pass, found in one pass over the char codes.
 * Conservative on purpose: a false alarm only sends a file down the (correct) slow path.
 * What can only be judged per node (numbers, anchors, a `#` glued to a value, collections as keys) is checked
 * while js-yaml parses.
 *
 * The obstacles, reported first to last by position in the text:
 * - control characters (U+0000–U+001F, U+007F–U+009F; tabs too: indentation rules differ) other than LF and a CR
 *   before LF, a BOM and the non-ASCII line breaks U+2028/U+2029;
 * - `<<` (merge keys: a plain key to js-yaml's core schema) and `__proto__`;
 * - a backslash not starting one of the common escapes (read in pairs, so `\\\\` is one escape, not the start of
 *   another);
 * - at a node's start (after nothing, a blank, a line break or a flow indicator; `!` also after `:`): `!` where a
 *   tag can start, `?` (complex key) or `:` (empty key) standing alone;
 * - a block scalar with an indentation indicator (`|2`: the parsers trim its blank lines differently);
 * - a `#` right after `[`, `,`, `:` or a `{` (js-yaml reads a comment there, yaml an error; `{{#if}}` passes: a
 *   `{{` in flow is a mapping used as a key, which fast-parse.ts refuses anyway);
 * - a directive (`%`) or a document marker at a line's start (js-yaml takes `---` as one whatever follows);
 * - a comment line less indented than the next line with content (blank and comment lines skipped): between a key
 *   (or `-`) and a value on a later line, a comment not indented past the key makes yaml read the value apart
 *   (`s:`, `#c`, `  |`, `r: 1` is an error to yaml, `s: "", r: 1` to js-yaml; one level down, yaml reads
 *   `r: 1` into the block scalar);
 * - a comment line less indented than a blank line right before it (at a block scalar's start, yaml reads the
 *   `#` line as content indented less than a leading empty line, an error; js-yaml ends the scalar there);
 * - last, only when nothing else stands in the way, a line over MAX_LINE characters.
 * "Blank" is JavaScript's `\s` (Unicode spaces included): the rules were first written as one regular expression,
 * whose answers, description text included, the tests hold this scanner to.
 */

import { isUnicodeSpace } from '../derive/fast-template.js';

/** Implicit keys longer than 1024 characters are an error to yaml; a key never spans lines, so no line may. */
const MAX_LINE = 1000;

const TAB = 0x09;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const BANG = 0x21;
const QUOTE = 0x22;
const HASH = 0x23;
const PERCENT = 0x25;
const COMMA = 0x2c;
const DASH = 0x2d;
const DOT = 0x2e;
const SLASH = 0x2f;
const COLON = 0x3a;
const LESS = 0x3c;
const GREATER = 0x3e;
const QUESTION = 0x3f;
const OPEN_BRACKET = 0x5b;
const BACKSLASH = 0x5c;
const CLOSE_BRACKET = 0x5d;
const UNDERSCORE = 0x5f;
const LETTER_N = 0x6e;
const LETTER_T = 0x74;
const OPEN_BRACE = 0x7b;
const PIPE = 0x7c;
const CLOSE_BRACE = 0x7d;
const DELETE = 0x7f;
const LINE_SEPARATOR = 0x2028;
const PARAGRAPH_SEPARATOR = 0x2029;
const BOM = 0xfeff;

/**
 * 1 for the ASCII characters that start no obstacle and end no line: most of any text, passed over after one
 * look-up (that, not the switch below, is what makes the scan cheap).
 */
const INERT = new Uint8Array(0x80).fill(1);
INERT.fill(0, 0, SPACE);
for (const c of [DELETE, LESS, UNDERSCORE, BACKSLASH, BANG, QUESTION, COLON, OPEN_BRACKET, COMMA, OPEN_BRACE])
  INERT[c] = 0;
for (const c of [PIPE, GREATER, PERCENT, DOT, DASH, HASH]) INERT[c] = 0;

const ESCAPE = 'a backslash other than \\n, \\t, \\", \\\\ or \\/';
const COMMENT = 'a comment right after [ , : or {';
const COMMENT_LINE = 'a comment line less indented than the next line with content';
const BLANK_BEFORE_COMMENT = 'a comment line less indented than a blank line before it';

/**
 * Why the text must take the slow path, or undefined when nothing in it stands in the way. A single `---` before
 * the document (after comments at most, with nothing after it on its line) is fine; any other marker is not.
 */
export function fastPathObstacle(text: string): string | undefined {
  const length = text.length;
  let lineStart = 0;
  let longLine = false;
  // For comment lines: where the next line with content starts (its first non-space character), and its indent.
  let contentAt = -1;
  let contentIndent = 0;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (
      c < 0x80 ? INERT[c] === 1 : c >= 0xa0 && c !== BOM && c !== LINE_SEPARATOR && c !== PARAGRAPH_SEPARATOR
    )
      continue;
    if (c < SPACE) {
      if (c === LF) {
        if (i - lineStart > MAX_LINE) longLine = true;
        lineStart = i + 1;
        continue;
      }
      if (c === CR && text.charCodeAt(i + 1) === LF) continue;
      return c === TAB ? 'a tab' : character(c);
    }
    if (c >= DELETE) return character(c); // the other controls, the BOM and U+2028/U+2029
    switch (c) {
      case LESS:
        if (text.charCodeAt(i + 1) === LESS) return 'a merge key (<<)';
        break;
      case UNDERSCORE:
        if (text.charCodeAt(i + 1) === UNDERSCORE && text.startsWith('proto__', i + 2)) return '__proto__';
        break;
      case BACKSLASH:
        if (!isCommonEscape(text.charCodeAt(i + 1))) return ESCAPE;
        i++; // the pair is one escape: its second character starts nothing
        break;
      case BANG:
        if (i === 0 || isNodeStartAfter(text.charCodeAt(i - 1)) || text.charCodeAt(i - 1) === COLON)
          return 'a tag (!)';
        break;
      case QUESTION:
        if (standsAlone(text, i)) return 'a complex key (?)';
        break;
      case COLON:
        if (standsAlone(text, i)) return 'an empty key (:)';
        if (text.charCodeAt(i + 1) === HASH) return COMMENT;
        break;
      case OPEN_BRACKET:
      case COMMA:
        if (text.charCodeAt(i + 1) === HASH) return COMMENT;
        break;
      case OPEN_BRACE:
        if (text.charCodeAt(i + 1) === HASH && text.charCodeAt(i - 1) !== OPEN_BRACE) return COMMENT;
        break;
      case HASH:
        if (!indentedOnly(text, lineStart, i)) break;
        if (blankLineDeeperBefore(text, lineStart, i - lineStart)) return BLANK_BEFORE_COMMENT;
        // The comment lines in a run share their next content line: found once, so the scan stays linear.
        if (contentAt < i) {
          contentAt = nextContent(text, i);
          contentIndent = contentAt;
          while (contentIndent > 0 && text.charCodeAt(contentIndent - 1) === SPACE) contentIndent--;
          contentIndent = contentAt - contentIndent;
        }
        if (contentAt < length && contentIndent > i - lineStart) return COMMENT_LINE;
        break;
      case PIPE:
      case GREATER: {
        const end = indentationIndicatorEnd(text, i);
        if (end !== 0) return `a block scalar indentation indicator (${text.slice(i, end)})`;
        break;
      }
      case PERCENT:
        if (atLineStart(text, i)) return 'a directive (%)';
        break;
      case DOT:
        if (
          atLineStart(text, i) &&
          text.charCodeAt(i + 1) === DOT &&
          text.charCodeAt(i + 2) === DOT &&
          (i + 3 === length || isBlank(text.charCodeAt(i + 3)))
        )
          return 'a document end marker (...)';
        break;
      case DASH:
        // A second marker fails the first test too: the first one's line is neither blank nor a comment.
        if (atLineStart(text, i) && text.charCodeAt(i + 1) === DASH && text.charCodeAt(i + 2) === DASH) {
          if (!blankOrCommentLines(text, i)) return 'a document marker (---) after content';
          if (!blankOrCommentRest(text, i + 3)) return 'content after ---';
        }
        break;
    }
  }
  return longLine || length - lineStart > MAX_LINE ? 'a line over 1,000 characters' : undefined;
}

function character(code: number): string {
  return `the character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** JavaScript's `\s`: ASCII blanks, line breaks, the Unicode space separators and the BOM. NaN (no char): false. */
function isBlank(c: number): boolean {
  return c < 0x80 ? c === SPACE || (c >= TAB && c <= CR) : isUnicodeSpace(c);
}

function isNodeStartAfter(previous: number): boolean {
  return previous === OPEN_BRACKET || previous === OPEN_BRACE || previous === COMMA || isBlank(previous);
}

function isLineBreak(c: number): boolean {
  return c === LF || c === CR || c === LINE_SEPARATOR || c === PARAGRAPH_SEPARATOR;
}

/** After LF only: a CR, U+2028 or U+2029 before i (the other line breaks) has already been reported. */
function atLineStart(text: string, i: number): boolean {
  return i === 0 || text.charCodeAt(i - 1) === LF;
}

function isCommonEscape(c: number): boolean {
  return c === LETTER_N || c === LETTER_T || c === QUOTE || c === BACKSLASH || c === SLASH;
}

/** A `?` or `:` at i at a node's start, followed by a blank, `,`, `]`, `}` or the end of the text. */
function standsAlone(text: string, i: number): boolean {
  if (i !== 0 && !isNodeStartAfter(text.charCodeAt(i - 1))) return false;
  const next = text.charCodeAt(i + 1);
  return (
    i + 1 === text.length || next === COMMA || next === CLOSE_BRACKET || next === CLOSE_BRACE || isBlank(next)
  );
}

/** Whether only spaces stand between lineStart and i. */
function indentedOnly(text: string, lineStart: number, i: number): boolean {
  for (let j = i - 1; j >= lineStart; j--) if (text.charCodeAt(j) !== SPACE) return false;
  return true;
}

/**
 * Whether one of the blank lines (spaces, then LF or CR LF) right before lineStart holds more than `indent` spaces:
 * at the start of a block scalar, yaml reads the `#` line after them as the first line of content, indented less
 * than a leading empty line (an error), where js-yaml ends the scalar and reads a comment.
 */
function blankLineDeeperBefore(text: string, lineStart: number, indent: number): boolean {
  let end = lineStart - 1; // the LF that ends the line before, if any
  while (end >= 0) {
    const stop = text.charCodeAt(end - 1) === CR ? end - 1 : end;
    let j = stop;
    while (j > 0 && text.charCodeAt(j - 1) === SPACE) j--;
    if (j > 0 && text.charCodeAt(j - 1) !== LF) return false;
    if (stop - j > indent) return true;
    end = j - 1;
  }
  return false;
}

/**
 * Where the first line with content after the line holding i starts (its first non-space character), skipping
 * blank lines (spaces, then LF or CR LF) and comment lines; text.length when there is none. Lines end at LF.
 */
function nextContent(text: string, i: number): number {
  let start = text.indexOf('\n', i) + 1;
  while (start !== 0) {
    let j = start;
    while (text.charCodeAt(j) === SPACE) j++;
    const c = text.charCodeAt(j);
    if (c !== HASH && c !== LF && (c !== CR || text.charCodeAt(j + 1) !== LF)) return j;
    start = text.indexOf('\n', j) + 1;
  }
  return text.length;
}

/** For `|` or `>` at i: the end of `|2`, `|2-`, `|-2` (and the like) standing alone as a word, else 0. */
function indentationIndicatorEnd(text: string, i: number): number {
  if (i !== 0 && !isBlank(text.charCodeAt(i - 1))) return 0;
  const first = text.charCodeAt(i + 1);
  const second = text.charCodeAt(i + 2);
  let end: number;
  if (isIndentDigit(first)) end = isChomping(second) ? i + 3 : i + 2;
  else if (isChomping(first) && isIndentDigit(second)) end = i + 3;
  else return 0;
  return end === text.length || isBlank(text.charCodeAt(end)) ? end : 0;
}

function isIndentDigit(c: number): boolean {
  return c >= 0x31 && c <= 0x39;
}

function isChomping(c: number): boolean {
  return c === DASH || c === 0x2b;
}

/** Whether every line (split at LF) before `end` is blank or a comment: ` *(#…)?` and an optional CR. */
function blankOrCommentLines(text: string, end: number): boolean {
  let i = 0;
  while (i < end) {
    while (i < end && text.charCodeAt(i) === SPACE) i++;
    i = lineRest(text, i, end);
    if (i < end) {
      if (text.charCodeAt(i) !== LF) return false;
      i++;
    }
  }
  return true;
}

/** Whether what follows a `---` on its line is nothing, or blanks and an optional comment, then an optional CR. */
function blankOrCommentRest(text: string, start: number): boolean {
  const newline = text.indexOf('\n', start);
  const end = newline === -1 ? text.length : newline;
  let i = start;
  if (i < end && text.charCodeAt(i) === SPACE) {
    while (i < end && text.charCodeAt(i) === SPACE) i++;
  } else if (i < end && text.charCodeAt(i) === HASH) return false; // a comment needs a blank before it
  return lineRest(text, i, end) === end;
}

/** After a line's blanks: skips an optional comment (up to any line break) and a CR; returns where it stopped. */
function lineRest(text: string, start: number, end: number): number {
  let i = start;
  if (i < end && text.charCodeAt(i) === HASH) {
    i++;
    while (i < end && !isLineBreak(text.charCodeAt(i))) i++;
  }
  if (i < end && text.charCodeAt(i) === CR) i++;
  return i;
}
