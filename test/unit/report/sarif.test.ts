import type { Log as SarifLog } from 'sarif';
import { describe, expect, it } from 'vitest';
import type { Diagnostic, Severity } from '../../../src/diagnostic.js';
import { FINGERPRINT_KEY, fileUri, renderSarif, SARIF_SCHEMA } from '../../../src/report/sarif.js';
import type { ValidateReport } from '../../../src/report/validate-report.js';
import { buildFixtureReport, diagnostic, RULES, reportOf } from './fixture-report.js';

/** @types/sarif's log with every part required: the parts renderSarif fills in, which these tests read. */
type Filled<T> = T extends readonly (infer U)[]
  ? Filled<U>[]
  : T extends object
    ? { [K in keyof T]-?: Filled<NonNullable<T[K]>> }
    : T;

// Structure checked by hand against SARIF 2.1.0's essentials: the schema cannot be downloaded here.
function sarif(report: ValidateReport, cwd?: string): Filled<SarifLog> {
  const text = renderSarif(report, { color: false, ...(cwd === undefined ? {} : { cwd }) });
  expect(text.endsWith('}\n')).toBe(true);
  return JSON.parse(text) as Filled<SarifLog>;
}

function d(file: string, severity: Severity, fields: Partial<Diagnostic> = {}): Diagnostic {
  const span = { line: 2, column: 3, endLine: 2, endColumn: 7 };
  return {
    ...diagnostic(file, span, { code: 'schema-type', severity, message: 'm', pointer: '/a' }),
    ...fields,
  };
}

describe('renderSarif', () => {
  it('has the SARIF 2.1.0 envelope and one run whose driver lists every known rule', () => {
    const log = sarif(buildFixtureReport());
    expect(log.$schema).toBe(SARIF_SCHEMA);
    expect(log.version).toBe('2.1.0');
    expect(log.runs).toHaveLength(1);
    const { driver } = log.runs[0]!.tool;
    expect(driver).toMatchObject({ name: 'wfsync', version: '1.2.3' });
    expect(driver.rules.slice(0, RULES.length).map((r) => r.id)).toEqual(RULES.map((r) => r.code));
    expect(driver.rules[1]).toEqual({
      id: 'schema-type',
      shortDescription: { text: 'A value has the wrong type.' },
      fullDescription: { text: 'A value has the wrong type.' },
      helpUri: 'https://example.com/wfsync/rules/schema-type',
      defaultConfiguration: { level: 'error' },
    });
  });

  it('adds a rule for a code the rule list lacks, so every ruleIndex points at its rule', () => {
    const log = sarif(buildFixtureReport());
    const { rules } = log.runs[0]!.tool.driver;
    expect(rules.at(-1)).toMatchObject({
      id: 'variable-name-invalid',
      defaultConfiguration: { level: 'error' },
    });
    for (const result of log.runs[0]!.results) {
      expect(rules[result.ruleIndex]?.id).toBe(result.ruleId);
    }
  });

  it('maps each diagnostic to a result with level, message and a %SRCROOT%-relative region', () => {
    const report = reportOf([d('dir/my file#1.yaml', 'info', { endLine: 4, endColumn: 1, message: 'a\nb' })]);
    const [result] = sarif(report).runs[0]!.results;
    expect(result).toMatchObject({
      ruleId: 'schema-type',
      ruleIndex: 0,
      level: 'note',
      message: { text: 'a\nb' },
      locations: [
        {
          physicalLocation: {
            artifactLocation: { uri: 'dir/my%20file%231.yaml', uriBaseId: '%SRCROOT%', index: 0 },
            region: { startLine: 2, startColumn: 3, endLine: 4, endColumn: 1 },
          },
        },
      ],
    });
    expect(sarif(reportOf([d('a.yaml', 'warning')])).runs[0]!.results[0]!.level).toBe('warning');
  });

  it('lists every checked file as an artifact, clean ones included, in sorted order', () => {
    const log = sarif(buildFixtureReport());
    expect(log.runs[0]!.artifacts.map((a) => a.location.uri)).toEqual([
      'workflows/digest.yaml',
      'workflows/order.yaml',
      'workflows/welcome.yaml',
    ]);
    for (const result of log.runs[0]!.results) {
      const location = result.locations[0]!.physicalLocation.artifactLocation;
      expect(log.runs[0]!.artifacts[location.index!]?.location.uri).toBe(location.uri);
    }
  });

  it('states %SRCROOT% as a file URI ending in / when the working directory is known', () => {
    expect(sarif(reportOf([]), '/home/ci/repo').runs[0]!.originalUriBaseIds).toEqual({
      '%SRCROOT%': { uri: 'file:///home/ci/repo/' },
    });
    expect(sarif(reportOf([])).runs[0]!.originalUriBaseIds).toBeUndefined();
    expect(fileUri('C:\\work\\my repo')).toBe('file:///C:/work/my%20repo');
    expect(fileUri('/')).toBe('file:///');
  });

  it('gives a result without a file no location, and an absolute path a file URI', () => {
    const log = sarif(reportOf([d('', 'error'), d('/etc/wfsync.yaml', 'error')]));
    const [noFile, absolute] = log.runs[0]!.results;
    expect(noFile!.locations).toEqual([]);
    expect(absolute!.locations[0]!.physicalLocation.artifactLocation).toEqual({
      uri: 'file:///etc/wfsync.yaml',
      index: 0,
    });
  });

  it('fingerprints by rule, file and pointer: stable when lines move, distinct for repeats', () => {
    const fingerprint = (report: ValidateReport, i = 0) =>
      sarif(report).runs[0]!.results[i]!.partialFingerprints[FINGERPRINT_KEY]!;
    const moved = fingerprint(reportOf([d('a.yaml', 'error', { line: 40, endLine: 40 })]));
    expect(fingerprint(reportOf([d('a.yaml', 'error')]))).toBe(moved);
    expect(fingerprint(reportOf([d('a.yaml', 'error', { pointer: '/b' })]))).not.toBe(moved);
    expect(moved).toMatch(/^[0-9a-f]{14}:1$/);
    const twice = reportOf([d('a.yaml', 'error', { message: 'x' }), d('a.yaml', 'error', { message: 'y' })]);
    expect([fingerprint(twice, 0), fingerprint(twice, 1)]).toEqual([moved, moved.replace(/:1$/, ':2')]);
  });
});
