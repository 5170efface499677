import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderGithubStepSummary } from '../../../src/report/github-summary.js';
import { validateRenderers } from '../../../src/report/validate-renderers.js';
import type { ValidateFormat } from '../../../src/report/validate-report.js';
import { mutationProfile } from '../../helpers/fc-runs.js';
import { buildFixtureReport, reportOf } from './fixture-report.js';

const VALIDATE_FORMATS = Object.keys(validateRenderers) as ValidateFormat[];

describe('validateRenderers', () => {
  it('has a renderer for every format name, and only those', () => {
    expect([...VALIDATE_FORMATS].sort()).toEqual([
      'codeclimate',
      'github',
      'human',
      'json',
      'junit',
      'sarif',
    ]);
  });

  it('renders both a full and an empty report in every format, ending with one newline', () => {
    for (const report of [buildFixtureReport(), reportOf([])]) {
      for (const format of VALIDATE_FORMATS) {
        const out = validateRenderers[format](report, { color: false });
        expect(out.endsWith('\n'), format).toBe(true);
        expect(out.endsWith('\n\n'), format).toBe(false);
      }
      expect(renderGithubStepSummary(report).endsWith('\n')).toBe(true);
    }
  });

  it('does not change the report it renders', () => {
    const report = buildFixtureReport();
    const before = JSON.stringify({ ...report, sources: [...report.sources] });
    for (const format of VALIDATE_FORMATS) validateRenderers[format](report, { color: true, cwd: '/x' });
    renderGithubStepSummary(report);
    expect(JSON.stringify({ ...report, sources: [...report.sources] })).toBe(before);
  });
});

describe('purity of src/report', () => {
  // Renderers are pure: only write-output.ts may do I/O. Checked on the source, as the lint rule cannot.
  const dir = new URL('../../../src/report/', import.meta.url);
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts') && f !== 'write-output.ts');

  // Under mutation testing the sources are Stryker's instrumented copies, which read `process.env`.
  (mutationProfile ? it.skip : it).each(files)(
    '%s imports no node:* module and uses no console, process, clock or randomness',
    (file) => {
      const source = readFileSync(new URL(file, dir), 'utf8');
      expect(source).not.toMatch(/from ['"]node:|require\(|import\(['"]node:/);
      expect(source).not.toMatch(/\b(console|process)\.|\bDate\b|Math\.random|\bBuffer\b/);
    },
  );
});
