import { describe, expect, it } from 'vitest';
import type { Diagnostic, Severity } from '../../../src/diagnostic.js';
import { createStyle } from '../../../src/report/style.js';
import { checkedFiles, formatSummaryLines, summarizeReport } from '../../../src/report/summary.js';
import type { ValidateReport } from '../../../src/report/validate-report.js';
import { diagnostic, reportOf } from './fixture-report.js';

const plain = createStyle(false);

function d(file: string, severity: Severity): Diagnostic {
  const code = `${severity}-code`;
  return diagnostic(file, { line: 1, column: 1, endLine: 1, endColumn: 1 }, { code, severity, message: 'm' });
}

function lines(report: ValidateReport): string[] {
  return formatSummaryLines(report, plain);
}

describe('summary', () => {
  const files = ['a.yaml', 'b.yaml', 'c.yaml'];

  it('says the files are valid when nothing was found', () => {
    expect(lines({ ...reportOf([]), files })).toEqual(['✔ 3 files valid']);
    expect(lines({ ...reportOf([]), files: ['a.yaml'] })).toEqual(['✔ 1 file valid']);
  });

  it('keeps files valid when only infos were found, and counts them', () => {
    expect(lines({ ...reportOf([d('a.yaml', 'info')]), files })).toEqual(['✔ 3 files valid, 1 info']);
    expect(lines({ ...reportOf([d('a.yaml', 'info'), d('b.yaml', 'info')]), files })).toEqual([
      '✔ 3 files valid, 2 infos',
    ]);
  });

  it('counts problems by severity and the files they are in', () => {
    const report = {
      ...reportOf([d('a.yaml', 'error'), d('a.yaml', 'warning'), d('b.yaml', 'warning')]),
      files,
    };
    expect(lines(report)).toEqual(['✖ 3 problems (1 error, 2 warnings) in 2 of 3 files']);
    const withInfo = { ...reportOf([d('c.yaml', 'warning'), d('c.yaml', 'info')]), files };
    expect(lines(withInfo)).toEqual(['✖ 2 problems (0 errors, 1 warning, 1 info) in 1 of 3 files']);
  });

  it('says when warnings exceed --max-warnings, and only then', () => {
    const two = [d('a.yaml', 'warning'), d('b.yaml', 'warning')];
    expect(lines({ ...reportOf(two), files, maxWarnings: 2 })).toHaveLength(1);
    expect(lines({ ...reportOf(two), files, maxWarnings: 1 })).toEqual([
      '✖ 2 problems (0 errors, 2 warnings) in 2 of 3 files',
      '✖ warnings: 2 > --max-warnings 1',
    ]);
    expect(summarizeReport({ ...reportOf([]), maxWarnings: 0 }).maxWarningsExceeded).toBe(false);
    expect(
      summarizeReport({ ...reportOf([d('a.yaml', 'warning')]), maxWarnings: 0 }).maxWarningsExceeded,
    ).toBe(true);
  });

  it('counts a file only a diagnostic names (a config file) as checked', () => {
    const report = { ...reportOf([d('wfsync.config.yaml', 'error')]), files };
    expect(checkedFiles(report)).toEqual(['a.yaml', 'b.yaml', 'c.yaml', 'wfsync.config.yaml']);
    expect(summarizeReport(report)).toMatchObject({ files: 4, filesWithProblems: 1, errors: 1 });
  });

  it('colors the verdict: red with errors, yellow with warnings only, green when valid', () => {
    const color = createStyle(true);
    expect(formatSummaryLines({ ...reportOf([d('a.yaml', 'error')]) }, color)[0]).toContain('\x1b[31m');
    expect(formatSummaryLines({ ...reportOf([d('a.yaml', 'warning')]) }, color)[0]).toContain('\x1b[33m');
    expect(formatSummaryLines({ ...reportOf([]), files }, color)[0]).toContain('\x1b[32m');
  });
});
