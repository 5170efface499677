import { describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../../../src/generated/workflow.js';
import { triggerOf, variablesByStep } from '../../../../src/validate/rules/derived.js';
import { memoizeLast } from '../../../../src/validate/rules/last-memo.js';
import { allSteps } from '../../../../src/validate/rules/walk.js';
import { aWorkflowNamed } from '../../../helpers/workflow.js';

describe('memoizeLast', () => {
  it('computes once for the same key in a row, and again for any other key', () => {
    const calls: object[] = [];
    const sizeOf = memoizeLast((key: { items: number[] }) => {
      calls.push(key);
      return key.items.length;
    });
    const a = { items: [1, 2] };
    const b = { items: [1] };
    expect([sizeOf(a), sizeOf(a), sizeOf(b), sizeOf(a)]).toEqual([2, 2, 1, 2]);
    expect(calls).toEqual([a, b, a]);
  });
});

describe('the rules’ per-workflow derivations', () => {
  const workflow = (name: string, variable: string): WorkflowDefinition =>
    aWorkflowNamed(name, { steps: [{ name: 's', template: { type: 'sms', content: `{{${variable}}}` } }] });

  it('answer for the workflow asked about, whatever was asked before', () => {
    const a = workflow('a', 'orderId');
    const b = workflow('b', 'carrier');
    const names = (w: WorkflowDefinition) => triggerOf(w).variables.map((v) => v.name);
    expect([names(a), names(b), names(a)]).toEqual([['orderId'], ['carrier'], ['orderId']]);
    expect(triggerOf(a)).toBe(triggerOf(a));
    expect(
      variablesByStep(b)
        .flat()
        .map((v) => v.name),
    ).toEqual(['carrier']);
    expect(
      variablesByStep(a)
        .flat()
        .map((v) => v.name),
    ).toEqual(['orderId']);
    expect(allSteps(a)[0]?.step).toBe(a.steps[0]);
    expect(allSteps(b)[0]?.step).toBe(b.steps[0]);
  });
});
