import type { Pair } from 'yaml';
import { isAlias, isMap, isScalar, isSeq, type Ranged } from './yaml-lib.js';

export type PropertyName =
  | { name: string }
  /** A `<<` merge key (YAML 1.1 merge, enabled in our schema). */
  | { merge: true }
  | { problem: string; at: Ranged | undefined };

/**
 * A mapping key as a JSON property name. Plain non-string scalars (`1:`, `1.0:`, `true:`, `null:`) become the
 * text the author typed, written back into the node so toJS, locate and duplicate detection agree (`1.0`
 * stays `1.0`, where String(1.0) would give `1`). Collections, aliases and empty keys cannot be names.
 */
export function propertyName(pair: Pair): PropertyName {
  const key = pair.key;
  if (isScalar(key)) {
    if (typeof key.value === 'string') return { name: key.value };
    if (typeof key.value === 'symbol') return { merge: true };
    const source = key.source ?? '';
    if (source === '' || key.type !== 'PLAIN') {
      // An empty key has an empty range; its value is what can be pointed at.
      const empty = key.range && key.range[0] === key.range[1];
      return {
        problem: 'empty key: every key needs a name',
        at: empty && isScalar(pair.value) ? pair.value : key,
      };
    }
    key.value = source;
    return { name: source };
  }
  const what = isAlias(key) ? 'an alias' : isSeq(key) ? 'a list' : isMap(key) ? 'a mapping' : 'not text';
  const at = key !== null && typeof key === 'object' && 'range' in key ? (key as Ranged) : undefined;
  return { problem: `a key must be plain text, but this key is ${what}`, at };
}
