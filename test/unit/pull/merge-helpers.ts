import { readFileSync } from 'node:fs';
import path from 'node:path';
import { diffArrays } from 'diff';
import { expect } from 'vitest';
import type { WorkflowDefinition } from '../../../src/generated/workflow.js';
import { canonicalJson } from '../../../src/json.js';
import {
  mergePulledDefinition,
  type PullMergeOptions,
  type PullMergeResult,
} from '../../../src/pull/merge.js';
import { parseFile, WORKFLOWS_DIR } from '../plan/helpers.js';

export const FRESH = '# fresh text\nname: fresh\n';

export function exampleText(name: string): string {
  return readFileSync(path.join(WORKFLOWS_DIR, `${name}.yaml`), 'utf8');
}

/** The text read the way wfsync reads definition files (a parse problem fails the test). */
export function read(text: string): WorkflowDefinition {
  return parseFile('workflows/merged.yaml', text);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const sortList = (list: unknown) => {
  if (Array.isArray(list)) list.sort((a, b) => (canonicalJson(a) < canonicalJson(b) ? -1 : 1));
};
/** What the service assumes for a field left out (the service contract's defaults), per kind of object. */
const ASSUMED: Record<
  'workflow' | 'preferences' | 'step' | 'template' | 'trigger',
  Record<string, unknown>
> = {
  workflow: { active: false, critical: false, tags: [], preferenceSettings: {} },
  preferences: { email: true, sms: true, in_app: true, chat: true, push: true },
  step: { active: true, shouldStopOnFail: false, filters: [] },
  template: { variables: [] },
  trigger: { variables: [], subscriberVariables: [] },
};
const dropAssumed = (value: unknown, kind: keyof typeof ASSUMED) => {
  if (!isObject(value)) return;
  for (const [key, assumed] of Object.entries(ASSUMED[kind])) {
    if (key in value && canonicalJson(value[key]) === canonicalJson(assumed)) delete value[key];
  }
};

/**
 * A definition as plan compares it: lists the service treats as sets sorted, and fields that say what the service
 * assumes anyway left out.
 */
export function asCompared(def: unknown): unknown {
  const value = structuredClone(def);
  if (!isObject(value)) return value;
  dropAssumed(value.preferenceSettings, 'preferences');
  if (isObject(value.preferenceSettings) && Object.keys(value.preferenceSettings).length === 0) {
    delete value.preferenceSettings;
  }
  dropAssumed(value, 'workflow');
  const steps = (list: unknown) => {
    if (!Array.isArray(list)) return;
    for (const step of list) {
      if (!isObject(step)) continue;
      dropAssumed(step, 'step');
      if (isObject(step.template)) {
        const variables = step.template.variables;
        if (Array.isArray(variables)) {
          for (const v of variables) if (isObject(v) && v.required === false) delete v.required;
        }
        sortList(variables);
        dropAssumed(step.template, 'template');
      }
      steps(step.variants);
    }
  };
  steps(value.steps);
  if (Array.isArray(value.triggers)) {
    for (const trigger of value.triggers) {
      if (!isObject(trigger)) continue;
      sortList(trigger.variables);
      sortList(trigger.subscriberVariables);
      dropAssumed(trigger, 'trigger');
    }
  }
  return value;
}

/**
 * Merges `pulled` into `existing` and checks what every merge must give: text that reads back as `pulled` (exactly,
 * or as plan compares with `{sets: true}`), and a merge that is idempotent.
 */
export function mergeChecked(
  existing: string,
  pulled: WorkflowDefinition,
  options: Partial<PullMergeOptions> & { sets?: boolean; expected?: WorkflowDefinition } = {},
): PullMergeResult {
  const { sets, expected = pulled, ...rest } = options;
  const result = mergePulledDefinition(existing, pulled, { freshText: FRESH, ...rest });
  expect(result.rewritten).toBeUndefined();
  const back = read(result.text);
  if (sets) expect(asCompared(back)).toEqual(asCompared(expected));
  else expect(back).toEqual(expected);
  expect(result.definition).toEqual(back);
  const again = mergePulledDefinition(result.text, pulled, { freshText: FRESH, ...rest });
  expect(again).toEqual({ text: result.text, changed: [], definition: back });
  return result;
}

/** The lines `after` removes from `before` and the lines it adds, in order. */
export function lineDiff(before: string, after: string): { removed: string[]; added: string[] } {
  const removed: string[] = [];
  const added: string[] = [];
  for (const change of diffArrays(before.split('\n'), after.split('\n'))) {
    if (change.removed) removed.push(...change.value);
    if (change.added) added.push(...change.value);
  }
  return { removed, added };
}

/** A deep copy of `def` changed by `edit`. */
export function edited(
  def: WorkflowDefinition,
  edit: (copy: WorkflowDefinition) => void,
): WorkflowDefinition {
  const copy = structuredClone(def);
  edit(copy);
  return copy;
}

/** A definition the schema would not accept (empty steps…): the merge does not validate, so tests stay small. */
export function loose(value: Record<string, unknown>): WorkflowDefinition {
  return value as unknown as WorkflowDefinition;
}
