/**
 * Wording helpers for schema diagnostics: paths as users see them (`steps[0].template.type`), values as they wrote
 * them (`"emial"`, `number 3`) and type names. Pure.
 */
import { maskCredentials } from '../credentials.js';
import { displayPath } from '../diagnostic.js';
import { isRecord } from '../json.js';
import { plural } from '../text.js';

export type DocumentKind = 'definition' | 'config';

const MAX_SHOWN = 40;

/** How a message names a node: the path in backticks, or the document itself for the root. */
export function subject(pointer: string, kind: DocumentKind): string {
  if (pointer === '') return kind === 'config' ? 'the config file' : 'the workflow definition';
  return `\`${displayPath(pointer)}\``;
}

export function truncate(text: string, max = MAX_SHOWN): string {
  // A value quoted from a project file: a credential pasted there shows as `*` (credentials.ts), whole or cut.
  const chars = [...maskCredentials(text)];
  return chars.length <= max ? chars.join('') : `${chars.slice(0, max - 1).join('')}…`;
}

/** A value as it appears after "got": strings quoted (and shortened), numbers and booleans with their type. */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length === 0 ? 'an empty array' : 'an array';
  switch (typeof value) {
    case 'string':
      return value === '' ? 'an empty string' : `string ${JSON.stringify(truncate(value))}`;
    case 'number':
    case 'boolean':
      return `${typeof value} ${String(value)}`;
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

/** A value shown on its own (in enum/const messages): strings quoted, others as JSON. */
export function showValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(truncate(value));
  if (value !== null && typeof value === 'object') return Array.isArray(value) ? 'an array' : 'an object';
  return String(value);
}

const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  null: 'null',
};

/** `a`, `a or b`, `a, b or c`: for lists of allowed values in messages. */
export function listWords(words: readonly string[], conjunction = 'or'): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} ${conjunction} ${words[words.length - 1]}`;
}

/**
 * `["string", "array"]` → `a string or an array`. With the node's schema, a type the schema narrows is named by what
 * a user writes: an object that must be a file reference is `{file: ./path}`, an array of email blocks is a list of
 * them (`content`: "a string, a list of email blocks or `{file: ./path}`").
 */
export function typeNames(types: readonly string[], schema?: Readonly<Record<string, unknown>>): string {
  const names = types.map(
    (t) => (schema === undefined ? undefined : narrowedTypeName(t, schema)) ?? TYPE_NAMES[t] ?? t,
  );
  return names.length === 0 ? 'valid' : listWords(names);
}

function narrowedTypeName(type: string, schema: Readonly<Record<string, unknown>>): string | undefined {
  // Only the exact shapes of schemas/workflow.schema.json (`if: {type: object}, then: FileReference`;
  // `items: EmailBlock`), on a schema that allows the type itself (a merged anyOf error carries one branch's
  // schema); anything else keeps the JSON type's name.
  const own = schema.type;
  if (!(own === type || (Array.isArray(own) && own.includes(type)))) return undefined;
  if (
    type === 'object' &&
    refOf(schema.then) === '#/$defs/FileReference' &&
    isTypeOnly(schema.if, 'object')
  ) {
    return '`{file: ./path}`';
  }
  if (type === 'array' && refOf(schema.items) === '#/$defs/EmailBlock') return 'a list of email blocks';
  return undefined;
}

function refOf(node: unknown): unknown {
  return isRecord(node) ? node.$ref : undefined;
}

function isTypeOnly(node: unknown, type: string): boolean {
  return isRecord(node) && Object.keys(node).length === 1 && node.type === type;
}

/** YAML 1.2 reads `yes`, `no`, `on`, `off` as strings: the usual reason a boolean field gets a string. */
export function typeHint(expected: readonly string[], value: unknown): string | undefined {
  if (expected.includes('boolean') && typeof value === 'string' && /^(yes|no|on|off|y|n)$/i.test(value)) {
    return 'YAML reads it as a string; write true or false';
  }
  if (expected.includes('boolean') && typeof value === 'string' && /^(true|false)$/i.test(value)) {
    return 'remove the quotes to make it a boolean';
  }
  if (expected.includes('string') && (typeof value === 'number' || typeof value === 'boolean')) {
    return 'quote it to make it a string';
  }
  return undefined;
}

/** The bound a value breaks, in words ("must be at most 128 characters long (got 130)"); undefined for other keywords. */
export function boundsText(
  keyword: string,
  params: Record<string, unknown>,
  schema: Record<string, unknown>,
  value: unknown,
): string | undefined {
  const limit = Number(params.limit);
  // Code points, as ajv counts minLength/maxLength (an emoji is one character).
  const characters = () => [...String(value)].length;
  switch (keyword) {
    case 'minLength':
      return limit === 1
        ? 'must not be empty'
        : `must be at least ${plural(limit, 'character')} long (got ${characters()})`;
    case 'maxLength':
      return `must be at most ${plural(limit, 'character')} long (got ${characters()})`;
    case 'minItems':
    case 'maxItems': {
      const count = Array.isArray(value) ? value.length : 0;
      const exact = schema.minItems !== undefined && schema.minItems === schema.maxItems;
      const quantity = exact ? 'exactly' : keyword === 'minItems' ? 'at least' : 'at most';
      return `must have ${quantity} ${plural(limit, 'item')} (got ${count})`;
    }
    case 'minProperties':
      return `must have at least ${limit} ${limit === 1 ? 'property' : 'properties'}`;
    case 'maxProperties':
      return `must have at most ${limit} ${limit === 1 ? 'property' : 'properties'}`;
    case 'minimum':
      return `must be at least ${limit} (got ${String(value)})`;
    case 'maximum':
      return `must be at most ${limit} (got ${String(value)})`;
    case 'exclusiveMinimum':
      return `must be greater than ${limit} (got ${String(value)})`;
    case 'exclusiveMaximum':
      return `must be less than ${limit} (got ${String(value)})`;
    case 'multipleOf':
      return `must be a multiple of ${String(params.multipleOf)} (got ${String(value)})`;
    default:
      return undefined;
  }
}
