/**
 * `wfsync doctor`'s report: one line per check (status, title, what was found) with what to do under it, then the
 * tally; or the same as one JSON document (schemas/doctor-output.schema.json). Pure (doctor/ sits above report/, so
 * its renderer lives with it); the exit code is decided here
 * once, and both formats carry it.
 */

import { ExitCode } from '../exit-codes.js';
import { SCHEMA_VERSION } from '../plan/schema-version.js';
import { jsonText } from '../report/channel.js';
import { plural } from '../text.js';
import type { CheckStatus, DoctorReport } from './types.js';

/** 0 when nothing failed; otherwise the class of the first failing check (its exit code in docs/reference/exit-codes.md). */
export function doctorExitCode(report: DoctorReport): ExitCode {
  return report.checks.find((check) => check.status === 'fail')?.exitCode ?? ExitCode.Ok;
}

export function doctorSummary(report: DoctorReport): Record<CheckStatus, number> {
  const summary: Record<CheckStatus, number> = { ok: 0, warn: 0, fail: 0, skipped: 0 };
  for (const check of report.checks) summary[check.status]++;
  return summary;
}

const LABEL: Record<CheckStatus, string> = { ok: 'ok', warn: 'warn', fail: 'FAIL', skipped: 'skip' };

export function renderDoctorHuman(report: DoctorReport): string {
  const width = Math.max(...report.checks.map((check) => check.title.length));
  const lines = [`wfsync doctor${report.target === undefined ? '' : `: target "${report.target}"`}`];
  for (const check of report.checks) {
    lines.push(`  ${LABEL[check.status].padEnd(4)}  ${check.title.padEnd(width)}  ${check.message}`);
    if (check.hint !== undefined) lines.push(`  ${' '.repeat(4 + 2 + width)}  → ${check.hint}`);
  }
  const summary = doctorSummary(report);
  const counts = [
    `${summary.ok} ok`,
    ...(summary.warn > 0 ? [plural(summary.warn, 'warning')] : []),
    ...(summary.fail > 0 ? [`${summary.fail} failed`] : []),
    ...(summary.skipped > 0 ? [`${summary.skipped} skipped`] : []),
  ];
  const first = report.checks.find((check) => check.status === 'fail');
  const verdict =
    first === undefined
      ? 'exit 0'
      : `exit ${doctorExitCode(report)}, from the first failure ("${first.title}")`;
  lines.push('', `${counts.join(', ')}: ${verdict}`);
  return `${lines.join('\n')}\n`;
}

export function renderDoctorJson(report: DoctorReport): string {
  return `${jsonText({
    schemaVersion: SCHEMA_VERSION,
    ...(report.target === undefined ? {} : { target: report.target }),
    checks: report.checks,
    summary: doctorSummary(report),
    exitCode: doctorExitCode(report),
  })}\n`;
}
