import type { Diagnostic, Severity } from '../diagnostic.js';
import { plural } from '../text.js';
import { createStyle } from './style.js';
import { formatSummaryLines } from './summary.js';
import { sanitizeTerminalText } from './terminal-text.js';
import type { RenderOptions, ValidateReport } from './validate-report.js';

/** GitHub shows at most this many annotations of each kind (error, warning, notice) per step. */
export const ANNOTATIONS_PER_KIND = 10;

const COMMAND: Record<Severity, 'error' | 'warning' | 'notice'> = {
  error: 'error',
  warning: 'warning',
  info: 'notice',
};

/** Escapes workflow-command data (the message), as @actions/core does. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a workflow-command property value (file, title): data escaping plus `:` and `,`. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** One `::error file=…,line=…::message` command (one line, no trailing newline). */
export function formatAnnotation(d: Diagnostic): string {
  const props: string[] = [];
  if (d.file !== '') {
    props.push(`file=${escapeProperty(d.file)}`, `line=${d.line}`);
    // GitHub rejects columns on an annotation that spans lines.
    if (d.endLine === d.line)
      props.push(`col=${d.column}`, `endLine=${d.endLine}`, `endColumn=${d.endColumn}`);
    else props.push(`endLine=${d.endLine}`);
  }
  props.push(`title=${escapeProperty(`wfsync (${d.code})`)}`);
  // Escape codes and other controls would show raw in the annotation; newlines survive as %0A.
  const message = escapeData(sanitizeTerminalText(d.message, '\n\r\t'));
  return `::${COMMAND[d.severity]} ${props.join(',')}::${message}`;
}

/**
 * `--format github`: workflow commands that GitHub Actions turns into annotations on the changed lines.
 *
 * The first 10 errors, 10 warnings and 10 infos (as notices) in report order become annotations; GitHub
 * drops the rest. Those are printed as plain log lines, then one notice counts them and points to the job
 * summary (`renderGithubStepSummary`). That notice takes one of the 10 notice slots, so when it is needed
 * at most 9 infos are annotated. A plain summary line ends the output.
 */
export function renderGithub(report: ValidateReport, _options: RenderOptions): string {
  const totals: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const d of report.diagnostics) totals[d.severity]++;
  const overflows = Object.values(totals).some((n) => n > ANNOTATIONS_PER_KIND);
  const limits: Record<Severity, number> = {
    error: ANNOTATIONS_PER_KIND,
    warning: ANNOTATIONS_PER_KIND,
    info: overflows ? ANNOTATIONS_PER_KIND - 1 : ANNOTATIONS_PER_KIND,
  };

  const shown: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  const annotations: string[] = [];
  const rest: string[] = [];
  for (const d of report.diagnostics) {
    if (shown[d.severity] < limits[d.severity]) {
      shown[d.severity]++;
      annotations.push(formatAnnotation(d));
    } else {
      rest.push(formatPlainLine(d));
    }
  }

  // Plain lines start with a file name from outside: one named `::stop-commands::x.yaml` must stay a log line.
  const out = [...annotations, ...rest.map(neutralizeCommands)];
  const omitted = (['error', 'warning', 'info'] as const)
    .filter((s) => totals[s] > shown[s])
    .map((s) => plural(totals[s] - shown[s], `more ${s}`));
  if (omitted.length > 0) {
    out.push(
      `::notice::${escapeData(`${joinWords(omitted)} not shown as annotations; see the job summary`)}`,
    );
  }
  out.push(...formatSummaryLines(report, createStyle(false)));
  return `${out.join('\n')}\n`;
}

/**
 * `file:line:col severity message [code]` on one line. Line breaks are flattened so a message can never
 * start a line of its own, where the runner would read it as a workflow command.
 */
function formatPlainLine(d: Diagnostic): string {
  const message = sanitizeTerminalText(d.message.replace(/\r\n|\r|\n/g, ' '));
  return `${sanitizeTerminalText(d.file)}:${d.line}:${d.column} ${d.severity} ${message} [${sanitizeTerminalText(d.code)}]`;
}

/** `a`, `a and b`, `a, b and c`. */
export function joinWords(words: readonly string[]): string {
  // Stryker disable next-line StringLiteral: no separator shows between fewer than two words
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/**
 * The runner reads a log line that starts (after leading whitespace) with `::` or `##[` as a command. Lines that
 * hold text from outside (file names, diff lines, messages) get a zero-width space in front of such a start, which
 * is not whitespace to the runner and invisible to a reader.
 */
export function neutralizeCommands(text: string): string {
  return text.replace(/^([^\S\n]*)(::|##\[)/gm, '$1\u200b$2');
}
