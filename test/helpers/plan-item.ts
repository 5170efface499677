import type { PlanAction, PlanItem, PlanItemFields } from '../../src/plan/types.js';

/**
 * A plan item for a test: `identifier` and `action`, no changes, an empty `next`, then `fields`. Fixtures leave out
 * what a test does not read (a create's body, a differing item's attribution), as a hand-edited plan file may: the
 * one place a partial item is taken for a whole one.
 */
export function aPlanItem(
  identifier: string,
  action: PlanAction,
  fields: Partial<Omit<PlanItemFields, 'identifier' | 'action'>> = {},
): PlanItem {
  return { identifier, changes: [], next: '', ...fields, action } as PlanItem;
}
