import { describe, expect, it } from 'vitest';
import { renderJson } from '../../../src/report/json.js';
import { buildFixtureReport, diagnostic, reportOf } from './fixture-report.js';

describe('renderJson', () => {
  it('parses back to the documented shape with counts that match the diagnostics', () => {
    const report = buildFixtureReport();
    const text = renderJson(report, { color: false });
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.split('\n')[1]).toBe('  "schemaVersion": 4,');
    const parsed = JSON.parse(text);
    expect(Object.keys(parsed)).toEqual(['schemaVersion', 'tool', 'summary', 'diagnostics']);
    expect(parsed.tool).toEqual({ name: 'wfsync', version: '1.2.3' });
    expect(parsed.summary).toEqual({ files: 3, filesWithProblems: 2, errors: 4, warnings: 2, infos: 2 });
    expect(parsed.diagnostics).toHaveLength(report.diagnostics.length);
    expect(parsed.diagnostics).toEqual(report.diagnostics.map((d) => ({ ...d })));
  });

  it('writes diagnostic keys in a fixed order and nothing beyond the documented fields', () => {
    const extra = {
      ...diagnostic(
        'a.yaml',
        { line: 1, column: 2, endLine: 3, endColumn: 4 },
        {
          code: 'c',
          severity: 'warning',
          message: 'm',
          pointer: '/p',
        },
      ),
      internal: 'not public',
    };
    const [out] = JSON.parse(renderJson(reportOf([extra]), { color: false })).diagnostics;
    expect(Object.keys(out)).toEqual([
      'file',
      'line',
      'column',
      'endLine',
      'endColumn',
      'severity',
      'code',
      'message',
      'pointer',
    ]);
  });

  it('is the same text for the same report (stable for diffs and caches)', () => {
    expect(renderJson(buildFixtureReport(), { color: true })).toBe(
      renderJson(buildFixtureReport(), { color: false }),
    );
  });
});
