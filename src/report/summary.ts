import { countDiagnostics, type Diagnostic, type DiagnosticCounts } from '../diagnostic.js';
import { compareText, plural } from '../text.js';
import type { Style } from './style.js';
import type { ValidateReport } from './validate-report.js';

export interface ReportSummary extends DiagnosticCounts {
  /**
   * Files checked (including any file a diagnostic names that was not in `report.files`, e.g. a config file). A
   * file a definition includes is checked as part of it: it does not count on its own.
   */
  files: number;
  /** Files with at least one diagnostic, of any severity; a finding in an included file counts for its definition. */
  filesWithProblems: number;
  /** Warnings above `report.maxWarnings`. */
  maxWarningsExceeded: boolean;
}

/**
 * The file a diagnostic counts for in summaries and JUnit test cases: its own, or for a finding inside a file a
 * definition includes, that definition (the included file is checked as part of it).
 */
export function countedFile(d: Diagnostic): string {
  return d.includedBy ?? d.file;
}

/**
 * `report.files` plus any other file a diagnostic names (`fileOf`: its own file by default, SARIF's artifacts; or
 * countedFile), sorted and unique.
 */
export function checkedFiles(report: ValidateReport, fileOf = (d: Diagnostic) => d.file): string[] {
  const files = new Set(report.files);
  for (const d of report.diagnostics) files.add(fileOf(d));
  return [...files].sort(compareText);
}

/** Diagnostics grouped by file (or by `key`), files sorted, each group keeping the report's order. */
export function groupByFile(
  diagnostics: readonly Diagnostic[],
  key: (d: Diagnostic) => string = (d) => d.file,
): Map<string, Diagnostic[]> {
  const groups = new Map<string, Diagnostic[]>();
  for (const file of [...new Set(diagnostics.map(key))].sort(compareText)) groups.set(file, []);
  for (const d of diagnostics) groups.get(key(d))?.push(d);
  return groups;
}

export function summarizeReport(report: ValidateReport): ReportSummary {
  const counts = countDiagnostics(report.diagnostics);
  return {
    files: checkedFiles(report, countedFile).length,
    filesWithProblems: new Set(report.diagnostics.map(countedFile)).size,
    ...counts,
    maxWarningsExceeded: report.maxWarnings !== undefined && counts.warnings > report.maxWarnings,
  };
}

/**
 * The closing lines every text format shares:
 * `✖ 4 problems (2 errors, 1 warning, 1 info) in 2 of 12 files` or `✔ 12 files valid`, then
 * `✖ warnings: 5 > --max-warnings 3` when the limit is exceeded. Infos alone do not make files invalid.
 */
export function formatSummaryLines(report: ValidateReport, style: Style): string[] {
  const s = summarizeReport(report);
  const lines: string[] = [];
  if (s.errors === 0 && s.warnings === 0) {
    const infos = s.infos > 0 ? `, ${plural(s.infos, 'info')}` : '';
    lines.push(style.green(`✔ ${plural(s.files, 'file')} valid${infos}`));
  } else {
    const parts = [plural(s.errors, 'error'), plural(s.warnings, 'warning')];
    if (s.infos > 0) parts.push(plural(s.infos, 'info'));
    const problems = s.errors + s.warnings + s.infos;
    const text = `✖ ${plural(problems, 'problem')} (${parts.join(', ')}) in ${s.filesWithProblems} of ${plural(s.files, 'file')}`;
    lines.push(style.bold(s.errors > 0 ? style.red(text) : style.yellow(text)));
  }
  if (s.maxWarningsExceeded) {
    lines.push(style.bold(style.red(`✖ warnings: ${s.warnings} > --max-warnings ${report.maxWarnings}`)));
  }
  return lines;
}
