import type { LoadedDefinition } from '../../definitions/types.js';
import { scanTemplate } from '../../derive/handlebars.js';
import { scanTemplateAsServer } from '../../derive/server-scan.js';
import { deriveTrigger } from '../../derive/trigger.js';
import type { DerivedTrigger, DerivedVariable, VariableUsage } from '../../derive/types.js';
import type { Span } from '../../diagnostic.js';
import type { WorkflowDefinition, WorkflowStep } from '../../generated/workflow.js';
import { memoizeLast } from './last-memo.js';
import { locateInString } from './string-span.js';
import type { IncludedSpan } from './types.js';
import { allSteps, valueAt } from './walk.js';

/**
 * The server's own extraction, quirks included: the rules speak of the trigger the service will really create (and
 * the plan will compare against), and of every template it would answer 400 for.
 */
const AS_SERVER = { extraction: 'server' } as const;

// Several rules read the same derivation of a workflow: derived once per workflow (last-memo.ts).

/** What the service derives for the whole workflow (pointers relative to the definition). */
export const triggerOf: (workflow: WorkflowDefinition) => DerivedTrigger = memoizeLast((workflow) =>
  deriveTrigger(workflow, AS_SERVER),
);

/** The trigger's variables by name (each name is there once). */
export const triggerVariablesOf: (workflow: WorkflowDefinition) => ReadonlyMap<string, DerivedVariable> =
  memoizeLast((workflow) => {
    const byName = new Map<string, DerivedVariable>();
    for (const variable of triggerOf(workflow).variables) byName.set(variable.name, variable);
    return byName;
  });

/**
 * The variables each top-level step alone makes the service derive, with pointers into the definition: one entry
 * per name and step. The service reads no variants.
 */
export const variablesByStep: (workflow: WorkflowDefinition) => DerivedVariable[][] = memoizeLast(
  (workflow) =>
    workflow.steps.map((step, i) =>
      deriveTrigger({ name: workflow.name, steps: [step] }, AS_SERVER).variables.map((v) => ({
        ...v,
        pointer: v.pointer.replace(/^\/steps\/0(?=\/|$)/, `/steps/${i}`),
      })),
    ),
);

/** The step (or variant) a pointer inside the definition belongs to: the deepest one that contains it. */
export function stepAt(workflow: WorkflowDefinition, pointer: string): WorkflowStep | undefined {
  let found: WorkflowStep | undefined;
  for (const ref of allSteps(workflow)) {
    if (pointer === ref.pointer || pointer.startsWith(`${ref.pointer}/`)) found = ref.step;
  }
  return found;
}

/**
 * Where a derived variable is used: inside its template string when the name can be found there (the Handlebars
 * path expression; in the included file when the string is one), else the whole value at the pointer (a filter
 * field, a digestKey).
 */
export function locateUse(definition: LoadedDefinition, variable: DerivedVariable): Span | IncludedSpan {
  const text = valueAt(definition.value, variable.pointer);
  if (typeof text === 'string') {
    const find = (usages: VariableUsage[]) => usages.find((u) => u.name === variable.name);
    const usage = find(scanTemplateAsServer(text).usages) ?? find(scanTemplate(text).usages);
    if (usage) return locateInString(definition, variable.pointer, usage.offset, usage.name.length);
  }
  return definition.locate(variable.pointer, 'value');
}
