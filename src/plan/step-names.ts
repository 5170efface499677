/**
 * Field paths a reviewer can place: a change inside a step names the step (`steps[1] "Send email".template.subject`,
 * `steps[0] "mail".variants[1] "vip".template.content`), since indexes alone say little once steps move. The
 * pointer stays as it was, for programs. Pure.
 */
import { splitPointer } from '../diagnostic.js';
import { isRecord } from '../json.js';
import type { FieldChange } from './types.js';

/** Longest step name shown in a path (characters); the rest is cut with `…`. */
const MAX_STEP_NAME = 40;

/** `changes` with each step in a path named as the file names it (or, for a step only the service has, as it does). */
export function withStepNames(changes: readonly FieldChange[], definition: unknown): FieldChange[] {
  return changes.map((change) => {
    const segments = splitPointer(change.pointer);
    let prefix = '';
    let named = '';
    let node: unknown = definition;
    for (let i = 0; i < segments.length; i += 2) {
      const list = segments[i];
      const index = segments[i + 1];
      if (
        list !== (i === 0 ? 'steps' : 'variants') ||
        index === undefined ||
        !/^(0|[1-9][0-9]*)$/.test(index)
      )
        break;
      const steps = isRecord(node) ? node[list] : undefined;
      node = Array.isArray(steps) ? steps[Number(index)] : undefined;
      const whole = i + 2 === segments.length;
      const name = nameOf(node) ?? (whole ? nameOf(change.actual ?? change.desired) : undefined);
      const part = `${i === 0 ? '' : '.'}${list}[${index}]`;
      prefix += part;
      named += name === undefined ? part : `${part} ${JSON.stringify(cut(name))}`;
    }
    if (prefix === '' || prefix === named || !change.path.startsWith(prefix)) return change;
    return { ...change, path: named + change.path.slice(prefix.length) };
  });
}

function nameOf(step: unknown): string | undefined {
  return isRecord(step) && typeof step.name === 'string' && step.name !== '' ? step.name : undefined;
}

function cut(name: string): string {
  const chars = Array.from(name);
  return chars.length <= MAX_STEP_NAME ? name : `${chars.slice(0, MAX_STEP_NAME - 1).join('')}…`;
}
