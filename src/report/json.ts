import type { Diagnostic } from '../diagnostic.js';
import { SCHEMA_VERSION } from '../plan/schema-version.js';
import type { SuppressedDiagnostic } from '../validate/suppressions.js';
import { jsonText } from './channel.js';
import { summarizeReport } from './summary.js';
import type { RenderOptions, ValidateReport } from './validate-report.js';

/** A diagnostic's keys in the order every JSON format writes them (`includedBy` after, when set). */
export const DIAGNOSTIC_KEYS = [
  'file',
  'line',
  'column',
  'endLine',
  'endColumn',
  'severity',
  'code',
  'message',
  'pointer',
] as const;

/** A diagnostic as every JSON document writes it: rebuilt key by key, in DIAGNOSTIC_KEYS order, `includedBy` last. */
export function diagnosticJson(d: Diagnostic): Record<string, unknown> {
  return Object.fromEntries(
    [...DIAGNOSTIC_KEYS, 'includedBy' as const].filter((k) => d[k] !== undefined).map((k) => [k, d[k]]),
  );
}

/**
 * `wfsync validate --format json`: a public format under the JSON contract's `schemaVersion`, every field described
 * in schemas/validate-output.schema.json. Fields only get added within a version; renaming or removing one bumps
 * `schemaVersion`. Keys always come in the order built below; 2-space indent; trailing newline.
 */
export function renderJson(report: ValidateReport, _options: RenderOptions): string {
  return `${jsonText(buildValidateJson(report))}\n`;
}

/** The validate document (the CLI's `--format json` and the programmatic API's result: one builder). */
export function buildValidateJson(report: ValidateReport): Record<string, unknown> {
  const s = summarizeReport(report);
  return {
    schemaVersion: SCHEMA_VERSION,
    tool: { name: report.tool.name, version: report.tool.version },
    summary: {
      files: s.files,
      filesWithProblems: s.filesWithProblems,
      errors: s.errors,
      warnings: s.warnings,
      infos: s.infos,
    },
    // Rebuilt key by key: fixes the key order and keeps any extra runtime property out of a public format.
    diagnostics: report.diagnostics.map(diagnosticJson),
    // --verbose: what wfsync-disable comments silenced, with the comment's line and reason.
    ...(report.suppressed?.length ? { suppressed: report.suppressed.map(suppressedJson) } : {}),
  };
}

/** A silenced finding in the validate document: the diagnostic's keys, then the comment's line and reason. */
function suppressedJson(d: SuppressedDiagnostic): Record<string, unknown> {
  return { ...diagnosticJson(d), suppressedBy: { line: d.suppressedBy.line, reason: d.suppressedBy.reason } };
}
