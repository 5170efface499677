/**
 * Rule control in the file: `# wfsync-disable-next-line <rule>[, <rule>…] -- <reason>` silences those rules' findings
 * on the next line, `# wfsync-disable <rule> -- <reason>` … `# wfsync-enable <rule>` on the lines between (to the end
 * of the file without an enable). In an included file the same words work in its own comments (`<!-- … -->`,
 * `{{!-- … --}}`). The reason is required; a directive without one, or naming no known rule, is a finding of its own
 * and silences nothing. Pure: the text is scanned as text (comments are in the bytes whichever parser read them).
 */
import type { Diagnostic, Severity } from '../diagnostic.js';
import { suggestName } from '../text.js';

/** A diagnostic a directive silenced, with the directive's reason: shown only with `--verbose`. */
export interface SuppressedDiagnostic extends Diagnostic {
  suppressedBy: { line: number; reason: string };
}

export interface Directive {
  kind: 'disable-next-line' | 'disable' | 'enable';
  rules: string[];
  reason: string;
  /** 1-based line of the comment. */
  line: number;
  column: number;
  endColumn: number;
}

/** The code of a directive that silenced nothing (with `--report-unused-disable`). */
export const SUPPRESSION_UNUSED = 'suppression-unused';

/** The findings about directives themselves (code, default severity, description): `--list-rules` shows them. */
export const SUPPRESSION_RULES = [
  {
    code: 'suppression-reason-missing',
    defaultSeverity: 'error' as Severity,
    description: 'a wfsync-disable comment gives no reason after ` -- `; it silences nothing',
  },
  {
    code: 'suppression-unknown-rule',
    defaultSeverity: 'error' as Severity,
    description: 'a wfsync-disable comment names a rule that does not exist',
  },
  {
    code: SUPPRESSION_UNUSED,
    defaultSeverity: 'warning' as Severity,
    description: 'a wfsync-disable comment silences no finding (reported with --report-unused-disable)',
  },
] as const;

/** A comment (`#` at a line's start or after a space; `<!--`, `{{!` in an included file) opening with a directive. */
const DIRECTIVE =
  /(?:^|\s)(?:#|<!--|\{\{!(?:--)?)\s*wfsync-(disable-next-line|disable|enable)(?=\s|$|-->|\}\})(.*)$/;

/** Every directive in a text, in line order. Cheap when there is none: one substring search. */
export function parseDirectives(text: string): Directive[] {
  if (!text.includes('wfsync-')) return [];
  const directives: Directive[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((content, index) => {
    if (!content.includes('wfsync-')) return;
    const match = DIRECTIVE.exec(content);
    if (!match) return;
    const rest = match[2]!.replace(/\s*(?:-->|--\}\}|\}\})\s*$/, '');
    const separator = rest.search(/(?:^|\s)--(?:\s|$)/);
    const list = separator < 0 ? rest : rest.slice(0, separator);
    const reason =
      separator < 0
        ? ''
        : rest
            .slice(separator)
            .replace(/^\s*--\s*/, '')
            .trim();
    const start = content.indexOf('wfsync-', match.index);
    directives.push({
      kind: match[1] as Directive['kind'],
      rules: list.split(/[\s,]+/).filter((rule) => rule !== ''),
      reason,
      line: index + 1,
      column: start + 1,
      endColumn: content.trimEnd().length + 1,
    });
  });
  return directives;
}

export interface SuppressionInput {
  /**
   * The file's display path and text: the definition's, then each included file's (with `includedBy`, the
   * definition, which a finding about a comment in it names as every finding in an included file does).
   */
  texts: ReadonlyArray<{ file: string; text: string; includedBy?: string }>;
  /** The findings to filter (any order). */
  diagnostics: readonly Diagnostic[];
  /** Every rule code a directive may name. */
  knownCodes: readonly string[];
  /** Severity of each directive finding (undefined: off). */
  severityOf: (code: string) => Severity | undefined;
  /** `--report-unused-disable`: a directive that silenced nothing is a finding. */
  reportUnused: boolean;
  /** Codes whose findings come later, from the project-wide pass: a directive for them never counts as unused here. */
  laterCodes?: readonly string[];
}

export interface SuppressionResult {
  /** The findings no directive silenced, plus the findings about the directives. */
  diagnostics: Diagnostic[];
  suppressed: SuppressedDiagnostic[];
}

