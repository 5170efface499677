/**
 * ajv with allErrors reports every failed keyword, including wrappers and errors implied by another one. This keeps
 * one error per real problem: the input to the message mapping in schema.ts. Pure.
 */
import type { ErrorObject } from 'ajv';

/** Keywords that only say "a subschema failed": the subschema's own errors say what. */
const WRAPPERS = new Set([
  'if',
  'then',
  'else',
  'propertyNames',
  'allOf',
  'anyOf',
  'oneOf',
  'not',
  'dependentSchemas',
]);

/** Keywords about a value itself; at most one of them is reported per value, the first in this order. */
const VALUE_KEYWORDS = [
  'type',
  'const',
  'enum',
  'pattern',
  'format',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
];
const VALUE_RANK = new Map(VALUE_KEYWORDS.map((keyword, rank) => [keyword, rank]));

/** Where an error is about: property-name errors concern the key, not the object holding it. */
function target(error: ErrorObject): string {
  return error.propertyName === undefined
    ? error.instancePath
    : `${error.instancePath}\0${error.propertyName}`;
}

function isUnder(path: string, ancestor: string): boolean {
  return path === ancestor || path.startsWith(`${ancestor}/`);
}

/**
 * anyOf/oneOf whose branches all failed on `type` at the same place become one `type` error listing every type
 * (`must be an object or null`). Otherwise the wrapper is dropped and so are its branches' type mismatches: the
 * deeper errors of the branch that had the right type say what is wrong.
 */
function mergeAlternatives(errors: ErrorObject[]): ErrorObject[] {
  let out = errors;
  for (const wrapper of errors.filter((e) => e.keyword === 'anyOf' || e.keyword === 'oneOf')) {
    const path = wrapper.instancePath;
    const related = out.filter(
      (e) => e !== wrapper && isUnder(e.instancePath, path) && !WRAPPERS.has(e.keyword),
    );
    const typeErrors = related.filter((e) => e.keyword === 'type' && e.instancePath === path);
    if (related.length > 0 && typeErrors.length === related.length) {
      const types = typeErrors.flatMap((e) => {
        const t = (e.params as { type?: string | string[] }).type;
        return Array.isArray(t) ? t : t === undefined ? [] : [t];
      });
      const merged: ErrorObject = { ...typeErrors[0]!, params: { type: [...new Set(types)] } };
      out = out.filter((e) => !typeErrors.includes(e)).map((e) => (e === wrapper ? merged : e));
    } else if (related.length > typeErrors.length) {
      out = out.filter((e) => !typeErrors.includes(e));
    }
  }
  return out;
}

export function pruneSchemaErrors(input: readonly ErrorObject[]): ErrorObject[] {
  const merged = mergeAlternatives([...input]);
  const withoutWrappers = merged.filter((e) => !WRAPPERS.has(e.keyword));
  // Keep the wrapper only when nothing more specific explains the failure (an unusual schema shape).
  const errors = withoutWrappers.length > 0 ? withoutWrappers : merged;

  const bestValueError = new Map<string, ErrorObject>();
  for (const error of errors) {
    const rank = VALUE_RANK.get(error.keyword);
    if (rank === undefined) continue;
    const current = bestValueError.get(target(error));
    if (current === undefined || rank < VALUE_RANK.get(current.keyword)!)
      bestValueError.set(target(error), error);
  }

  const seen = new Set<string>();
  const out: ErrorObject[] = [];
  for (const error of errors) {
    if (VALUE_RANK.has(error.keyword) && bestValueError.get(target(error)) !== error) continue;
    const key = `${target(error)}\0${error.keyword}\0${JSON.stringify(error.params)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(error);
  }
  return out;
}
