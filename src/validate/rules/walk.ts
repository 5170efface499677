import { joinPointer, splitPointer } from '../../diagnostic.js';
import type { WorkflowDefinition, WorkflowStep } from '../../generated/workflow.js';
import { isRecord } from '../../json.js';
import { memoizeLast } from './last-memo.js';

export { displayPath } from '../../diagnostic.js';
export { listWords } from '../schema-messages.js';

/** The value at a JSON pointer, or undefined. */
export function valueAt(root: unknown, pointer: string): unknown {
  let node = root;
  for (const segment of splitPointer(pointer)) {
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isRecord(node)) node = node[segment];
    else return undefined;
  }
  return node;
}

export interface StepRef {
  step: WorkflowStep;
  /** `/steps/1` or, for a variant, `/steps/1/variants/0`. */
  pointer: string;
  /** True for an entry of a step's `variants`. */
  isVariant: boolean;
}

/** Every step of the workflow in document order, each followed by its variants (listed once per workflow). */
export const allSteps: (workflow: WorkflowDefinition) => readonly StepRef[] = memoizeLast((workflow) => {
  const list: StepRef[] = [];
  workflow.steps.forEach((step, i) => {
    const pointer = joinPointer('', 'steps', i);
    list.push({ step, pointer, isVariant: false });
    step.variants?.forEach((variant, j) => {
      list.push({ step: variant, pointer: joinPointer(pointer, 'variants', j), isVariant: true });
    });
  });
  return list;
});

/** Quote a user value for a message: strings in double quotes, the rest as JSON. */
export function quote(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/** `an sms step`, `a push step`: step types with their article, as they are read out. */
export function withArticle(stepType: string): string {
  return `${/^([aeiou]|sms$)/.test(stepType) ? 'an' : 'a'} ${stepType}`;
}
