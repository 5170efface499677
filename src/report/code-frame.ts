import { maskCredentials } from '../credentials.js';
import type { Span } from '../diagnostic.js';
import type { Paint, Style } from './style.js';
import { displayColumn, type Glyph, glyphsWidth, layoutLine } from './terminal-text.js';

/** Cells of source text shown per line; longer lines are cut around the caret, with `…` marking the cuts. */
export const MAX_FRAME_WIDTH = 100;
/**
 * UTF-16 units of a line kept on each side of its caret before it is laid out: far more than one frame's width,
 * so the cut is never seen (fitToWidth cuts again, with its `…`), while a line of a megabyte costs no more to
 * frame than one of a few kilobytes (laying out graphemes is slow on long strings).
 */
const LAYOUT_REACH = 2_000;
/** Spans over more lines show the first two, an elision row and the last. */
const MAX_SPAN_LINES = 4;

export interface CodeFrameOptions {
  style: Style;
  /** The severity's color, for the `>` marker and the carets. */
  paint: Paint;
  maxWidth?: number;
}

type Row = { kind: 'context' | 'span'; line: number } | { kind: 'elision' };

/**
 * The source lines of a span with a line-number gutter and `^^^` under the span:
 *
 * ```
 *   11 |   - name: Send
 * > 12 |     nmae: x
 *      |     ^^^^
 * ```
 *
 * Credential-looking values (credentials.ts) are shown as `*`, one per character, so the carets stay put.
 * One line of context comes first when the previous line has content. Returns no rows when the span is not
 * inside the source. Columns are UTF-16 code units (as in Diagnostic); tabs and wide characters are measured
 * in terminal cells so the carets stay under the text.
 */
export function buildCodeFrame(source: string, span: Span, options: CodeFrameOptions): string[] {
  const lines = source.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const first = span.line;
  if (!Number.isInteger(first) || first < 1 || first > lines.length) return [];
  let last = Math.min(Math.max(span.endLine, first), lines.length);
  let endColumn = span.endLine > lines.length ? Number.POSITIVE_INFINITY : span.endColumn;
  // A span that ends at the very start of a line really ends with the previous line's break.
  if (last > first && endColumn <= 1) {
    last--;
    endColumn = Number.POSITIVE_INFINITY;
  }

  const rows: Row[] = [];
  const before = lines[first - 2];
  if (before !== undefined && before.trim() !== '') rows.push({ kind: 'context', line: first - 1 });
  if (last - first + 1 <= MAX_SPAN_LINES) {
    for (let n = first; n <= last; n++) rows.push({ kind: 'span', line: n });
  } else {
    rows.push({ kind: 'span', line: first }, { kind: 'span', line: first + 1 }, { kind: 'elision' });
    rows.push({ kind: 'span', line: last });
  }

  const { style, paint } = options;
  const maxWidth = Math.max(options.maxWidth ?? MAX_FRAME_WIDTH, 10);
  const gutterWidth = Math.max(String(last).length, rows.some((r) => r.kind === 'elision') ? 3 : 0);
  const gutter = (label: string) => style.dim(`${label.padStart(gutterWidth)} |`);
  const out: string[] = [];
  for (const row of rows) {
    if (row.kind === 'elision') {
      out.push(`  ${gutter('...')}`);
      continue;
    }
    const line = lines[row.line - 1] ?? '';
    const from = row.kind === 'span' && row.line === first ? span.column : firstContentColumn(line);
    const near = nearColumn(line, from);
    const { cut } = near;
    // Masked before anything is laid out or cut: a key never shows, whole or in part, whatever key it sits under.
    const text = maskCredentials(near.text);
    const glyphs = layoutLine(text);
    let range: CaretRange | undefined;
    if (row.kind === 'span') {
      const to = row.line === last ? endColumn : Number.POSITIVE_INFINITY;
      // Continuation lines with nothing on them get no carets.
      if (row.line === first || line.trim() !== '') range = caretRange(glyphs, from - cut, to - cut);
    }
    const shown = fitToWidth(glyphs, range, maxWidth);
    const marker = row.kind === 'span' ? paint('>') : ' ';
    out.push(`${marker} ${gutter(String(row.line))}${shown.text === '' ? '' : ` ${shown.text}`}`);
    if (shown.range) {
      const { start, end } = shown.range;
      out.push(`  ${gutter('')} ${' '.repeat(start)}${paint('^'.repeat(Math.max(1, end - start)))}`);
    }
  }
  return out;
}

/** The part of a long line within LAYOUT_REACH of a 1-based column, and how many UTF-16 units were cut from its start. */
function nearColumn(line: string, column: number): { text: string; cut: number } {
  if (line.length <= 2 * LAYOUT_REACH) return { text: line, cut: 0 };
  const start = Math.max(0, column - 1 - LAYOUT_REACH);
  return { text: line.slice(start, Math.max(column - 1, 0) + LAYOUT_REACH), cut: start };
}

/** Display cells [start, end) to underline. */
interface CaretRange {
  start: number;
  end: number;
}

function caretRange(glyphs: readonly Glyph[], fromColumn: number, toColumn: number): CaretRange {
  const start = displayColumn(glyphs, Math.max(1, fromColumn));
  const end = toColumn === Number.POSITIVE_INFINITY ? glyphsWidth(glyphs) : displayColumn(glyphs, toColumn);
  // At least one caret, even for an empty span or one that points past the end of the line.
  return { start, end: Math.max(end, start + 1) };
}

function firstContentColumn(text: string): number {
  const match = /\S/.exec(text);
  return match ? match.index + 1 : 1;
}

/** Cuts a long line to about `maxWidth` cells around the caret and shifts the caret to match. */
function fitToWidth(
  glyphs: readonly Glyph[],
  range: CaretRange | undefined,
  maxWidth: number,
): { text: string; range?: CaretRange } {
  const total = glyphsWidth(glyphs);
  if (total <= maxWidth)
    return {
      text: glyphs
        .map((g) => g.text)
        .join('')
        .trimEnd(),
      range,
    };
  const anchor = range?.start ?? 0;
  const windowStart = Math.max(0, Math.min(anchor - Math.floor(maxWidth / 3), total - maxWidth));
  const windowEnd = windowStart + maxWidth;
  let cell = 0;
  let firstCell: number | undefined;
  let lastCell = 0;
  let body = '';
  for (const g of glyphs) {
    if (cell >= windowStart && cell + g.width <= windowEnd) {
      firstCell ??= cell;
      lastCell = cell + g.width;
      body += g.text;
    }
    cell += g.width;
  }
  const head = windowStart > 0 ? '…' : '';
  const tail = lastCell < total ? '…' : '';
  const text = `${head}${body}${tail}`.trimEnd();
  if (!range) return { text };
  const shift = (firstCell ?? 0) - head.length;
  const limit = head.length + (lastCell - (firstCell ?? 0));
  const start = Math.min(Math.max(range.start - shift, head.length), limit);
  const end = Math.min(range.end - shift, limit + 1);
  return { text, range: { start, end: Math.max(end, start + 1) } };
}
