// Frozen copy of src/validate/rules/steps.ts before the allocation work (commit 8e3e79f): the oracle for the differential
// tests. Change it only along with a deliberate change of behaviour in src.

import type { Rule, RuleContext } from '../../../../src/validate/rules/types.js';
import { joinPointer } from './diagnostic.js';
import { allSteps, displayPath, quote, type StepRef } from './walk.js';

/** Report every step whose `field` repeats an earlier step's, naming where the first one is. */
function checkUnique(ctx: RuleContext, refs: readonly StepRef[], field: 'name' | 'uuid'): void {
  const first = new Map<string, string>();
  for (const ref of refs) {
    const value = ref.step[field];
    if (typeof value !== 'string') continue;
    const at = joinPointer(ref.pointer, field);
    const earlier = first.get(value);
    if (earlier === undefined) {
      first.set(value, at);
      continue;
    }
    const line = ctx.definition.locate(earlier).line;
    const what =
      field === 'name'
        ? 'step names tell steps apart in the plan and the dashboard'
        : 'filters and the service refer to steps by uuid';
    ctx.report(
      at,
      `${displayPath(at)} ${quote(value)} is already used by ${displayPath(earlier)} (line ${line}): ${what}, so make it unique.`,
    );
  }
}

export const stepNameDuplicate: Rule = {
  code: 'step-name-duplicate',
  defaultSeverity: 'error',
  description: 'the steps of a workflow must have different names',
  check(ctx) {
    checkUnique(
      ctx,
      allSteps(ctx.workflow).filter((ref) => !ref.isVariant),
      'name',
    );
  },
};

export const stepUuidDuplicate: Rule = {
  code: 'step-uuid-duplicate',
  defaultSeverity: 'error',
  description: 'the steps (and variants) of a workflow must have different uuids',
  check(ctx) {
    checkUnique(ctx, allSteps(ctx.workflow), 'uuid');
  },
};
