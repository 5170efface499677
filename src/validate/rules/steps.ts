import { joinPointer } from '../../diagnostic.js';
import type { Rule, RuleContext } from './types.js';
import { allSteps, displayPath, quote, type StepRef } from './walk.js';

/** Report every step whose `field` repeats an earlier step's, naming where the first one is. */
function checkUnique(ctx: RuleContext, field: 'name' | 'uuid', variants: boolean): void {
  const refs = allSteps(ctx.workflow);
  if (refs.length < 2) return; // one step repeats nothing
  // The first step with each value; its pointer is only built for a finding.
  const first = new Map<string, StepRef>();
  for (const ref of refs) {
    if (ref.isVariant && !variants) continue;
    const value = ref.step[field];
    if (typeof value !== 'string') continue;
    const earlierRef = first.get(value);
    if (earlierRef === undefined) {
      first.set(value, ref);
      continue;
    }
    const at = joinPointer(ref.pointer, field);
    const earlier = joinPointer(earlierRef.pointer, field);
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
    checkUnique(ctx, 'name', false);
  },
};

export const stepUuidDuplicate: Rule = {
  code: 'step-uuid-duplicate',
  defaultSeverity: 'error',
  description: 'the steps (and variants) of a workflow must have different uuids',
  check(ctx) {
    checkUnique(ctx, 'uuid', true);
  },
};
