import { describe, expect, it } from 'vitest';
import { findPlanStaleness } from '../../../src/plan/staleness.js';
import type { Plan, PlanItem, PlanItemFields } from '../../../src/plan/types.js';
import { aPlanItem } from '../../helpers/plan-item.js';
import { planOf, TARGET } from '../report/plan/fixture-plan.js';

/** `sync --plan` refuses a reviewed plan for exactly these reasons, in this order. */

function item(identifier: string, overrides: Partial<PlanItemFields> = {}): PlanItem {
  return aPlanItem(identifier, overrides.action ?? 'in-sync', {
    desiredHash: `sha256:${identifier}`,
    remoteVersion: `${identifier}@2024-10-01T00:00:00.000Z#0`,
    next: 'nothing to do.',
    ...overrides,
  });
}

/** A plan for the target named `target` (the shared report fixture; its summary counts the items). */
function plan(items: PlanItem[], target = 'dev'): Plan {
  return planOf(items, { ...TARGET, name: target });
}

describe('findPlanStaleness', () => {
  it.each<[string, Plan, Plan, string[]]>([
    ['the same plan holds', plan([item('a'), item('b')]), plan([item('b'), item('a')]), []],
    [
      'a definition file changed',
      plan([item('a')]),
      plan([item('a', { desiredHash: 'sha256:new' })]),
      ['a: the definition file changed since the plan was made'],
    ],
    [
      'the service changed',
      plan([item('a')]),
      plan([item('a', { remoteVersion: 'a@2024-11-01T00:00:00.000Z#1' })]),
      ['a: the workflow on the service changed since the plan was made'],
    ],
    [
      'the action changed',
      plan([item('a', { action: 'create', remoteVersion: undefined })]),
      plan([item('a', { action: 'conflict', remoteVersion: undefined })]),
      ['a: was "create" in the plan, is "conflict" now'],
    ],
    [
      'everything about one item changed, in a fixed order',
      plan([item('a', { action: 'create', remoteVersion: undefined })]),
      plan([item('a', { action: 'in-sync', desiredHash: 'sha256:x' })]),
      [
        'a: the definition file changed since the plan was made',
        'a: the workflow on the service changed since the plan was made',
        'a: was "create" in the plan, is "in-sync" now',
      ],
    ],
    [
      'a workflow left, another came',
      plan([item('a'), item('b')]),
      plan([item('b'), item('c')]),
      ['a: in the plan, but no longer a definition or in state', 'c: not in the plan (a new definition?)'],
    ],
    [
      'another target',
      plan([item('a')], 'dev'),
      plan([item('a')], 'prod'),
      ['the plan is for target "dev", not "prod"'],
    ],
    [
      'another target and a changed item: both said',
      plan([item('a')], 'dev'),
      plan([item('a', { desiredHash: 'sha256:x' })], 'prod'),
      ['the plan is for target "dev", not "prod"', 'a: the definition file changed since the plan was made'],
    ],
  ])('%s', (_what, reviewed, fresh, reasons) => {
    expect(findPlanStaleness(reviewed, fresh)).toEqual(reasons);
  });
});
