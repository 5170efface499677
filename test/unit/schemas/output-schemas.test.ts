import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { renderJson } from '../../../src/report/json.js';
import { renderPlanJson, renderSyncJson } from '../../../src/report/plan/json.js';
import { jsonOutputProblems, OUTPUT_SCHEMA_FILES } from '../../helpers/json-output.js';
import { buildFixtureReport } from '../report/fixture-report.js';
import { buildFixturePlan, buildFixtureSync } from '../report/plan/fixture-plan.js';

/** The output schemas compile strictly, describe what the renderers write, and refuse what they must not. */

describe('output schemas', () => {
  it('are the ones docs/reference/json-output.md links, every one of them', () => {
    const page = readFileSync(
      fileURLToPath(new URL('../../../docs/reference/json-output.md', import.meta.url)),
      'utf8',
    );
    const linked = new Set(
      [...page.matchAll(/\(\.\.\/\.\.\/schemas\/([a-z-]+-output\.schema\.json)\)/g)].map((m) => m[1]),
    );
    expect([...linked].sort()).toEqual([...OUTPUT_SCHEMA_FILES].sort());
    expect(OUTPUT_SCHEMA_FILES).toContain('plan-output.schema.json');
    expect(OUTPUT_SCHEMA_FILES.length).toBeGreaterThanOrEqual(10);
  });

  it('match the fixture plan, sync result and validate report as rendered', () => {
    expect(jsonOutputProblems('plan', JSON.parse(renderPlanJson(buildFixturePlan())))).toEqual([]);
    expect(jsonOutputProblems('sync', JSON.parse(renderSyncJson(buildFixtureSync())))).toEqual([]);
    const report = buildFixtureReport();
    expect(jsonOutputProblems('validate', JSON.parse(renderJson(report, { color: false })))).toEqual([]);
  });

  it.each<[string, (plan: Record<string, unknown>) => unknown]>([
    ['the old "version" key', ({ schemaVersion: _, ...plan }) => ({ ...plan, version: 1 })],
    [
      'a kebab-case summary key',
      (plan) => ({ ...plan, summary: { ...(plan.summary as object), 'in-sync': 0 } }),
    ],
    [
      'an unknown action',
      (plan) => ({ ...plan, items: [{ ...(plan.items as object[])[0], action: 'updated' }] }),
    ],
    ['an unknown top-level key', (plan) => ({ ...plan, extra: true })],
  ])('refuse a plan with %s', (_what, spoil) => {
    const plan = JSON.parse(renderPlanJson(buildFixturePlan())) as Record<string, unknown>;
    expect(jsonOutputProblems('plan', spoil(plan))).not.toEqual([]);
  });

  it('refuse a sync result whose summary uses the outcomes as spelled in values', () => {
    const sync = JSON.parse(renderSyncJson(buildFixtureSync())) as { summary: Record<string, number> };
    const { inSync, ...rest } = sync.summary;
    expect(jsonOutputProblems('sync', { ...sync, summary: { ...rest, 'in-sync': inSync } })).not.toEqual([]);
  });
});
