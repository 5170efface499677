import { scanTemplate } from '../../derive/handlebars.js';
import { isSystemVariable } from '../../derive/names.js';
import { textSourcesOfStep } from '../../derive/trigger.js';
import type { VariableType, VariableUsage } from '../../derive/types.js';
import { joinPointer } from '../../diagnostic.js';
import type { WorkflowDefinition } from '../../generated/workflow.js';
import { locateUse, triggerVariablesOf } from './derived.js';
import { memoizeLast } from './last-memo.js';
import type { Rule } from './types.js';
import { suggestVariable, typoRuleIsOn, undeclaredUses } from './variable-typo.js';
import { allSteps, displayPath, type StepRef } from './walk.js';

const TRIGGER_VARIABLES = '/triggers/0/variables';

const WHY: Record<VariableType, string> = {
  Array: 'it is used with `{{#each}}`',
  Boolean: 'it is used with `{{#if}}` or `{{#unless}}`',
  String: 'it is used as a value',
};

type Usage = VariableUsage & { pointer: string };

/** Per workflow (last-memo.ts): each step's usages by the step's pointer, filled in as the rules ask. */
const stepUsages = memoizeLast((_workflow: WorkflowDefinition) => new Map<string, Usage[]>());

/**
 * Every variable use in the strings of one step the service scans, in order, with the string's pointer: what the
 * template really reads (Handlebars scoping), for its own `template.variables`. Memoized: two rules read it.
 */
function usagesOfStep(workflow: WorkflowDefinition, { step, pointer: stepPointer }: StepRef): Usage[] {
  const byPointer = stepUsages(workflow);
  let usages = byPointer.get(stepPointer);
  // Stryker disable next-line ConditionalExpression: computing the usages again gives the same usages
  if (!usages) {
    usages = textSourcesOfStep(step).flatMap((source) =>
      scanTemplate(source.text).usages.map((usage) => ({ ...usage, pointer: stepPointer + source.pointer })),
    );
    byPointer.set(stepPointer, usages);
  }
  return usages;
}

export const variableUndeclared: Rule = {
  code: 'variable-undeclared',
  defaultSeverity: 'warning',
  description: 'a variable the service will put on the trigger is missing from triggers[0].variables',
  check(ctx) {
    const uses = undeclaredUses(ctx.workflow);
    if (uses.length === 0) return;
    // A typo of a declared name is variable-typo's finding (an error), unless the config turns that rule off.
    const typosReported = typoRuleIsOn(ctx.options);
    // The trigger's type for a name: the service keeps its last use's (a use per step is only where to point).
    const types = triggerVariablesOf(ctx.workflow);
    for (const { variable, declared } of uses) {
      if (typosReported && suggestVariable(variable.name, declared) !== undefined) continue;
      ctx.report(
        variable.pointer,
        `\`${variable.name}\` is used in ${displayPath(variable.pointer)} but not declared in ` +
          `triggers[0].variables; the service will add it to the trigger, so declare it there ` +
          // Stryker disable next-line OptionalChaining: the trigger has every name of every step
          `(type ${types.get(variable.name)?.type ?? variable.type}).`,
        { span: locateUse(ctx.definition, variable) },
      );
    }
  },
};

export const variableUnused: Rule = {
  code: 'variable-unused',
  defaultSeverity: 'warning',
  description:
    'a declared variable is not used, so the service will not derive it (the plan would show drift)',
  check(ctx) {
    const derived = triggerVariablesOf(ctx.workflow);
    // Stryker disable next-line OptionalChaining: after-schema rules see only schema-valid definitions, which have exactly one trigger
    ctx.workflow.triggers?.[0]?.variables?.forEach((variable, k) => {
      if (derived.has(variable.name)) return;
      const why = isSystemVariable(variable.name)
        ? 'the service provides it and never puts it on the trigger'
        : 'the service derives no such variable from the steps (variants are not read), so it will not be on the ' +
          'trigger and every plan would show drift';
      ctx.report(
        joinPointer(TRIGGER_VARIABLES, k, 'name'),
        `triggers[0].variables[${k}] \`${variable.name}\` is declared but ${why}: remove it or use it.`,
      );
    });
    for (const ref of allSteps(ctx.workflow)) {
      const declaredHere = ref.step.template.variables;
      // Stryker disable next-line ConditionalExpression: a shortcut; an empty list reports nothing either way
      if (declaredHere === undefined || declaredHere.length === 0) continue; // nothing to check: skip the scan
      const used = new Set(usagesOfStep(ctx.workflow, ref).map((u) => u.name));
      declaredHere.forEach((variable, k) => {
        if (used.has(variable.name)) return;
        const pointer = joinPointer(ref.pointer, 'template', 'variables', k);
        ctx.report(
          joinPointer(pointer, 'name'),
          `${displayPath(pointer)} \`${variable.name}\` is not used in the strings of ` +
            `${displayPath(ref.pointer)}: remove it or use it.`,
        );
      });
    }
  },
};

export const variableTypeMismatch: Rule = {
  code: 'variable-type-mismatch',
  defaultSeverity: 'warning',
  description: 'a declared variable type differs from the type the service derives from its use',
  check(ctx) {
    const derived = triggerVariablesOf(ctx.workflow);
    // Stryker disable next-line OptionalChaining: after-schema rules see only schema-valid definitions, which have exactly one trigger
    ctx.workflow.triggers?.[0]?.variables?.forEach((variable, k) => {
      const use = derived.get(variable.name);
      if (variable.type === undefined || use === undefined || use.type === variable.type) return;
      const pointer = joinPointer(TRIGGER_VARIABLES, k, 'type');
      ctx.report(
        pointer,
        `${displayPath(pointer)} is ${variable.type} but the service derives ${use.type} for ` +
          `\`${variable.name}\` (${WHY[use.type]} in ${displayPath(use.pointer)}): change it to ${use.type}.`,
      );
    });
    for (const ref of allSteps(ctx.workflow)) {
      const declaredHere = ref.step.template.variables;
      // Stryker disable next-line ConditionalExpression: a shortcut; an empty list reports nothing either way
      if (declaredHere === undefined || declaredHere.length === 0) continue; // nothing to check: skip the scan
      const usages = usagesOfStep(ctx.workflow, ref);
      declaredHere.forEach((variable, k) => {
        const use = usages.find((u) => u.name === variable.name);
        if (variable.type === undefined || use === undefined || use.type === variable.type) return;
        const pointer = joinPointer(ref.pointer, 'template', 'variables', k, 'type');
        ctx.report(
          pointer,
          `${displayPath(pointer)} is ${variable.type} but \`${variable.name}\` is ${use.type} where it is used ` +
            `(${WHY[use.type]} in ${displayPath(use.pointer)}): change it to ${use.type}.`,
        );
      });
    }
  },
};
