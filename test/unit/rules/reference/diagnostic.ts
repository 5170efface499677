// Frozen copies of the pointer and sort helpers of src/diagnostic.ts before the allocation work (commit 8e3e79f):
// part of the oracle for the differential tests. Change it only along with a deliberate change of behaviour in src.
import type { Diagnostic, Severity } from '../../../../src/diagnostic.js';

export type { Diagnostic, Severity, Span } from '../../../../src/diagnostic.js';

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Sort by file, then position, then severity, then code; drop exact duplicates. Pure. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  const unique: Diagnostic[] = [];
  for (const d of diagnostics) {
    const key = `${d.file}\0${d.line}\0${d.column}\0${d.code}\0${d.pointer}\0${d.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    unique.push(d);
  }
  return unique.sort(
    (a, b) =>
      (a.file < b.file ? -1 : a.file > b.file ? 1 : 0) ||
      a.line - b.line ||
      a.column - b.column ||
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      (a.code < b.code ? -1 : a.code > b.code ? 1 : 0),
  );
}

/** Escape one JSON-pointer segment (RFC 6901). */
export function escapePointerSegment(segment: string | number): string {
  return String(segment).replace(/~/g, '~0').replace(/\//g, '~1');
}

export function joinPointer(base: string, ...segments: Array<string | number>): string {
  return base + segments.map((s) => `/${escapePointerSegment(s)}`).join('');
}

export function splitPointer(pointer: string): string[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}
