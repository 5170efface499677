import type { Diagnostic, Severity } from '../diagnostic.js';
import { buildCodeFrame } from './code-frame.js';
import { createStyle, type Paint, type Style } from './style.js';
import { formatSummaryLines, groupByFile } from './summary.js';
import { formatSuppressedLines } from './suppressed.js';
import type { RenderOptions, ValidateReport } from './validate-report.js';

/**
 * The terminal format, like a compiler's:
 *
 * ```
 * workflows/order.yaml:12:7 error Unknown property "nmae". [schema-additional-property]
 *   11 |   - name: Send
 * > 12 |     nmae: x
 *      |     ^^^^
 *
 * ✖ 1 problem (1 error, 0 warnings) in 1 of 12 files
 * ```
 *
 * `file:line:col` first so terminals and editors make it a link. Diagnostics are grouped by file (files in
 * sorted order). Without `options.color` it adds no escape code; text from outside comes through as it is, for the
 * output channel (channel.ts) to make safe where it is written.
 */
export function renderHuman(report: ValidateReport, options: RenderOptions): string {
  const style = createStyle(options.color);
  const out = buildDiagnosticLines(report.diagnostics, report.sources, style);
  const suppressed = formatSuppressedLines(report.suppressed);
  if (suppressed.length > 0) out.push(...suppressed.map((line, i) => (i === 0 ? line : style.dim(line))), '');
  out.push(...formatSummaryLines(report, style));
  return `${out.join('\n')}\n`;
}

/**
 * Diagnostics with code frames and no summary: for problems that stop a command (an invalid config file, the
 * service's 400 for one definition). Pure.
 */
export function renderDiagnostics(
  diagnostics: readonly Diagnostic[],
  sources: ReadonlyMap<string, string>,
  options: Pick<RenderOptions, 'color'>,
): string {
  return `${buildDiagnosticLines(diagnostics, sources, createStyle(options.color)).join('\n')}\n`;
}

function buildDiagnosticLines(
  diagnostics: readonly Diagnostic[],
  sources: ReadonlyMap<string, string>,
  style: Style,
): string[] {
  const out: string[] = [];
  for (const [file, fileDiagnostics] of groupByFile(diagnostics)) {
    const source = sources.get(file);
    for (const d of fileDiagnostics) {
      const paint = severityPaint(d.severity, style);
      out.push(...formatHeader(d, style, paint));
      if (source !== undefined) out.push(...buildCodeFrame(source, d, { style, paint }));
      out.push('');
    }
  }
  return out;
}

export function severityPaint(severity: Severity, style: Style): Paint {
  return severity === 'error' ? style.red : severity === 'warning' ? style.yellow : style.blue;
}

/** `file:line:col severity message [code]`; further lines of a multi-line message are indented. */
function formatHeader(d: Diagnostic, style: Style, paint: Paint): string[] {
  // Text from outside is written raw: the output channel (channel.ts) shows controls and escapes as symbols.
  const location = `${d.file}:${d.line}:${d.column}`;
  const [firstLine = '', ...rest] = d.message.split(/\r\n|\r|\n/);
  const code = style.dim(`[${d.code}]`);
  const lines = [`${style.bold(location)} ${paint(d.severity)} ${firstLine}`, ...rest.map((l) => `  ${l}`)];
  lines[lines.length - 1] = `${lines[lines.length - 1]} ${code}`;
  return lines;
}
