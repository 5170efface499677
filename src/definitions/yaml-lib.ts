/**
 * The `yaml` library, loaded the first time a file needs it: a definition the fast path reads (fast-parse.ts) needs
 * no `yaml` at all unless a position is asked for, and loading it costs ~25 ms of every start-up, on every thread.
 * The node guards and classes the loader uses, with yaml's own signatures.
 */
import type * as Yaml from 'yaml';
import { onFirstUse } from '../derive/first-use.js';

export const yamlLib = onFirstUse<typeof Yaml>('yaml');

export type Ranged = { range?: [number, number, number] | null };

export function isAlias(node: unknown): node is Yaml.Alias {
  return yamlLib().isAlias(node);
}

export function isMap<K = unknown, V = unknown>(node: unknown): node is Yaml.YAMLMap<K, V> {
  return yamlLib().isMap(node);
}

export function isPair<K = unknown, V = unknown>(node: unknown): node is Yaml.Pair<K, V> {
  return yamlLib().isPair(node);
}

export function isScalar<T = unknown>(node: unknown): node is Yaml.Scalar<T> {
  return yamlLib().isScalar(node);
}

export function isSeq<T = unknown>(node: unknown): node is Yaml.YAMLSeq<T> {
  return yamlLib().isSeq(node);
}
