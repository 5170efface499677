import type { Diagnostic } from '../diagnostic.js';
import type { SuppressedDiagnostic } from '../validate/suppressions.js';
import { checkedFiles, countedFile, groupByFile } from './summary.js';
import { formatSuppressedLine } from './suppressed.js';
import type { RenderOptions, ValidateReport } from './validate-report.js';
import { escapeXmlText, xmlAttributes } from './xml.js';

/**
 * `--format junit`, for CI test dashboards (GitLab, Jenkins, Azure, test-reporter actions):
 *
 * - one `<testsuite>` per checked file, holding one `<testcase>` (classname `wfsync.validate`, name = file); a
 *   finding inside a file a definition includes belongs to the definition's test case (the test count stays the
 *   number of files checked), its lines naming the included file;
 * - a file with errors fails: ONE `<failure>` (message: the first error, `type`: its code) whose text lists
 *   every error as `file:line:col error message [code]`. One failure per test case because the Ant JUnit
 *   schema allows only one and several dashboards show only the first;
 * - warnings and infos do not fail the test case (they do not fail `wfsync validate` either, unless
 *   `--max-warnings`, which is a run-level verdict): they are listed in the test case's `<system-out>`.
 *
 * No `time` attributes: validation has no meaningful per-file duration and renderers read no clock.
 */
export function renderJunit(report: ValidateReport, _options: RenderOptions): string {
  const files = checkedFiles(report, countedFile);
  const byFile = groupByFile(report.diagnostics, countedFile);
  const silencedByFile = groupByFile(report.suppressed ?? [], countedFile);
  const suites: string[] = [];
  let failures = 0;
  for (const file of files) {
    const diagnostics = byFile.get(file) ?? [];
    const errors = diagnostics.filter((d) => d.severity === 'error');
    const others = diagnostics.filter((d) => d.severity !== 'error');
    if (errors.length > 0) failures++;
    const suiteAttributes = xmlAttributes([
      ['name', file],
      ['tests', 1],
      ['failures', errors.length > 0 ? 1 : 0],
      ['errors', 0],
      ['skipped', 0],
    ]);
    const caseAttributes = xmlAttributes([
      ['classname', 'wfsync.validate'],
      ['name', file],
      ['file', file],
    ]);
    const body: string[] = [];
    const [firstError] = errors;
    if (firstError) {
      const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : '';
      const failureAttributes = xmlAttributes([
        ['message', `${formatPlace(firstError, file)} ${firstError.message}${more}`],
        ['type', firstError.code],
      ]);
      body.push(
        `      <failure${failureAttributes}>${escapeXmlText(errors.map(formatLine).join('\n'))}</failure>`,
      );
    }
    // --verbose: what wfsync-disable comments silenced, after the warnings and infos.
    const silenced = (silencedByFile.get(file) ?? []) as SuppressedDiagnostic[];
    const out = [...others.map(formatLine), ...silenced.map(formatSuppressedLine)];
    if (out.length > 0) body.push(`      <system-out>${escapeXmlText(out.join('\n'))}</system-out>`);
    const testcase =
      body.length === 0
        ? `    <testcase${caseAttributes}/>`
        : [`    <testcase${caseAttributes}>`, ...body, '    </testcase>'].join('\n');
    suites.push([`  <testsuite${suiteAttributes}>`, testcase, '  </testsuite>'].join('\n'));
  }
  const rootAttributes = xmlAttributes([
    ['name', 'wfsync validate'],
    ['tests', files.length],
    ['failures', failures],
    ['errors', 0],
  ]);
  const root =
    suites.length === 0
      ? [`<testsuites${rootAttributes}/>`]
      : [`<testsuites${rootAttributes}>`, ...suites, '</testsuites>'];
  return `${['<?xml version="1.0" encoding="UTF-8"?>', ...root].join('\n')}\n`;
}

/** `line:col`, or `file:line:col` for a place in another file than the test case's (an included one). */
function formatPlace(d: Diagnostic, testFile: string): string {
  return `${d.file === testFile ? '' : `${d.file}:`}${d.line}:${d.column}`;
}

/** `file:line:col severity message [code]`, further message lines indented under it. */
function formatLine(d: Diagnostic): string {
  const message = d.message.replace(/\r\n|\r|\n/g, '\n  ');
  return `${d.file}:${d.line}:${d.column} ${d.severity} ${message} [${d.code}]`;
}
