/**
 * Variables used but not declared, and the ones among them that are a typo of a declared name (`{{ammount}}` with
 * `amount` declared). A typo is an error: the service would put the misspelt name on the trigger, the app sends the
 * declared one, and the message goes out with an empty value. Pure.
 */
import type { DerivedVariable } from '../../derive/types.js';
import type { WorkflowDefinition } from '../../generated/workflow.js';
import { typoDistance } from '../../text.js';
import { locateUse, stepAt, triggerOf, variablesByStep } from './derived.js';
import { memoizeLast } from './last-memo.js';
import type { Rule, RuleOptions } from './types.js';
import { displayPath } from './walk.js';

export const VARIABLE_TYPO = 'variable-typo';

/** A use of a name that neither the trigger nor the using step declares, with the names that are declared there. */
export interface UndeclaredUse {
  variable: DerivedVariable;
  /** The trigger's declared names, then the using step's `template.variables` names. */
  declared: readonly string[];
}

/**
 * Each undeclared name once, at its first use a step does not declare (steps in order). Empty when the trigger
 * declares no variables list at all: declaring them is optional, so they are checked only when present. Memoized
 * (last-memo.ts): the undeclared and typo rules both read it.
 */
export const undeclaredUses: (workflow: WorkflowDefinition) => readonly UndeclaredUse[] = memoizeLast(
  (workflow) => {
    // Stryker disable next-line OptionalChaining: after-schema rules see only schema-valid definitions, which have exactly one trigger
    const declared = workflow.triggers?.[0]?.variables;
    if (!Array.isArray(declared)) return [];
    const names = new Set<string>();
    const ordered: string[] = [];
    for (const v of declared) {
      names.add(v.name);
      ordered.push(v.name);
    }
    // The steps' variables are the trigger's, step by step: when the trigger has no undeclared name, no step has.
    // Stryker disable next-line ConditionalExpression,ArrowFunction: a shortcut; the loop below would find nothing
    if (triggerOf(workflow).variables.every((v) => names.has(v.name))) return [];
    const found: UndeclaredUse[] = [];
    const reported = new Set<string>();
    for (const variable of variablesByStep(workflow).flat()) {
      if (names.has(variable.name) || reported.has(variable.name)) continue;
      // Stryker disable next-line OptionalChaining: a step's own pointer always finds the step
      const ofStep = stepAt(workflow, variable.pointer)?.template.variables ?? [];
      if (ofStep.some((v) => v.name === variable.name)) continue;
      reported.add(variable.name);
      found.push({ variable, declared: [...ordered, ...ofStep.map((v) => v.name)] });
    }
    return found;
  },
);

/** Case and `-`/`_` never make two names different for a reader (`first_name`, `firstName`, `FirstName`). */
function normalize(segment: string): string {
  return segment.toLowerCase().replace(/[-_]/g, '');
}

/**
 * Edits a segment of this (normalized) length may differ by and still be a typo. Stricter than text.ts'
 * suggestName, which only hints: here the answer turns a warning into an error, so names of three characters or
 * fewer match only when equal but for case and separators (`id` is not a typo of `ip`), and an abbreviation is no
 * typo (`first` may well be another variable than `first_name`).
 */
function allowedEdits(length: number): number {
  if (length <= 3) return 0;
  return length <= 7 ? 1 : 2;
}

/**
 * Edits between `used` and `declared` when one is a typo of the other, else undefined. Names are compared dotted
 * segment by dotted segment: the same number of segments, all equal (after normalize) but at most one, and that
 * one within allowedEdits of the declared segment's length. So `payload.frist_name` → `payload.first_name`, but
 * never `payload.total` → `subscriber.total` or `a.total` → `b.total`.
 */
function typoEdits(used: string, declared: string): number | undefined {
  const usedSegments = used.split('.');
  const declaredSegments = declared.split('.');
  if (usedSegments.length !== declaredSegments.length) return undefined;
  let edits = 0;
  let differing = 0;
  for (let i = 0; i < usedSegments.length; i++) {
    const a = normalize(usedSegments[i]!);
    const b = normalize(declaredSegments[i]!);
    if (a === b) continue;
    differing++;
    edits = typoDistance(a, b);
    if (differing > 1 || edits > allowedEdits(b.length)) return undefined;
  }
  return edits;
}

/**
 * The declared name `used` most likely meant, or undefined when none is close enough to call it a typo. The fewest
 * edits win; ties go to the earlier declared name (the trigger's order), so the answer is stable.
 */
export function suggestVariable(used: string, declared: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestEdits = Number.POSITIVE_INFINITY;
  for (const candidate of declared) {
    if (candidate === used) continue;
    const edits = typoEdits(used, candidate);
    if (edits !== undefined && edits < bestEdits) {
      best = candidate;
      bestEdits = edits;
    }
  }
  return best;
}

/** Whether an undeclared name with a suggestion is this rule's to report (else variable-undeclared reports it). */
export function typoRuleIsOn(options: RuleOptions): boolean {
  return options.severities?.[VARIABLE_TYPO] !== 'off';
}

export const variableTypo: Rule = {
  code: VARIABLE_TYPO,
  defaultSeverity: 'error',
  description:
    'a variable used but not declared is a typo of a declared one (`{{ammount}}` with `amount` declared)',
  check(ctx) {
    for (const { variable, declared } of undeclaredUses(ctx.workflow)) {
      const meant = suggestVariable(variable.name, declared);
      if (meant === undefined) continue;
      ctx.report(
        variable.pointer,
        `\`${variable.name}\` is used in ${displayPath(variable.pointer)} but not declared (the message would ` +
          `show nothing for it): did you mean \`${meant}\`?`,
        { span: locateUse(ctx.definition, variable) },
      );
    }
  },
};
