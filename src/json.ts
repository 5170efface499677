/** JSON basics shared by every area, and the nesting limits for data from outside. Pure. */

export type Json = Record<string, unknown>;

/**
 * How deep a definition may nest: its YAML (mappings and sequences, the root counting as 1) and the Handlebars
 * blocks and sub-expressions of each template. Real workflows nest 10-15 levels. Deeper files are refused with a
 * positioned diagnostic (`yaml-too-deep`, `template-syntax`) before anything walks them.
 */
export const MAX_DEFINITION_DEPTH = 64;

/**
 * How deep JSON read from outside may nest: the service's answers, state, lock and cache files, a reviewed
 * `sync --plan` file, the emulator's request bodies and data file (parseJson). Twice the definitions' limit: the
 * envelopes around a definition at its limit (`{data: …}`, a plan item's `desired.body`) always fit.
 *
 * Within these limits the recursive walks of such data (canonicalJson, the plan's projections and diff, pull's
 * conversion and merge, the `yaml` library's stringify, ajv's validators) are safe: the first to overflow Node's
 * default stack, yaml's stringify of nested mappings, needs about 680 levels (measured on Node 20), over five times
 * MAX_JSON_DEPTH; canonicalJson needs about 2,200.
 */
export const MAX_JSON_DEPTH = 2 * MAX_DEFINITION_DEPTH;

/** JSON nested deeper than the limit: what parseJson throws, with a message that reads after "the file is". */
export class JsonTooDeepError extends Error {
  constructor(readonly maxDepth: number) {
    super(`nested deeper than ${maxDepth} levels`);
    this.name = 'JsonTooDeepError';
  }
}

/**
 * JSON.parse for text from outside: a SyntaxError for text that is not JSON (JSON.parse's own), a JsonTooDeepError
 * for a document nested deeper than `maxDepth`. JSON.parse itself copes with any depth (V8's parser is iterative:
 * 5,000,000 levels parse on Node 20); it is what walks the value afterwards that would overflow the stack.
 */
export function parseJson(text: string, maxDepth: number = MAX_JSON_DEPTH): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // A parser that recursed would fail with a RangeError: the same answer as a document found too deep.
    if (error instanceof RangeError) throw new JsonTooDeepError(maxDepth);
    throw error;
  }
  if (jsonDepthExceeds(value, maxDepth)) throw new JsonTooDeepError(maxDepth);
  return value;
}

/**
 * Whether `value` holds an object or array more than `maxDepth` levels deep (the root object or array is level 1,
 * a scalar is level 0). Iterative, with an explicit stack, so it answers for any depth; it stops at the first
 * container past the limit.
 */
export function jsonDepthExceeds(value: unknown, maxDepth: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const nodes: object[] = [value];
  const depths: number[] = [1];
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const depth = depths.pop()!;
    if (depth > maxDepth) return true;
    for (const item of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof item === 'object' && item !== null) {
        nodes.push(item);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/** A plain object: not null, not an array. */
export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The one serialization a definition's hash is computed from: keys sorted (by UTF-16 code units, the same on every
 * machine and locale), no whitespace, JSON.stringify's rules otherwise (undefined properties dropped, undefined
 * array items and non-finite numbers as null). Editing a file's key order or comments therefore never changes it.
 * Recursive: it only ever sees depth-checked data (definitions within MAX_DEFINITION_DEPTH, JSON read through
 * parseJson within MAX_JSON_DEPTH, and the bodies and values built from them), a few frames per level.
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
