/**
 * `--format codeclimate`: GitLab's Code Quality report (the Code Climate issue format GitLab reads from
 * `artifacts:reports:codequality`), an ARRAY of issues rather than a schemaVersion document
 * (schemas/codeclimate-output.schema.json). Each issue: `description`, `check_name`, `fingerprint`, `severity` (info,
 * minor, major, critical, blocker), `location.path` with `location.lines.begin`. GitLab compares the report of a
 * merge request with its target branch's by fingerprint, so a fingerprint is derived from what the problem IS (check,
 * file, JSON pointer or workflow identifier), never from its line or message: a line shift keeps it, and two problems
 * of one report never share one (a repeat gets `-2`, `-3`…). Pure.
 */
import type { Diagnostic, Severity } from '../diagnostic.js';
import type { CodeClimateIssue } from '../generated/codeclimate-output.js';
import { jsonText, neutralizeMarkdown } from './channel.js';
import type { CommandFailure } from './failure.js';
import { truncateText } from './plan/text.js';
import { hash53 } from './sarif.js';
import { sanitizeTerminalText } from './terminal-text.js';
import type { ValidateReport } from './validate-report.js';

/** One issue, in the Code Climate spec's key order (typed from schemas/codeclimate-output.schema.json). */
export type { CodeClimateIssue };

export type CodeClimateSeverity = CodeClimateIssue['severity'];

/** An issue before its fingerprint: `identity` says what the problem is (no line, no message). */
export interface CodeClimateProblem {
  checkName: string;
  description: string;
  path: string;
  begin: number;
  end?: number;
  severity: CodeClimateSeverity;
  /** Parts that name the problem apart from its check and path: a JSON pointer, a workflow identifier. */
  identity: readonly string[];
}

/** A diagnostic's severity as GitLab ranks it: an error blocks sync (major), a warning fails CI with --max-warnings. */
export const SEVERITY_OF_DIAGNOSTIC: Record<Severity, CodeClimateSeverity> = {
  error: 'major',
  warning: 'minor',
  info: 'info',
};

/** GitLab shows the description on one line of the merge request widget; the job log has the rest. */
const MAX_DESCRIPTION = 1_000;

/**
 * Text from outside as GitLab's widget shows it: one line (breaks and tabs as spaces), controls and bidi overrides
 * visible, mentions, issue references and `<!--` broken as in the markdown channel, at most MAX_DESCRIPTION
 * characters. (jsonText then encodes the document.)
 */
export function plainDescription(text: string): string {
  const oneLine = sanitizeTerminalText(text.replace(/\s*[\r\n\t]+\s*/g, ' ').trim());
  return truncateText(neutralizeMarkdown(oneLine), MAX_DESCRIPTION);
}

/**
 * The issues, fingerprinted: the hash of check, path and identity; a second problem with the same hash (the same
 * check, path and identity, or, never seen but possible, another problem's 53-bit hash) gets `-2`, a third `-3`, in
 * the order given (which callers keep by position), so no two issues of a report share a fingerprint.
 */
export function buildCodeClimateIssues(problems: readonly CodeClimateProblem[]): CodeClimateIssue[] {
  const used = new Set<string>();
  return problems.map((p) => {
    const base = hash53([p.checkName, p.path, ...p.identity].join('\0'));
    let fingerprint = base;
    for (let n = 2; used.has(fingerprint); n++) fingerprint = `${base}-${n}`;
    used.add(fingerprint);
    return {
      type: 'issue',
      check_name: p.checkName,
      description: plainDescription(p.description),
      categories: ['Bug Risk'],
      location: { path: p.path, lines: { begin: p.begin, end: Math.max(p.begin, p.end ?? p.begin) } },
      severity: p.severity,
      fingerprint,
    };
  });
}

/** The report's text: the JSON array (json channel), one trailing newline. */
export function renderCodeClimate(problems: readonly CodeClimateProblem[]): string {
  return `${jsonText(buildCodeClimateIssues(problems))}\n`;
}

/** A diagnostic as a problem: its code, file and pointer (and the including definition) say what it is. */
export function diagnosticProblem(d: Diagnostic, fallbackPath: string): CodeClimateProblem {
  return {
    checkName: d.code,
    description: d.message,
    path: d.file === '' ? fallbackPath : d.file,
    begin: Math.max(1, d.line),
    end: d.endLine,
    severity: SEVERITY_OF_DIAGNOSTIC[d.severity],
    identity: d.includedBy === undefined ? [d.pointer] : [d.pointer, d.includedBy],
  };
}

/** The config file a problem without a file of its own is reported at (GitLab needs a path). */
export const DEFAULT_CONFIG_PATH = 'wfsync.config.yaml';

/** `wfsync validate --format codeclimate`: one issue per diagnostic, in the report's (sorted) order. */
export function renderValidateCodeClimate(report: ValidateReport): string {
  return renderCodeClimate(report.diagnostics.map((d) => diagnosticProblem(d, DEFAULT_CONFIG_PATH)));
}

/**
 * A command that failed as a whole, under `--format codeclimate`: still one report, a `blocker` for the failure
 * (check `wfsync-<command>/<code>`, at the config file) and one issue per diagnostic it carries, so the widget shows
 * why instead of an empty report that reads as "no problems".
 */
export function renderFailureCodeClimate(
  failure: CommandFailure,
  options: { command: string; configPath?: string },
): string {
  const path = options.configPath ?? DEFAULT_CONFIG_PATH;
  const head: CodeClimateProblem = {
    checkName: `wfsync-${options.command}/${failure.code}`,
    description: `wfsync ${options.command} failed (exit ${failure.exitCode}, ${failure.code}): ${failure.message}`,
    path,
    begin: 1,
    severity: 'blocker',
    identity: [],
  };
  return renderCodeClimate([head, ...failure.diagnostics.map((d) => diagnosticProblem(d, path))]);
}
