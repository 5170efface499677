import type { Span } from '../diagnostic.js';

/**
 * Turns yaml's offsets (UTF-16 code units into the decoded text) into 1-based spans. The line table is
 * built on first use only: most files are valid and never need a position.
 */
export interface Positions {
  /** Span of `[start, end)`, with trailing line breaks (and blanks, unless only blanks) left out. */
  span(start: number, end: number): Span;
  /** Span from `start` to the end of its line, or to `end` if that comes first. */
  lineSpan(start: number, end?: number): Span;
  /** 1-based line of an offset. */
  lineOf(offset: number): number;
  /** The offset of a 1-based line and column (a span's start or end). */
  offsetOf(line: number, column: number): number;
}

export function createPositions(text: string): Positions {
  let starts: number[] | undefined;

  const lineStarts = (): number[] => {
    if (starts === undefined) {
      starts = [0];
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    }
    return starts;
  };

  /** 0-based index of the line holding `offset` (binary search over line starts). */
  const lineIndex = (offset: number): number => {
    const table = lineStarts();
    let lo = 0;
    let hi = table.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (table[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };

  const clamp = (offset: number): number =>
    Number.isFinite(offset) ? Math.min(Math.max(0, Math.trunc(offset)), text.length) : 0;

  const span = (start: number, end: number): Span => {
    const s = clamp(start);
    let e = Math.max(s, clamp(end));
    // Trailing line breaks and blanks go, but blanks stay when they are all there is (a tab as bad indent).
    for (;;) {
      while (e > s && isLineBreak(text.charCodeAt(e - 1))) e--;
      let blank = e;
      while (blank > s && isBlank(text.charCodeAt(blank - 1))) blank--;
      if (blank === e || blank === s) break;
      e = blank;
    }
    const table = lineStarts();
    const li = lineIndex(s);
    const line = li + 1;
    const column = s - table[li]! + 1;
    if (e === s) return { line, column, endLine: line, endColumn: column };
    const lj = lineIndex(e - 1);
    return { line, column, endLine: lj + 1, endColumn: e - table[lj]! + 1 };
  };

  const lineSpan = (start: number, end = text.length): Span => {
    const s = clamp(start);
    const newline = text.indexOf('\n', s);
    const lineEnd = newline === -1 ? text.length : newline;
    return span(s, Math.min(lineEnd, clamp(end)));
  };

  return {
    span,
    lineSpan,
    lineOf: (offset) => lineIndex(clamp(offset)) + 1,
    offsetOf: (line, column) => (lineStarts()[line - 1] ?? 0) + column - 1,
  };
}

function isLineBreak(code: number): boolean {
  return code === 0x0a || code === 0x0d;
}

function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09;
}
