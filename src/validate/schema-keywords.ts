/**
 * One ajv error (already pruned) → code, message and the node to point at. Messages name the node with the path the
 * user sees and say what was found: "`steps[0].template.type` must be one of: in_app, email, … (got "emial"; did
 * you mean "email"?)". Pure.
 */
import type { ErrorObject } from 'ajv';
import { displayPath, joinPointer, splitPointer } from '../diagnostic.js';
import { suggestName } from '../text.js';
import { valueAt } from './rules/walk.js';
import {
  boundsText,
  type DocumentKind,
  describeValue,
  showValue,
  subject,
  typeHint,
  typeNames,
} from './schema-messages.js';
import { isServerManagedField, serverManagedHint } from './server-managed.js';

export interface SchemaMessage {
  code: string;
  text: string;
  /** JSON pointer of the offending node (for a missing property: where it should be). */
  pointer: string;
  /** What to underline: the node's key, its value, or (owner) the object a property is missing from. */
  at: { pointer: string; target: 'key' | 'value' | 'owner' };
}

export interface MessageContext {
  kind: DocumentKind;
  /** The whole document, to read offending values (validators need not be verbose). */
  root: unknown;
}

type Params = Record<string, unknown>;
type SchemaObject = Record<string, unknown>;

/** Newer template types: a clear hint beats "must be one of" when someone copies from a newer server. */
const NEWER_STEP_TYPES = new Set(['tool', 'throttle', 'http_request']);

/** Property names that can only mean a credential. Normalised: lower case, no `-`/`_`. */
const SECRET_NAMES = new Set([
  'apikey',
  'key',
  'token',
  'secret',
  'apitoken',
  'apisecret',
  'accesstoken',
  'password',
]);

/** A config property name that can only mean a credential (`apiKey`, `api_token`, `password`…). */
export function isSecretPropertyName(name: string): boolean {
  return SECRET_NAMES.has(name.toLowerCase().replace(/[-_]/g, ''));
}

const FORMAT_NAMES: Record<string, string> = {
  uri: 'a valid absolute URI',
  'date-time': 'an ISO 8601 date-time such as 2024-10-01T12:00:00.000Z',
};

/** `got …`, except for config values that may hold a credential by mistake: never echoed into messages. */
function got(value: unknown, pointer: string, kind: DocumentKind): string {
  const last = splitPointer(pointer).at(-1);
  return kind === 'config' && (last === 'apiKeyEnv' || last === 'baseUrl')
    ? 'the value is not shown in case it holds a credential'
    : `got ${describeValue(value)}`;
}

export function messageFor(error: ErrorObject, context: MessageContext): SchemaMessage {
  const path = error.instancePath;
  const params = error.params as Params;
  const parentSchema = (error.parentSchema ?? {}) as SchemaObject;
  if (error.propertyName !== undefined) return propertyNameMessage(error, context);
  const value = valueAt(context.root, path);
  const who = subject(path, context.kind);
  const said = (code: string, text: string): SchemaMessage => ({
    code,
    text,
    pointer: path,
    at: { pointer: path, target: 'value' },
  });
  switch (error.keyword) {
    case 'type': {
      const expected = Array.isArray(params.type) ? params.type.map(String) : String(params.type).split(',');
      const hint = typeHint(expected, value);
      return said(
        'schema-type',
        `${who} must be ${typeNames(expected, parentSchema)} (${got(value, path, context.kind)}${hint ? `; ${hint}` : ''})`,
      );
    }
    case 'required':
      return requiredMessage(path, String(params.missingProperty), context.kind);
    case 'additionalProperties':
      return additionalPropertyMessage(path, String(params.additionalProperty), parentSchema, context.kind);
    case 'enum':
      return said('schema-enum', enumText(who, path, params.allowedValues, value));
    case 'const':
      return said(
        'schema-const',
        `${who} must be ${showValue(params.allowedValue)} (got ${showValue(value)})`,
      );
    case 'pattern':
      return said(
        'schema-pattern',
        `${who} must be ${patternWanted(parentSchema, params)} (${got(value, path, context.kind)})`,
      );
    case 'format': {
      const format = String(params.format);
      const wanted = FORMAT_NAMES[format] ?? `in ${format} format`;
      return said('schema-format', `${who} must be ${wanted} (${got(value, path, context.kind)})`);
    }
    case 'uniqueItems':
      return uniqueMessage(path, params, context.root);
    case 'false schema':
      return said('schema-invalid', `${who} is not allowed here`);
    default: {
      const bounds = boundsText(error.keyword, params, parentSchema, value);
      if (bounds !== undefined) return said('schema-bounds', `${who} ${bounds}`);
      return said('schema-invalid', `${who} ${error.message ?? 'is invalid'}`);
    }
  }
}