/** Apply the directives of each text to the findings in it. Pure. */
export function applySuppressions(input: SuppressionInput): SuppressionResult {
  // Almost every file has no directive: nothing to build then.
  if (!input.texts.some(({ text }) => text.includes('wfsync-'))) {
    return { diagnostics: [...input.diagnostics], suppressed: [] };
  }
  const diagnostics: Diagnostic[] = [];
  const suppressed: SuppressedDiagnostic[] = [];
  const byFile = new Map<string, Diagnostic[]>();
  for (const d of input.diagnostics) {
    const list = byFile.get(d.file);
    if (list) list.push(d);
    else byFile.set(d.file, [d]);
  }
  const known = new Set(input.knownCodes);
  const later = new Set(input.laterCodes ?? []);
  const handled = new Set<string>();
  for (const { file, text, includedBy } of input.texts) {
    if (handled.has(file)) continue;
    handled.add(file);
    const directives = parseDirectives(text);
    const findings = byFile.get(file) ?? [];
    byFile.delete(file);
    if (directives.length === 0) {
      diagnostics.push(...findings);
      continue;
    }
    const problems: Diagnostic[] = [];
    const report = (code: string, directive: Directive, message: string) => {
      const severity = input.severityOf(code);
      if (severity === undefined) return;
      const { line, column, endColumn } = directive;
      const problem: Diagnostic = {
        code,
        severity,
        message,
        file,
        pointer: '',
        line,
        column,
        endLine: line,
        endColumn,
      };
      if (includedBy !== undefined) problem.includedBy = includedBy;
      problems.push(problem);
    };
    const ranges = buildRanges(directives, known, report);
    const used = new Set<Range>();
    for (const finding of findings) {
      const range = ranges.find(
        (r) => r.rule === finding.code && finding.line >= r.from && finding.line <= r.to,
      );
      if (range === undefined) {
        diagnostics.push(finding);
        continue;
      }
      used.add(range);
      suppressed.push({
        ...finding,
        suppressedBy: { line: range.directive.line, reason: range.directive.reason },
      });
    }
    if (input.reportUnused) {
      for (const range of ranges) {
        if (used.has(range) || later.has(range.rule)) continue;
        report(
          SUPPRESSION_UNUSED,
          range.directive,
          `"wfsync-${range.directive.kind} ${range.rule}" silences no finding; remove it`,
        );
      }
    }
    diagnostics.push(...problems);
  }
  for (const rest of byFile.values()) diagnostics.push(...rest);
  return { diagnostics, suppressed };
}

interface Range {
  rule: string;
  from: number;
  to: number;
  directive: Directive;
}

/** The line ranges each valid directive silences a rule on; the invalid ones reported. */
function buildRanges(
  directives: readonly Directive[],
  known: ReadonlySet<string>,
  report: (code: string, directive: Directive, message: string) => void,
): Range[] {
  const ranges: Range[] = [];
  const open = new Map<string, Range>();
  for (const directive of directives) {
    const rules = directive.rules.filter((rule) => {
      if (known.has(rule)) return true;
      const suggestion = suggestName(rule, [...known]);
      report(
        'suppression-unknown-rule',
        directive,
        `unknown rule "${rule}" in wfsync-${directive.kind}${suggestion ? ` (did you mean "${suggestion}"?)` : ''}; see "wfsync validate --list-rules"`,
      );
      return false;
    });
    if (directive.rules.length === 0) {
      report(
        'suppression-unknown-rule',
        directive,
        `wfsync-${directive.kind} names no rule; name the rules it is for`,
      );
      continue;
    }
    if (directive.kind === 'enable') {
      for (const rule of rules) {
        const range = open.get(rule);
        if (range) range.to = directive.line;
        open.delete(rule);
      }
      continue;
    }
    if (directive.reason === '') {
      report(
        'suppression-reason-missing',
        directive,
        `wfsync-${directive.kind} needs a reason: "# wfsync-${directive.kind} ${directive.rules.join(', ')} -- <why>"; it silences nothing without one`,
      );
      continue;
    }
    for (const rule of rules) {
      if (directive.kind === 'disable-next-line') {
        ranges.push({ rule, from: directive.line + 1, to: directive.line + 1, directive });
      } else if (!open.has(rule)) {
        const range = { rule, from: directive.line, to: Number.MAX_SAFE_INTEGER, directive };
        open.set(rule, range);
        ranges.push(range);
      }
    }
  }
  return ranges;
}
