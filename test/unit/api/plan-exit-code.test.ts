import { describe, expect, it } from 'vitest';
import { planExitCode } from '../../../src/api/outcome.js';
import { ExitCode } from '../../../src/exit-codes.js';
import { PLAN_ACTION_NAMES, PLAN_ACTIONS } from '../../../src/plan/actions.js';
import type { Plan, PlanAction, PlanItemFields } from '../../../src/plan/types.js';
import { aPlanItem } from '../../helpers/plan-item.js';

/** Plan's exit code: 1 an error item, else 6 a person must act, else 2 a workflow to create, else 0. */

function planOf(items: Array<Partial<PlanItemFields> & { action: PlanAction }>): Plan {
  const full = items.map((item, i) => aPlanItem(`w${i}`, item.action, item));
  const summary = Object.fromEntries(
    PLAN_ACTION_NAMES.map((action) => [PLAN_ACTIONS[action].summaryKey, 0]),
  ) as Plan['summary'];
  for (const item of full) summary[PLAN_ACTIONS[item.action].summaryKey]++;
  return { version: 1, target: { name: 'dev', baseUrl: 'x' }, items: full, summary, ignoredFields: [] };
}

const recorded = { stateId: 'a', remoteId: 'a', stateHash: 'h', desiredHash: 'h' };

describe('planExitCode', () => {
  it('0: everything in sync and recorded as it is', () => {
    expect(planExitCode(planOf([{ action: 'in-sync', ...recorded }]))).toBe(ExitCode.Ok);
    expect(planExitCode(planOf([]))).toBe(ExitCode.Ok);
  });

  it('0 also when sync would only record an identity or hash: the service already holds the file', () => {
    expect(planExitCode(planOf([{ action: 'in-sync', remoteId: 'a', desiredHash: 'h' }]))).toBe(ExitCode.Ok);
    expect(planExitCode(planOf([{ action: 'in-sync', ...recorded, stateHash: 'old' }]))).toBe(ExitCode.Ok);
    expect(planExitCode(planOf([{ action: 'in-sync', ...recorded, remoteId: 'b' }]))).toBe(ExitCode.Ok);
  });

  it('2: a workflow to create', () => {
    expect(planExitCode(planOf([{ action: 'create' }]))).toBe(ExitCode.Changes);
    expect(planExitCode(planOf([{ action: 'create' }, { action: 'in-sync', ...recorded }]))).toBe(2);
  });

  it.each(['drifted', 'changed-locally', 'conflict', 'missing-remotely', 'orphaned'] as const)(
    '6: %s needs a person, whatever else sync would do',
    (action) => {
      expect(ExitCode.NeedsPerson).toBe(6);
      expect(planExitCode(planOf([{ action }]))).toBe(6);
      expect(
        planExitCode(planOf([{ action: 'create' }, { action }, { action: 'in-sync', ...recorded }])),
      ).toBe(6);
    },
  );

  it('1: an error item wins over everything', () => {
    expect(planExitCode(planOf([{ action: 'error' }, { action: 'drifted' }, { action: 'create' }]))).toBe(1);
  });
});
