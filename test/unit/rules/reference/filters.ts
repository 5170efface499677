// Frozen copy of src/validate/rules/filters.ts before the allocation work (commit 8e3e79f): the oracle for the differential
// tests. Change it only along with a deliberate change of behaviour in src.

import type { Rule, RuleContext } from '../../../../src/validate/rules/types.js';
import { joinPointer } from './diagnostic.js';
import { allSteps, displayPath, isRecord, listWords, quote } from './walk.js';

interface PartShape {
  required: readonly string[];
  /** What `value` must be for this `on`: the schema allows a string, number or boolean for every kind. */
  value?: { test: (value: unknown) => boolean; expected: string };
}

const STRING_VALUE = { test: (v: unknown) => typeof v === 'string', expected: 'a string (quote it in YAML)' };
const FIELD_COMPARISON: PartShape = { required: ['field', 'value', 'operator'], value: STRING_VALUE };

/**
 * Contract "Filters": the fields each kind of part (`on`) takes. Enums and field types are the schema's job; it
 * cannot say which fields go with which `on`.
 */
const SHAPES: Record<string, PartShape> = {
  subscriber: FIELD_COMPARISON,
  payload: FIELD_COMPARISON,
  tenant: FIELD_COMPARISON,
  webhook: { required: ['field', 'value', 'operator', 'webhookUrl'], value: STRING_VALUE },
  isOnline: {
    required: ['value'],
    value: { test: (v) => typeof v === 'boolean', expected: 'true or false' },
  },
  isOnlineInLast: {
    required: ['timeOperator', 'value'],
    value: { test: (v) => typeof v === 'number', expected: 'a number' },
  },
  previousStep: { required: ['step', 'stepType'] },
};

function checkPart(ctx: RuleContext, part: unknown, at: string): void {
  if (!isRecord(part) || typeof part.on !== 'string' || !(part.on in SHAPES)) return; // the schema reports those
  const on = part.on;
  const path = displayPath(at);
  const shape = SHAPES[on]!;
  // IS_DEFINED only asks whether the field exists: the editor sends no value with it.
  const optional = part.operator === 'IS_DEFINED' ? ['value'] : [];
  const absent = shape.required.filter((field) => part[field] === undefined && !optional.includes(field));
  if (absent.length > 0) {
    const names = listWords(
      absent.map((f) => `\`${f}\``),
      'and',
    );
    ctx.report(at, `${path} needs ${names}: a filter on ${on} compares with them.`);
  }
  for (const [key, value] of Object.entries(part)) {
    if (key === 'on') continue;
    if (!shape.required.includes(key)) {
      ctx.report(joinPointer(at, key), `${path}.${key} does not fit a filter on ${on}: remove it.`, {
        target: 'key',
      });
      continue;
    }
    if (key === 'value' && shape.value && !shape.value.test(value)) {
      const { expected } = shape.value;
      const message = `${path}.value is ${quote(value)} but a filter on ${on} needs ${expected} there.`;
      ctx.report(joinPointer(at, key), message);
    }
  }
}

export const filterPartFields: Rule = {
  code: 'filter-part-fields',
  defaultSeverity: 'error',
  description: 'each filter part must have exactly the fields its `on` takes, with values of the right type',
  check(ctx) {
    for (const ref of allSteps(ctx.workflow)) {
      ref.step.filters?.forEach((filter, j) => {
        filter.children?.forEach((part, k) => {
          checkPart(ctx, part, joinPointer(ref.pointer, 'filters', j, 'children', k));
        });
      });
    }
  },
};

export const variantFilterMissing: Rule = {
  code: 'variant-filter-missing',
  defaultSeverity: 'error',
  description:
    'each step variant needs at least one filter with children (it decides when the variant is used)',
  check(ctx) {
    for (const ref of allSteps(ctx.workflow)) {
      if (!ref.isVariant) continue;
      const filters = ref.step.filters;
      if (filters?.some((f) => (f.children?.length ?? 0) > 0)) continue;
      const hasFilters = filters !== undefined;
      ctx.report(
        hasFilters ? joinPointer(ref.pointer, 'filters') : ref.pointer,
        `${displayPath(ref.pointer)} needs at least one filter with children: a variant is sent instead of its ` +
          `step only when its filters match, so add the conditions to ${displayPath(ref.pointer)}.filters.`,
        hasFilters ? { target: 'key' } : {},
      );
    }
  },
};
