/**
 * A workflow's steps as a reviewer follows them, for the plan's flowchart: each step in order with its channel or
 * kind, what a delay waits and what a digest collects, the conditions that decide whether it runs (the service runs
 * a step when any of its filter groups passes, a group's children combined by its AND/OR, a group without children
 * always passing; `isNegated` is stored but not applied), and whether it is inactive or changed. Text only, as the
 * definition says it: the renderers escape it. Pure.
 */
import { splitPointer } from '../diagnostic.js';
import type { FilterPart, StepFilter, StepMetadata, TimeUnit, WorkflowStep } from '../generated/workflow.js';
import type { FieldChange, StepFlow } from './types.js';

/** The flow of `definition`; `changes` (service → file) mark the steps they touch. */
export function buildStepFlow(
  identifier: string,
  definition: { steps: readonly WorkflowStep[] },
  changes: readonly FieldChange[] = [],
): StepFlow {
  const changed = changedSteps(changes);
  const { steps } = definition;
  const names = new Map<string, string>();
  steps.forEach((step, index) => {
    if (typeof step.uuid === 'string') names.set(step.uuid, stepName(step, index));
  });
  return {
    trigger: identifier,
    steps: steps.map((step, index) => {
      const detail = detailOf(step);
      const conditions = step.filters?.length ? step.filters.map((f) => groupText(f, names)) : undefined;
      const variants = Array.isArray(step.variants) ? step.variants.length : 0;
      return {
        index,
        name: stepName(step, index),
        type: typeOf(step),
        ...(detail === undefined ? {} : { detail }),
        ...(conditions === undefined ? {} : { conditions }),
        ...(step.active === false ? { inactive: true as const } : {}),
        ...(variants > 0 ? { variants } : {}),
        ...(changed.has(index) ? { changed: true as const } : {}),
      };
    }),
  };
}

function typeOf(step: WorkflowStep): string {
  const type = (step.template as { type?: unknown } | undefined)?.type;
  return typeof type === 'string' ? type : 'step';
}

function stepName(step: WorkflowStep, index: number): string {
  return typeof step.name === 'string' && step.name !== '' ? step.name : `${typeOf(step)} ${index + 1}`;
}

/** Indexes of the steps a change points into (`/steps/2/template/content`, `/steps/2`). */
function changedSteps(changes: readonly FieldChange[]): Set<number> {
  const out = new Set<number>();
  for (const change of changes) {
    const [list, index] = splitPointer(change.pointer);
    if (list === 'steps' && index !== undefined && /^(0|[1-9][0-9]*)$/.test(index)) out.add(Number(index));
  }
  return out;
}

function detailOf(step: WorkflowStep): string | undefined {
  const type = typeOf(step);
  const meta: StepMetadata = step.metadata ?? {};
  if (type === 'delay') {
    if (meta.type === 'scheduled')
      return meta.delayPath === undefined ? 'scheduled' : `until ${meta.delayPath}`;
    return span(meta.amount, meta.unit);
  }
  if (type !== 'digest') return undefined;
  const parts: string[] = [];
  if (meta.type === 'timed') parts.push(timedText(meta));
  else {
    const window = span(meta.amount, meta.unit);
    if (window !== undefined) parts.push(window);
    if (meta.type === 'backoff' || meta.backoff === true) {
      const backoff = span(meta.backoffAmount, meta.backoffUnit);
      parts.push(backoff === undefined ? 'backoff' : `backoff ${backoff}`);
    }
  }
  if (meta.digestKey !== undefined && meta.digestKey !== '') parts.push(`by ${meta.digestKey}`);
  return parts.length === 0 ? undefined : parts.join(', ');
}

/** `2 hours`, `1 hour`; undefined when either part is missing. */
function span(amount: number | undefined, unit: TimeUnit | undefined): string | undefined {
  if (amount === undefined || unit === undefined) return undefined;
  return `${amount} ${amount === 1 ? unit.replace(/s$/, '') : unit}`;
}

function timedText(meta: StepMetadata): string {
  const timed = meta.timed ?? {};
  const at = timed.atTime === undefined ? 'timed' : `at ${timed.atTime}`;
  if (timed.weekDays?.length) return `${at} on ${timed.weekDays.join(', ')}`;
  if (timed.monthlyType === 'on' && timed.ordinal !== undefined)
    return `${at} on the ${ordinalText(timed.ordinal)} ${timed.ordinalValue ?? 'day'}`;
  if (timed.monthDays?.length) return `${at} on day ${timed.monthDays.join(', ')}`;
  return at;
}

function ordinalText(ordinal: string): string {
  return { '1': '1st', '2': '2nd', '3': '3rd', '4': '4th', '5': '5th' }[ordinal] ?? ordinal;
}

const OPERATORS: Record<NonNullable<FilterPart['operator']>, string> = {
  LARGER: '>',
  SMALLER: '<',
  LARGER_EQUAL: '>=',
  SMALLER_EQUAL: '<=',
  EQUAL: '=',
  NOT_EQUAL: '!=',
  ALL_IN: 'all in',
  ANY_IN: 'any in',
  NOT_IN: 'not in',
  BETWEEN: 'between',
  NOT_BETWEEN: 'not between',
  LIKE: 'like',
  NOT_LIKE: 'not like',
  IN: 'in',
  IS_DEFINED: 'is defined',
};

function groupText(filter: StepFilter, names: ReadonlyMap<string, string>): string {
  const children = Array.isArray(filter.children) ? filter.children : [];
  if (children.length === 0) return 'always';
  return children.map((child) => partText(child, names)).join(` ${filter.value === 'OR' ? 'OR' : 'AND'} `);
}

function partText(part: FilterPart, names: ReadonlyMap<string, string>): string {
  const value = part.value === undefined ? '' : valueText(part.value);
  switch (part.on) {
    case 'isOnline':
      return part.value === false ? 'subscriber offline' : 'subscriber online';
    case 'isOnlineInLast':
      return `subscriber online in the last ${value} ${part.timeOperator ?? 'minutes'}`;
    case 'previousStep': {
      const step = part.step === undefined ? 'previous step' : (names.get(part.step) ?? part.step);
      return `${step} ${part.stepType ?? 'sent'}`;
    }
    default: {
      const on = part.on === 'webhook' ? 'webhook' : part.on;
      const field = part.field === undefined || part.field === '' ? on : `${on}.${part.field}`;
      const operator = part.operator === undefined ? '=' : (OPERATORS[part.operator] ?? part.operator);
      return part.operator === 'IS_DEFINED'
        ? `${field} ${operator}`
        : `${field} ${operator} ${value}`.trimEnd();
    }
  }
}

function valueText(value: string | number | boolean): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}
