/**
 * `.vscode/settings.json`: map the workflow files to wfsync's schema (`yaml.schemas`, read by the Red Hat YAML
 * extension) by merging one entry into whatever the file holds (edited with jsonc-parser, see jsonc.ts). Comments,
 * order and every other setting are kept; when the file cannot be edited with certainty (not parseable, an
 * unexpected shape, the files already mapped to another schema) it is left alone and the caller tells the user
 * what to add by hand. Pure.
 */

import { type JsoncNode, jsoncValue, propertiesOf, readJsonc, setJsonc } from './jsonc.js';
import { isWorkflowSchema } from './schema-ref.js';

export const YAML_SCHEMAS = 'yaml.schemas';
/** Where the settings are, relative to the project root. */
export const SETTINGS_PATH = '.vscode/settings.json';

/** One `yaml.schemas` entry: the schema (a path relative to the workspace, or a URL) and the globs it applies to. */
export interface SchemaMapping {
  schema: string;
  globs: string[];
}

export type SettingsMerge =
  | { status: 'create' | 'update'; text: string; note: string }
  | { status: 'unchanged' }
  | { status: 'manual'; reason: string; snippet: string };

export function buildSettingsMerge(existing: string | undefined, mapping: SchemaMapping): SettingsMerge {
  const entry = { [mapping.schema]: mapping.globs };
  if (existing === undefined || existing.trim() === '') {
    const text = `${JSON.stringify({ [YAML_SCHEMAS]: entry }, null, 2)}\n`;
    return { status: existing === undefined ? 'create' : 'update', text, note: `added ${YAML_SCHEMAS}` };
  }
  const manual = (reason: string): SettingsMerge => ({
    status: 'manual',
    reason,
    snippet: snippetFor(mapping),
  });
  const parsed = readJsonc(existing);
  if (!parsed.ok) {
    const { message, line, column } = parsed;
    return manual(`it is not valid JSON with comments (${message} at ${line}:${column})`);
  }
  const root = parsed.root;
  if (root.type !== 'object') return manual('its top level is not an object');
  const found = propertiesOf(root).filter((p) => p.key === YAML_SCHEMAS);
  if (found.length > 1) return manual(`it sets "${YAML_SCHEMAS}" more than once`);
  const before = jsoncValue(root) as Record<string, unknown>;
  const schemasNode = found[0]?.value;
  if (schemasNode === undefined) {
    const text = setJsonc(existing, [YAML_SCHEMAS], entry);
    return checked(text, { ...before, [YAML_SCHEMAS]: entry }, `added ${YAML_SCHEMAS}`, manual);
  }
  if (schemasNode.type !== 'object') return manual(`its "${YAML_SCHEMAS}" is not an object`);
  const edit = mergeIntoSchemas(existing, schemasNode, mapping);
  if (edit === undefined) return { status: 'unchanged' };
  if (typeof edit === 'string') return manual(edit);
  const schemas = { ...(before[YAML_SCHEMAS] as Record<string, unknown>), [mapping.schema]: edit.globs };
  return checked(edit.text, { ...before, [YAML_SCHEMAS]: schemas }, edit.note, manual);
}

/**
 * The edit of an existing `yaml.schemas` object: undefined when it already maps every glob to the schema, a
 * string saying why it cannot be merged, or the new text.
 */
function mergeIntoSchemas(
  text: string,
  schemas: JsoncNode,
  mapping: SchemaMapping,
): { text: string; globs: string[]; note: string } | string | undefined {
  const properties = propertiesOf(schemas);
  for (const property of properties) {
    if (property.key === mapping.schema) continue;
    const taken = globsOf(property.value)?.filter((glob) => mapping.globs.includes(glob)) ?? [];
    if (taken.length > 0) return `its "${YAML_SCHEMAS}" maps ${taken.join(', ')} to ${property.key} already`;
  }
  const own = properties.filter((p) => p.key === mapping.schema);
  if (own.length > 1) return `its "${YAML_SCHEMAS}" names ${mapping.schema} more than once`;
  const current = own[0]?.value;
  const path = [YAML_SCHEMAS, mapping.schema];
  if (current === undefined) {
    const globs = mapping.globs;
    return { text: setJsonc(text, path, globs), globs, note: `added ${mapping.schema} to ${YAML_SCHEMAS}` };
  }
  const globs = globsOf(current);
  if (globs === undefined)
    return `its "${YAML_SCHEMAS}" entry for ${mapping.schema} is not a glob or a list of globs`;
  const missing = mapping.globs.filter((glob) => !globs.includes(glob));
  if (missing.length === 0) return undefined;
  const merged = [...globs, ...missing];
  const note = `added ${missing.join(', ')} to the ${mapping.schema} entry`;
  if (current.type !== 'array') return { text: setJsonc(text, path, merged), globs: merged, note };
  // Appended one by one, so the items already there (and their comments) stay as they are.
  const edited = missing.reduce((soFar, glob) => setJsonc(soFar, [...path, -1], glob), text);
  return { text: edited, globs: merged, note };
}

/** A glob or a list of globs (what `yaml.schemas` values are); undefined for anything else. */
function globsOf(node: JsoncNode): string[] | undefined {
  const value = jsoncValue(node);
  if (typeof value === 'string') return [value];
  return Array.isArray(value) && value.every((v): v is string => typeof v === 'string') ? value : undefined;
}

/** The edit is used only if the file still parses to exactly the old settings plus the new entry. */
function checked(
  text: string,
  expected: Record<string, unknown>,
  note: string,
  manual: (reason: string) => SettingsMerge,
): SettingsMerge {
  const parsed = readJsonc(text);
  // Key order is part of the check: the edit appends, so the old keys keep their places.
  if (parsed.ok && JSON.stringify(jsoncValue(parsed.root)) === JSON.stringify(expected)) {
    return { status: 'update', text, note };
  }
  return manual('an automatic edit could not be verified');
}

/** What to add by hand: the entry as it would appear in the file. */
export function snippetFor(mapping: SchemaMapping): string {
  return JSON.stringify({ [YAML_SCHEMAS]: { [mapping.schema]: mapping.globs } }, null, 2)
    .split('\n')
    .slice(1, -1)
    .map((line) => line.slice(2))
    .join('\n');
}

/**
 * The globs a settings file maps to wfsync's workflow schema (`yaml.schemas` entries whose schema is
 * `…/workflow.schema.json`), in order; none when the file does not parse or has no such entry.
 */
export function workflowSchemaGlobs(settings: string | undefined): string[] {
  if (settings === undefined) return [];
  const parsed = readJsonc(settings);
  if (!parsed.ok || parsed.root.type !== 'object') return [];
  // As VS Code reads a duplicate key: the last one wins.
  const schemas = propertiesOf(parsed.root).findLast((p) => p.key === YAML_SCHEMAS)?.value;
  if (schemas?.type !== 'object') return [];
  return propertiesOf(schemas)
    .filter((p) => isWorkflowSchema(p.key))
    .flatMap((p) => globsOf(p.value) ?? []);
}
