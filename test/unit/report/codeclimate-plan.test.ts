import { describe, expect, it } from 'vitest';
import type { CodeClimateIssue } from '../../../src/report/codeclimate.js';
import { renderPlanCodeClimate } from '../../../src/report/plan/codeclimate.js';
import { planRenderers } from '../../../src/report/plan/renderers.js';
import { jsonOutputProblems } from '../../helpers/json-output.js';
import { buildFixturePlan, diagnostic, item, planOf } from './plan/fixture-plan.js';

function issuesOf(text: string): CodeClimateIssue[] {
  const value = JSON.parse(text) as CodeClimateIssue[];
  expect(jsonOutputProblems('codeclimate', value)).toEqual([]);
  return value;
}

describe('plan --format codeclimate', () => {
  it('lists what needs a person and what could not be asked, not creates or in-sync workflows', () => {
    const issues = issuesOf(renderPlanCodeClimate(buildFixturePlan()));
    expect(issues.map((i) => [i.check_name, i.location.path, i.severity])).toEqual([
      ['wfsync-plan/conflict', 'workflows/comment-reply.yaml', 'critical'],
      ['wfsync-plan/changed-locally', 'workflows/invoice-paid.yaml', 'major'],
      ['wfsync-plan/error', 'workflows/payment-failed.yaml', 'critical'],
      ['wfsync-plan/missing-remotely', 'workflows/trial-ending.yaml', 'major'],
      ['wfsync-plan/drifted', 'workflows/welcome.yaml', 'major'],
      ['wfsync-plan/orphaned', 'wfsync.config.yaml', 'info'],
    ]);
    expect(issues[2]!.description).toBe(
      'payment-failed: error on staging. GET /v1/workflows/payment-failed failed: 503 Service Unavailable ' +
        '(after 3 attempts) Next: Run "wfsync plan" again; if the service keeps failing, check its status page.',
    );
  });

  it('is what the renderer table gives for codeclimate', () => {
    const plan = buildFixturePlan();
    expect(planRenderers.codeclimate(plan, { color: false, command: 'plan' })).toBe(
      renderPlanCodeClimate(plan),
    );
  });

  it('positions an item at the line of its first change, and keeps its fingerprint when that line moves', () => {
    const at = (line: number) =>
      issuesOf(renderPlanCodeClimate(planOf([item('welcome', 'drifted', { line, endLine: line + 2 })])))[0]!;
    expect(at(6).location.lines).toEqual({ begin: 6, end: 8 });
    expect(at(30).fingerprint).toBe(at(6).fingerprint);
  });

  it('tells the same workflow drifted from conflicting, and one target from another', () => {
    const of = (action: 'drifted' | 'conflict', target = 'staging') =>
      issuesOf(renderPlanCodeClimate(planOf([item('welcome', action)], { name: target, baseUrl: 'x' })))[0]!
        .fingerprint;
    expect(of('drifted')).not.toBe(of('conflict'));
    expect(of('drifted')).not.toBe(of('drifted', 'production'));
  });

  it("adds the service's refusals (item diagnostics) at their own lines", () => {
    const plan = planOf([item('order-shipped', 'create', { diagnostics: [diagnostic()] })]);
    const issues = issuesOf(renderPlanCodeClimate(plan));
    expect(issues.map((i) => [i.check_name, i.location.lines.begin])).toEqual([
      [diagnostic().code, diagnostic().line],
    ]);
  });

  it('is [] for a plan with nothing that needs a person', () => {
    expect(renderPlanCodeClimate(planOf([item('a', 'create'), item('b', 'in-sync')]))).toBe('[]\n');
  });
});
