import type { Diagnostic, Severity } from '../diagnostic.js';
import { plural } from '../text.js';
import { createStyle } from './style.js';
import { formatSummaryLines } from './summary.js';
import { formatSuppressedLines } from './suppressed.js';
import type { RenderOptions, ValidateReport } from './validate-report.js';

/** GitHub shows at most this many annotations of each kind (error, warning, notice) per step. */
export const ANNOTATIONS_PER_KIND = 10;

/** The annotation a diagnostic of each severity becomes. */
export const ANNOTATION_OF_SEVERITY: Record<Severity, 'error' | 'warning' | 'notice'> = {
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

/**
 * One `::error file=…,line=…::message` command (one line, no trailing newline), after `mark` (render options'
 * `commandMark`): the output channel keeps only marked lines as commands (channel.ts).
 */
export function formatAnnotation(d: Diagnostic, mark = ''): string {
  const props: string[] = [];
  if (d.file !== '') {
    props.push(`file=${escapeProperty(d.file)}`, `line=${d.line}`);
    // GitHub rejects columns on an annotation that spans lines.
    if (d.endLine === d.line)
      props.push(`col=${d.column}`, `endLine=${d.endLine}`, `endColumn=${d.endColumn}`);
    else props.push(`endLine=${d.endLine}`);
  }
  props.push(`title=${escapeProperty(`wfsync (${d.code})`)}`);
  // Line breaks survive as %0A; the output channel shows controls and escape codes as symbols.
  return `${mark}::${ANNOTATION_OF_SEVERITY[d.severity]} ${props.join(',')}::${escapeData(d.message)}`;
}

/**
 * `--format github`: workflow commands that GitHub Actions turns into annotations on the changed lines.
 *
 * The first 10 errors, 10 warnings and 10 infos (as notices) in report order become annotations; GitHub
 * drops the rest. Those are printed as plain log lines, then one notice counts them and points to the job
 * summary (`renderGithubStepSummary`). That notice takes one of the 10 notice slots, so when it is needed
 * at most 9 infos are annotated. A plain summary line ends the output.
 */
export function renderGithub(report: ValidateReport, options: RenderOptions): string {
  const mark = options.commandMark?.() ?? '';
  const { shown, hidden, notice } = capAnnotations(report.diagnostics, {
    kindOf: (d) => d.severity,
    kinds: ['error', 'warning', 'info'],
    where: 'the job summary',
    mark,
  });
  // Plain lines start with a file name from outside: one named `::stop-commands::x.yaml` stays a log line, since
  // only marked lines pass the output channel as commands.
  const out = [
    ...shown.map((d) => formatAnnotation(d, mark)),
    ...hidden.map(formatPlainLine),
    ...notice,
    ...formatSuppressedLines(report.suppressed),
    ...formatSummaryLines(report, createStyle(false)),
  ];
  return `${out.join('\n')}\n`;
}

/**
 * GitHub shows 10 annotations of each kind per step. The first ones of each kind are `shown`; when any kind
 * overflows, the `notice` counts the rest (`hidden`) and says where they are (`where`), and it takes one of the
 * notice slots. `kinds`: the error, warning and notice kinds, in that order (their names are the notice's nouns).
 */
export function capAnnotations<T, K extends string>(
  items: readonly T[],
  options: { kindOf: (item: T) => K; kinds: readonly [K, K, K]; where: string; mark?: string },
): { shown: T[]; hidden: T[]; notice: string[] } {
  const { kindOf, kinds } = options;
  const zero = () => Object.fromEntries(kinds.map((k) => [k, 0])) as Record<K, number>;
  const totals = zero();
  for (const item of items) totals[kindOf(item)]++;
  const overflows = kinds.some((k) => totals[k] > ANNOTATIONS_PER_KIND);
  const counted = zero();
  const shown: T[] = [];
  const hidden: T[] = [];
  for (const item of items) {
    const kind = kindOf(item);
    const limit = overflows && kind === kinds[2] ? ANNOTATIONS_PER_KIND - 1 : ANNOTATIONS_PER_KIND;
    if (counted[kind] < limit) {
      counted[kind]++;
      shown.push(item);
    } else hidden.push(item);
  }
  const omitted = kinds
    .filter((k) => totals[k] > counted[k])
    .map((k) => plural(totals[k] - counted[k], `more ${k}`));
  const text = `${joinWords(omitted)} not shown as annotations; see ${options.where}`;
  return {
    shown,
    hidden,
    notice: omitted.length > 0 ? [`${options.mark ?? ''}::notice::${escapeData(text)}`] : [],
  };
}

/**
 * `file:line:col severity message [code]` on one line: one diagnostic, one log line (a message's line breaks become
 * spaces, a name's are shown as symbols). The output channel does the rest.
 */
function formatPlainLine(d: Diagnostic): string {
  const message = d.message.replace(/\r\n|\r|\n/g, ' ');
  return `${oneLine(d.file)}:${d.line}:${d.column} ${d.severity} ${message} [${oneLine(d.code)}]`;
}

function oneLine(name: string): string {
  return name.replace(/[\r\n]/g, (ch) => (ch === '\n' ? '\u240a' : '\u240d'));
}

/** `a`, `a and b`, `a, b and c`. */
export function joinWords(words: readonly string[]): string {
  // Stryker disable next-line StringLiteral: no separator shows between fewer than two words
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}
