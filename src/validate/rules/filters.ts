import { joinPointer } from '../../diagnostic.js';
import { isRecord } from '../../json.js';
import type { Rule, RuleContext } from './types.js';
import { allSteps, displayPath, listWords, quote } from './walk.js';

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

/** Where a filter part is: the pointer is only built when there is something to report. */
interface PartPlace {
  stepPointer: string;
  filter: number;
  child: number;
}

function partPointer({ stepPointer, filter, child }: PartPlace): string {
  return joinPointer(stepPointer, 'filters', filter, 'children', child);
}

function checkPart(ctx: RuleContext, part: unknown, place: PartPlace): void {
  if (!isRecord(part) || typeof part.on !== 'string' || !(part.on in SHAPES)) return; // the schema reports those
  const on = part.on;
  const shape = SHAPES[on]!;
  // IS_DEFINED only asks whether the field exists: the editor sends no value with it.
  const definedOnly = part.operator === 'IS_DEFINED';
  const absent = shape.required.filter(
    (field) => part[field] === undefined && !(definedOnly && field === 'value'),
  );
  if (absent.length > 0) {
    const at = partPointer(place);
    const names = listWords(
      absent.map((f) => `\`${f}\``),
      'and',
    );
    ctx.report(at, `${displayPath(at)} needs ${names}: a filter on ${on} compares with them.`);
  }
  for (const key of Object.keys(part)) {
    if (key === 'on') continue;
    if (!shape.required.includes(key)) {
      const at = partPointer(place);
      ctx.report(
        joinPointer(at, key),
        `${displayPath(at)}.${key} does not fit a filter on ${on}: remove it.`,
        { target: 'key' },
      );
      continue;
    }
    if (key === 'value' && shape.value && !shape.value.test(part.value)) {
      const at = partPointer(place);
      const { expected } = shape.value;
      const message = `${displayPath(at)}.value is ${quote(part.value)} but a filter on ${on} needs ${expected} there.`;
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
          checkPart(ctx, part, { stepPointer: ref.pointer, filter: j, child: k });
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
