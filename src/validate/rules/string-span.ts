import { includeAt } from '../../definitions/include-references.js';
import { createPositions } from '../../definitions/positions.js';
import type { LoadedDefinition } from '../../definitions/types.js';
import type { Span } from '../../diagnostic.js';
import type { IncludedSpan } from './types.js';
import { valueAt } from './walk.js';

/**
 * The file position of `length` characters at `offset` inside the string scalar at `pointer` (for Handlebars errors
 * and variable uses). Falls back to the whole scalar's span when the string is not written out there (an alias).
 * When the string is the text of an included file (`content: {file: …}`), the position is in that file.
 */
export function locateInString(
  definition: LoadedDefinition,
  pointer: string,
  offset: number,
  length = 1,
): Span | IncludedSpan {
  const value = valueAt(definition.value, pointer);
  if (typeof value !== 'string') return definition.locate(pointer, 'value');
  const include = includeAt(definition, pointer);
  if (include !== undefined && include.text === value) {
    return { ...locateInText(value, offset, length), file: include.file, includedAt: pointer };
  }
  const scalar = definition.locate(pointer, 'value');
  const positions = createPositions(definition.text);
  const start = positions.offsetOf(scalar.line, scalar.column);
  const end = positions.offsetOf(scalar.endLine, scalar.endColumn);
  const content = contentStart(definition.text, { start, end, value });
  if (content === undefined) return scalar;
  const from = alignIndex(definition.text, value, { begin: content, end, index: offset });
  const to = alignIndex(definition.text, value, {
    begin: content,
    end,
    index: offset + Math.max(length, 1) - 1,
  });
  const first = positions.span(from, from);
  const last = positions.span(to, to);
  const endColumn = last.line === first.line && to >= from ? last.column + 1 : first.column + 1;
  return { line: first.line, column: first.column, endLine: first.line, endColumn };
}

/**
 * The position of `length` characters at `offset` in `text`, on the offset's line (a span that would run onto the
 * next line covers one character); an offset past the end is just after the last character. For an included file
 * this is the position an editor shows for the file on disk: its text only lost a BOM (before column 1), the CR of
 * each CRLF (after a line's last column) and one final line break (after every position).
 */
export function locateInText(text: string, offset: number, length = 1): Span {
  const from = Math.min(Math.max(offset, 0), text.length);
  const to = Math.min(from + Math.max(length, 1) - 1, Math.max(text.length - 1, from));
  // lastIndexOf reads a negative start as 0: at offset 0 there is nothing before to search.
  const lineStart = from === 0 ? 0 : text.lastIndexOf('\n', from - 1) + 1;
  let line = 1;
  for (let at = text.indexOf('\n'); at !== -1 && at < lineStart; at = text.indexOf('\n', at + 1)) line++;
  const column = from - lineStart + 1;
  const sameLine = !text.slice(from, to).includes('\n');
  return { line, column, endLine: line, endColumn: sameLine ? column + (to - from) + 1 : column + 1 };
}

/**
 * Where the characters of the scalar's value begin in the source, by its style; undefined when the value is not
 * written there: an alias, or an ancestor that locate answered with for a value it cannot reach (a merge key).
 */
function contentStart(text: string, { start, end, value }: { start: number; end: number; value: string }) {
  let at = start;
  // Properties (`!!str`, `&anchor`) may precede the scalar when a locator includes them.
  while (text[at] === '!' || text[at] === '&') {
    while (at < end && !/\s/.test(text[at]!)) at++;
    while (at < end && /\s/.test(text[at]!)) at++;
  }
  const first = text[at];
  if (first === '*') return undefined;
  if (first === '"' || first === "'") return at + 1;
  if (first === '|' || first === '>') {
    // The header line (`|-`, `>2 # comment`) holds no content: content starts on the next line.
    const newline = text.indexOf('\n', at);
    return newline === -1 || newline >= end ? undefined : newline + 1;
  }
  // A plain scalar is written as is: its first word must be there.
  const head = value.split(/\s/, 1)[0]!.slice(0, 16);
  return text.startsWith(head, at) ? at : undefined;
}

/**
 * The source offset of `value[index]`: walk the value and the source together. Non-blank characters appear in the
 * source in order (escapes, quotes and indentation are skipped over); blanks may be folded line breaks or
 * indentation, so they only advance when the source has the same character. Best effort for escapes.
 */
function alignIndex(
  text: string,
  value: string,
  range: { begin: number; end: number; index: number },
): number {
  if (value.length === 0) return range.begin;
  // Past the end (an unclosed `{{`): just after the last character.
  if (range.index >= value.length) return alignIndex(text, value, { ...range, index: value.length - 1 }) + 1;
  let p = range.begin;
  const target = range.index;
  for (let i = 0; i <= target; i++) {
    const c = value[i]!;
    let at = p;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      if (text[p] === c) p++;
    } else {
      const found = text.indexOf(c, p);
      if (found !== -1 && found < range.end) {
        at = found;
        p = found + 1;
      }
    }
    if (i === target) return at;
  }
  return p;
}
