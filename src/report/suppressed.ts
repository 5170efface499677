/**
 * What `wfsync-disable` comments silenced (ValidateReport.suppressed, `--verbose` only), as every format shows it:
 * one line per finding, with the comment's reason (json.ts writes the same as objects). Pure.
 */
import type { SuppressedDiagnostic } from '../validate/suppressions.js';

/** The heading the text formats put above the lines. */
export const SUPPRESSED_HEADING = 'Silenced by wfsync-disable comments:';

/** `file:line:col suppressed warning message [code] (line N: reason)` on one line. */
export function formatSuppressedLine(d: SuppressedDiagnostic): string {
  const message = d.message.replace(/\r\n|\r|\n/g, ' ');
  const { line, reason } = d.suppressedBy;
  return `${d.file}:${d.line}:${d.column} suppressed ${d.severity} ${message} [${d.code}] (line ${line}: ${reason})`;
}

/** The heading and a line per finding; none when nothing was silenced or it is not asked for. */
export function formatSuppressedLines(suppressed: readonly SuppressedDiagnostic[] | undefined): string[] {
  if (suppressed === undefined || suppressed.length === 0) return [];
  return [SUPPRESSED_HEADING, ...suppressed.map((d) => `  ${formatSuppressedLine(d)}`)];
}
