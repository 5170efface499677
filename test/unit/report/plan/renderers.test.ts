import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { renderPlanStepSummary, renderSyncStepSummary } from '../../../../src/report/plan/markdown.js';
import {
  type PlanCommandFormat,
  type PlanFormat,
  planRenderers,
  syncRenderers,
} from '../../../../src/report/plan/renderers.js';
import { mutationProfile } from '../../../helpers/fc-runs.js';
import { buildFixturePlan, buildFixtureSync, planOf, syncOf } from './fixture-plan.js';

const PLAN_FORMATS = Object.keys(planRenderers) as PlanCommandFormat[];
const SYNC_FORMATS = Object.keys(syncRenderers) as PlanFormat[];

describe('planRenderers and syncRenderers', () => {
  it('have a renderer for every format name, and only those', () => {
    expect([...PLAN_FORMATS].sort()).toEqual(['codeclimate', 'github', 'human', 'json', 'markdown']);
    // Sync's result is not a list of findings: no Code Quality report.
    expect([...SYNC_FORMATS].sort()).toEqual(['github', 'human', 'json', 'markdown']);
  });

  it('render full and empty results in every format, ending with exactly one newline', () => {
    for (const color of [false, true]) {
      for (const format of PLAN_FORMATS) {
        for (const plan of [buildFixturePlan(), planOf([])]) {
          const out = planRenderers[format](plan, { color, command: 'plan', showIgnored: true });
          expect(out.endsWith('\n') && !out.endsWith('\n\n'), `plan ${format}`).toBe(true);
        }
      }
      for (const format of SYNC_FORMATS) {
        for (const result of [buildFixtureSync(), syncOf([])]) {
          const out = syncRenderers[format](result, { color, command: 'sync' });
          expect(out.endsWith('\n') && !out.endsWith('\n\n'), `sync ${format}`).toBe(true);
        }
      }
    }
    expect(renderPlanStepSummary(planOf([]))).toMatch(
      /\| \*\*Total\*\* \| \*\*0\*\* \|\n\n### Next steps\n\n.*\n$/,
    );
    expect(renderSyncStepSummary(syncOf([]))).toMatch(/\n\n### Next steps\n\n- Nothing left to do\.\n$/);
  });

  it('do not change what they render', () => {
    const plan = buildFixturePlan();
    const result = buildFixtureSync();
    const before = JSON.stringify([plan, result]);
    for (const format of PLAN_FORMATS) {
      planRenderers[format](plan, { color: true, command: 'plan', showIgnored: true });
    }
    for (const format of SYNC_FORMATS) {
      syncRenderers[format](result, { color: true, command: 'sync', showIgnored: true });
    }
    renderPlanStepSummary(plan);
    renderSyncStepSummary(result);
    expect(JSON.stringify([plan, result])).toBe(before);
  });

  it('put no escape code anywhere but in human with color', () => {
    for (const format of PLAN_FORMATS) {
      const color = format !== 'human';
      expect(planRenderers[format](buildFixturePlan(), { color, command: 'plan' })).not.toContain('\x1b');
    }
    for (const format of SYNC_FORMATS) {
      const color = format !== 'human';
      expect(syncRenderers[format](buildFixtureSync(), { color, command: 'sync' })).not.toContain('\x1b');
    }
  });
});

describe('purity of src/report/plan', () => {
  // Renderers are pure. Checked on the source, as the lint rule cannot.
  const dir = new URL('../../../../src/report/plan/', import.meta.url);
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));

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
