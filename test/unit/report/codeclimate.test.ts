import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../../src/diagnostic.js';
import {
  buildCodeClimateIssues,
  type CodeClimateIssue,
  type CodeClimateProblem,
  renderFailureCodeClimate,
  renderValidateCodeClimate,
} from '../../../src/report/codeclimate.js';
import { runs } from '../../helpers/fc-runs.js';
import { jsonOutputProblems } from '../../helpers/json-output.js';
import { buildFixtureReport } from './fixture-report.js';

function issuesOf(text: string): CodeClimateIssue[] {
  expect(text.endsWith(']\n')).toBe(true);
  const value = JSON.parse(text) as CodeClimateIssue[];
  expect(jsonOutputProblems('codeclimate', value)).toEqual([]);
  return value;
}

const d = (fields: Partial<Diagnostic> = {}): Diagnostic => ({
  code: 'template-unknown-variable',
  severity: 'warning',
  message: 'unknown variable {{ammount}}',
  file: 'workflows/welcome.yaml',
  pointer: '/steps/0/template/content',
  line: 12,
  column: 5,
  endLine: 12,
  endColumn: 20,
  ...fields,
});

const report = (diagnostics: Diagnostic[]) => ({ ...buildFixtureReport(), diagnostics });

describe('validate --format codeclimate', () => {
  it('is one issue per diagnostic, at its lines, with GitLab severities, valid against the schema', () => {
    const issues = issuesOf(renderValidateCodeClimate(buildFixtureReport()));
    expect(issues).toHaveLength(buildFixtureReport().diagnostics.length);
    const first = buildFixtureReport().diagnostics[0]!;
    expect(issues[0]).toMatchObject({
      type: 'issue',
      check_name: first.code,
      location: { path: first.file, lines: { begin: first.line, end: first.endLine } },
      severity: { error: 'major', warning: 'minor', info: 'info' }[first.severity],
    });
  });

  it('prints [] for a clean report (GitLab: no problems)', () => {
    expect(renderValidateCodeClimate(report([]))).toBe('[]\n');
  });

  it('keeps a fingerprint when the finding moves to another line or its message changes', () => {
    const [before] = issuesOf(renderValidateCodeClimate(report([d()])));
    const [after] = issuesOf(
      renderValidateCodeClimate(
        report([d({ line: 40, endLine: 41, message: 'unknown variable {{amount2}}' })]),
      ),
    );
    expect(after!.fingerprint).toBe(before!.fingerprint);
    expect(after!.location.lines.begin).toBe(40);
  });

  it('gives different fingerprints to another code, file, pointer or including definition', () => {
    const base = issuesOf(renderValidateCodeClimate(report([d()])))[0]!.fingerprint;
    for (const other of [
      d({ code: 'schema-type' }),
      d({ file: 'workflows/other.yaml' }),
      d({ pointer: '/steps/1/template/content' }),
      d({ includedBy: 'workflows/digest.yaml' }),
    ]) {
      expect(issuesOf(renderValidateCodeClimate(report([other])))[0]!.fingerprint).not.toBe(base);
    }
  });

  it('keeps two findings of one code at one pointer apart', () => {
    const issues = issuesOf(
      renderValidateCodeClimate(report([d({ column: 5 }), d({ column: 30, message: 'unknown {{b}}' })])),
    );
    expect(issues[1]!.fingerprint).toBe(`${issues[0]!.fingerprint}-2`);
  });

  it('writes text from outside on one line, controls visible, mentions and comments broken', () => {
    const [issue] = issuesOf(
      renderValidateCodeClimate(report([d({ message: 'bad\nvalue \u202e@admin <!-- x --> #12\u0007' })])),
    );
    expect(issue!.description).toBe('bad value \ufffd@\u200badmin <\u200b!-- x --> #\u200b12\u2407');
  });

  it('cuts a long description to 1000 characters', () => {
    const [issue] = issuesOf(renderValidateCodeClimate(report([d({ message: 'x'.repeat(5000) })])));
    expect(Array.from(issue!.description)).toHaveLength(1000);
    expect(issue!.description.endsWith('…')).toBe(true);
  });

  it('puts a finding without a file (a config problem) at the config file', () => {
    const [issue] = issuesOf(renderValidateCodeClimate(report([d({ file: '', line: 0, endLine: 0 })])));
    expect(issue!.location).toEqual({ path: 'wfsync.config.yaml', lines: { begin: 1, end: 1 } });
  });
});

describe('a failed command under --format codeclimate', () => {
  it('is still one report: a blocker for the failure, then its diagnostics', () => {
    const text = renderFailureCodeClimate(
      { code: 'auth', message: 'the service refused the API key', exitCode: 4, diagnostics: [d()] },
      { command: 'plan', configPath: 'wfsync.config.yml' },
    );
    const issues = issuesOf(text);
    expect(issues.map((i) => [i.check_name, i.severity, i.location.path])).toEqual([
      ['wfsync-plan/auth', 'blocker', 'wfsync.config.yml'],
      ['template-unknown-variable', 'minor', 'workflows/welcome.yaml'],
    ]);
    expect(issues[0]!.description).toBe('wfsync plan failed (exit 4, auth): the service refused the API key');
  });
});

/** Problems as fast-check builds them: few values per part, so equal parts (and equal keys) happen often. */
const problem = fc.record({
  checkName: fc.constantFrom('a', 'b', 'wfsync-plan/drifted'),
  description: fc.string(),
  path: fc.constantFrom('w/a.yaml', 'w/b.yaml'),
  begin: fc.integer({ min: 1, max: 500 }),
  severity: fc.constantFrom('info', 'minor', 'major', 'critical', 'blocker') as fc.Arbitrary<
    CodeClimateProblem['severity']
  >,
  identity: fc.array(fc.constantFrom('/x', '/y', 'welcome', ''), { maxLength: 2 }),
});

describe('fingerprints (properties)', () => {
  it('no two issues of a report share a fingerprint', () => {
    fc.assert(
      fc.property(fc.array(problem, { maxLength: 40 }), (problems) => {
        const fingerprints = buildCodeClimateIssues(problems).map((i) => i.fingerprint);
        expect(new Set(fingerprints).size).toBe(fingerprints.length);
      }),
      { numRuns: runs(300) },
    );
  });

  it('shifting lines and rewording messages changes no fingerprint', () => {
    fc.assert(
      fc.property(
        fc.array(problem, { maxLength: 30 }),
        fc.integer({ min: 0, max: 1000 }),
        fc.string(),
        (problems, shift, words) => {
          const moved = problems.map((p) => ({
            ...p,
            begin: p.begin + shift,
            description: words + p.description,
          }));
          expect(buildCodeClimateIssues(moved).map((i) => i.fingerprint)).toEqual(
            buildCodeClimateIssues(problems).map((i) => i.fingerprint),
          );
        },
      ),
      { numRuns: runs(300) },
    );
  });

  it('a problem keeps its fingerprint when an unrelated one (another key) is added or removed', () => {
    fc.assert(
      fc.property(fc.array(problem, { maxLength: 20 }), problem, (problems, extra) => {
        const key = (p: CodeClimateProblem) => [p.checkName, p.path, ...p.identity].join('\0');
        const unrelated = problems.filter((p) => key(p) !== key(extra));
        const without = buildCodeClimateIssues(unrelated).map((i) => i.fingerprint);
        const withExtra = buildCodeClimateIssues([extra, ...unrelated]).map((i) => i.fingerprint);
        expect(withExtra.slice(1)).toEqual(without);
      }),
      { numRuns: runs(300) },
    );
  });
});
