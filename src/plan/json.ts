/** Small JSON helpers shared by the plan modules. Pure. */
import { canonicalJson } from './canonical-json.js';

export type Json = Record<string, unknown>;

export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Deep equality of JSON values, ignoring key order (what the service stores is compared as data, not text). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
