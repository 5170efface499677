/**
 * A command that failed as a whole (main.ts's error path), as a value the document formats render: `--format json`
 * prints the error document (schemas/error-output.schema.json) so stdout always holds one document; `--format
 * markdown` prints a failed-plan comment (plan/markdown-failure.ts); `--format github` prints annotations
 * (renderFailureGithub). Pure; the CLI builds the value from the error.
 */
import type { Diagnostic } from '../diagnostic.js';
import type { ErrorObject } from '../generated/validate-output.js';
import { SCHEMA_VERSION } from '../plan/schema-version.js';
import { jsonText } from './channel.js';
import { capAnnotations, escapeData, escapeProperty, formatAnnotation } from './github.js';
import { diagnosticJson } from './json.js';

/**
 * Stable codes, by what the user can do, as the error document's schema lists them (schemas/error-output.schema.json,
 * through `npm run gen`): `service-<kind>` for every RemoteError kind but `auth` and `rate-limited`.
 */
export type FailureCode = ErrorObject['code'];

export interface CommandFailure {
  code: FailureCode;
  /** As stderr says it (secrets already redacted by the error that carries it). */
  message: string;
  exitCode: number;
  diagnostics: readonly Diagnostic[];
  /** The request that failed, when the service was asked. */
  endpoint?: ErrorObject['endpoint'];
  /** The HTTP status the service answered, when it answered. */
  status?: number;
}

/** `{schemaVersion, error: {code, message, exitCode, diagnostics?, endpoint?, status?}}`, keys in that order. */
export function renderFailureJson(failure: CommandFailure): string {
  const error: Record<string, unknown> = {
    code: failure.code,
    message: failure.message,
    exitCode: failure.exitCode,
  };
  if (failure.diagnostics.length > 0) {
    error.diagnostics = failure.diagnostics.map(diagnosticJson);
  }
  if (failure.endpoint) error.endpoint = { method: failure.endpoint.method, path: failure.endpoint.path };
  if (failure.status !== undefined) error.status = failure.status;
  return `${jsonText({ schemaVersion: SCHEMA_VERSION, error })}\n`;
}

/**
 * `--format github` (plan and sync) when the command failed as a whole: one `::error` annotation for the failure,
 * titled with the command, exit code and code, then one per diagnostic on its file's line (at most 10 of each kind,
 * a notice counting the rest, which stderr lists). Each line after `mark` (render options' `commandMark`).
 */
export function renderFailureGithub(
  failure: CommandFailure,
  options: { command: 'plan' | 'sync'; mark?: string },
): string {
  const mark = options.mark ?? '';
  const title = escapeProperty(
    `wfsync ${options.command} failed (exit ${failure.exitCode}, ${failure.code})`,
  );
  const { shown, notice } = capAnnotations(failure.diagnostics, {
    kindOf: (d) => d.severity,
    kinds: ['error', 'warning', 'info'],
    where: "this job's log",
    mark,
  });
  const lines = [
    `${mark}::error title=${title}::${escapeData(failure.message)}`,
    ...shown.map((d) => formatAnnotation(d, mark)),
    ...notice,
  ];
  return `${lines.join('\n')}\n`;
}
