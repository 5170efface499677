/** JSON basics shared by every area. Pure. */

export type Json = Record<string, unknown>;

/** A plain object: not null, not an array. */
export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The one serialization a definition's hash is computed from: keys sorted (by UTF-16 code units, the same on every
 * machine and locale), no whitespace, JSON.stringify's rules otherwise (undefined properties dropped, undefined
 * array items and non-finite numbers as null). Editing a file's key order or comments therefore never changes it.
 */
export function canonicalJson(value: unknown): string {
  return serialize(value) ?? 'null';
}

function serialize(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') {
    // JSON.stringify returns undefined for undefined, functions and symbols: dropped by the caller.
    return JSON.stringify(value) as string | undefined;
  }
  const withJson = value as { toJSON?: () => unknown };
  if (typeof withJson.toJSON === 'function') return serialize(withJson.toJSON());
  if (Array.isArray(value)) return `[${value.map((item) => serialize(item) ?? 'null').join(',')}]`;
  const parts: string[] = [];
  for (const key of Object.keys(value).sort()) {
    const text = serialize((value as Record<string, unknown>)[key]);
    if (text !== undefined) parts.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${parts.join(',')}}`;
}

/** Deep equality of JSON values, ignoring key order (what the service stores is compared as data, not text). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return canonicalJson(a) === canonicalJson(b);
}
