/**
 * The one type for every problem a user can fix: YAML syntax errors, schema violations, rule findings,
 * config problems and the service's 400/422 messages all become Diagnostics, collected and reported together.
 */
import { compareText } from './text.js';

export type Severity = 'error' | 'warning' | 'info';

export interface Span {
  /** 1-based line of the first character. */
  line: number;
  /** 1-based column of the first character (in UTF-16 code units, as editors count). */
  column: number;
  /** 1-based line of the last character (inclusive). */
  endLine: number;
  /** 1-based column just after the last character. */
  endColumn: number;
}

export interface Diagnostic extends Span {
  /** Stable code, e.g. `yaml-syntax`, `schema-additional-property`, `identifier-duplicate`. */
  code: string;
  severity: Severity;
  /** One sentence that says what is wrong and, where it helps, what to do. */
  message: string;
  /** Path as the user named it, relative to the working directory, with `/` separators. */
  file: string;
  /** RFC 6901 JSON pointer into the document (`""` for the whole document). */
  pointer: string;
  /**
   * Set for a finding inside a file a definition includes (`content: {file: …}`): the definition's path. `file`
   * and the position are then in the included file, while `pointer` still points into the definition.
   */
  includedBy?: string;
}

/** Span of an unknown position: the first character of a file. */
export const FILE_START: Span = { line: 1, column: 1, endLine: 1, endColumn: 1 };

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Sort by file, then position, then severity, then code; drop exact duplicates. Pure. */
export function sortDiagnostics(diagnostics: readonly Diagnostic[]): Diagnostic[] {
  // Most files have no findings (nothing to sort, no key to build); one finding has nothing to compare with.
  if (diagnostics.length < 2) return [...diagnostics];
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
      compareText(a.file, b.file) ||
      a.line - b.line ||
      a.column - b.column ||
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      compareText(a.code, b.code),
  );
}

export interface DiagnosticCounts {
  errors: number;
  warnings: number;
  infos: number;
}

export function countDiagnostics(diagnostics: readonly Diagnostic[]): DiagnosticCounts {
  const counts: DiagnosticCounts = { errors: 0, warnings: 0, infos: 0 };
  for (const d of diagnostics) {
    if (d.severity === 'error') counts.errors++;
    else if (d.severity === 'warning') counts.warnings++;
    else counts.infos++;
  }
  return counts;
}

/** Escape one JSON-pointer segment (RFC 6901). */
export function escapePointerSegment(segment: string | number): string {
  const text = String(segment);
  // Keys and indexes almost never hold `~` or `/`: skip the two replace passes then.
  if (!text.includes('~') && !text.includes('/')) return text;
  return text.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function joinPointer(base: string, ...segments: Array<string | number>): string {
  let pointer = base;
  for (const segment of segments) pointer += `/${escapePointerSegment(segment)}`;
  return pointer;
}

const PLAIN_KEY = /^[A-Za-z_$][\w$-]*$/;

/** `/steps/0/template/type` → `steps[0].template.type`; keys that are not plain names are quoted. */
export function displayPath(pointer: string): string {
  let out = '';
  for (const segment of splitPointer(pointer)) {
    if (/^(0|[1-9]\d*)$/.test(segment)) out += `[${segment}]`;
    else if (PLAIN_KEY.test(segment)) out += out === '' ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

export function splitPointer(pointer: string): string[] {
  if (pointer === '') return [];
  const segments = pointer.slice(1).split('/');
  // Without a `~` there is no escape to undo.
  if (!pointer.includes('~')) return segments;
  return segments.map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}