function patternWanted(schema: SchemaObject, params: Params): string {
  const description = schema.patternDescription;
  return typeof description === 'string'
    ? description
    : `text matching the pattern ${String(params.pattern)}`;
}

function requiredMessage(path: string, missing: string, kind: DocumentKind): SchemaMessage {
  const needsBaseUrl = kind === 'config' && missing === 'baseUrl' && /^\/targets\/[^/]+$/.test(path);
  const hint = needsBaseUrl ? ' (every target except `local` needs one)' : '';
  return {
    code: 'schema-required',
    text: `${subject(path, kind)} is missing required property \`${missing}\`${hint}`,
    pointer: joinPointer(path, missing),
    at: { pointer: path, target: 'owner' },
  };
}

function additionalPropertyMessage(
  path: string,
  name: string,
  schema: SchemaObject,
  kind: DocumentKind,
): SchemaMessage {
  const pointer = joinPointer(path, name);
  const at = { pointer, target: 'key' as const };
  if (kind === 'definition' && isServerManagedField(name, path)) {
    const hint = serverManagedHint(name);
    const text = `\`${displayPath(pointer)}\` is set by the server; remove it from the definition${hint ? ` (${hint})` : ''}`;
    return { code: 'schema-server-managed-field', text, pointer, at };
  }
  if (kind === 'config' && isSecretPropertyName(name)) {
    const text = `\`${displayPath(pointer)}\` is not allowed: API keys are never read from files; put the variable's name in apiKeyEnv`;
    return { code: 'schema-secret-in-file', text, pointer, at };
  }
  const allowed = Object.keys((schema.properties ?? {}) as SchemaObject);
  const suggestion = suggestName(name, allowed);
  const advice = suggestion
    ? `; did you mean \`${suggestion}\`?`
    : allowed.length > 0
      ? `; allowed here: ${allowed.join(', ')}`
      : '';
  return {
    code: 'schema-additional-property',
    text: `${subject(path, kind)} has an unknown property \`${name}\`${advice}`,
    pointer,
    at,
  };
}

function enumText(who: string, path: string, allowedValues: unknown, value: unknown): string {
  const allowed = Array.isArray(allowedValues) ? allowedValues : [];
  const list = allowed.length === 1 ? showValue(allowed[0]) : `one of: ${allowed.map(String).join(', ')}`;
  let detail = `got ${showValue(value)}`;
  if (typeof value === 'string') {
    const suggestion = suggestName(
      value,
      allowed.filter((v): v is string => typeof v === 'string'),
    );
    if (path.endsWith('/template/type') && NEWER_STEP_TYPES.has(value)) {
      detail += '; only newer servers know this step type';
    } else if (suggestion !== undefined) detail += `; did you mean ${JSON.stringify(suggestion)}?`;
  }
  return `${who} must be ${list} (${detail})`;
}

function propertyNameMessage(error: ErrorObject, context: MessageContext): SchemaMessage {
  const name = error.propertyName!;
  const pointer = joinPointer(error.instancePath, name);
  const where = subject(error.instancePath, context.kind);
  const schema = (error.parentSchema ?? {}) as SchemaObject;
  const bounds = boundsText(error.keyword, error.params as Params, schema, name);
  const rule =
    error.keyword === 'pattern'
      ? `must be ${patternWanted(schema, error.params as Params)}`
      : (bounds ?? error.message ?? 'is invalid');
  const code = error.keyword === 'pattern' ? 'schema-pattern' : bounds ? 'schema-bounds' : 'schema-invalid';
  return {
    code,
    text: `\`${name}\` is not a valid name in ${where}: it ${rule}`,
    pointer,
    at: { pointer, target: 'key' },
  };
}

function uniqueMessage(path: string, params: Params, root: unknown): SchemaMessage {
  const a = Number(params.i);
  const b = Number(params.j);
  const later = joinPointer(path, Math.max(a, b));
  const earlier = joinPointer(path, Math.min(a, b));
  const item = valueAt(root, later);
  return {
    code: 'schema-unique',
    text: `\`${displayPath(later)}\` repeats \`${displayPath(earlier)}\` (${showValue(item)}); items must be unique`,
    pointer: later,
    at: { pointer: later, target: 'value' },
  };
}
