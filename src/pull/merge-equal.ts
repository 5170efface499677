/**
 * When two definition values say the same thing, for editing a file in place on pull: a field written out with the
 * value the service assumes when it is absent (`critical: false`, a step's `active: true`) says nothing more than
 * leaving it out, and lists matched by name (template and trigger variables) are sets. The rules are the
 * comparison's (shape.ts), so a file kept this way still plans as in sync. Pure. Recursive, on the depth-checked
 * values of merge-nodes.ts.
 */
import { isRecord, jsonEqual } from '../json.js';
import type { ObjectShape, Shape } from '../plan/shape.js';

/** `value` written at `key` of an object of this shape means the same as leaving the key out. */
export function isImplied(value: unknown, key: string, shape: Shape | undefined): boolean {
  if (shape?.kind !== 'object') return false;
  const absent = shape.defaults?.[key] ?? shape.pullOmits?.[key];
  if (absent !== undefined && jsonEqual(value, absent)) return true;
  const field = shape.fields[key];
  return (
    field?.kind === 'object' &&
    isRecord(value) &&
    Object.keys(value).every((k) => isImplied(value[k], k, field))
  );
}

/** `a` and `b` declare the same workflow (or part of one, of the given shape). */
export function sameDeclared(a: unknown, b: unknown, shape: Shape | undefined): boolean {
  if (shape?.kind === 'list' && Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    if (shape.match === 'index') return a.every((item, i) => sameDeclared(item, b[i], shape.items));
    // A set: every element pairs with its own equal on the other side.
    const unused = new Set(b.keys());
    return a.every((item) => {
      const match = [...unused].find((j) => sameDeclared(item, b[j], shape.items));
      if (match === undefined) return false;
      unused.delete(match);
      return true;
    });
  }
  if (shape?.kind === 'object' && isRecord(a) && isRecord(b)) return sameObject(a, b, shape);
  return jsonEqual(a, b);
}

function sameObject(a: Record<string, unknown>, b: Record<string, unknown>, shape: ObjectShape): boolean {
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const inA = Object.hasOwn(a, key);
    const inB = Object.hasOwn(b, key);
    if (inA && inB) {
      if (!sameDeclared(a[key], b[key], shape.fields[key])) return false;
    } else if (!isImplied(inA ? a[key] : b[key], key, shape)) {
      return false;
    }
  }
  return true;
}
