/**
 * A stored workflow → the definition file `wfsync pull` writes: declarable fields only, in schema order, without
 * server defaults or fill-ins, the group named as the target's config names it, and the trigger as the service
 * derived it. Creating from the result gives a workflow that compares equal to the one pulled. Pure.
 * fromRemote and yaml's Document recurse: the stored workflow came through parseJson, within MAX_JSON_DEPTH.
 */
import { findIncludeReferences } from '../definitions/include-references.js';
import { yamlLib } from '../definitions/yaml-lib.js';
import { splitPointer } from '../diagnostic.js';
import type { WorkflowDefinition } from '../generated/workflow.js';
import type { WorkflowResponse } from '../generated/workflow-response.js';
import { isRecord, type Json } from '../json.js';
import { groupReferenceOf, type TargetGroups } from '../plan/create-body.js';
import { fromRemote } from '../plan/project.js';
import { readRemote, WORKFLOW_SHAPE } from '../plan/shape.js';

/** The first line that tells YAML editors which schema a file follows (the YAML language server's modeline). */
export function modelineLine(schema: string): string {
  return `# yaml-language-server: $schema=${schema}`;
}

export const SCHEMA_MODELINE = modelineLine('../schemas/workflow.schema.json');

const MODELINE_PATTERN = /^#\s*yaml-language-server:\s*\$schema=(\S+)\s*$/;

/** The schema a file's modeline names (its first comment line of that form), or undefined when it has none. */
export function modelineSchemaIn(text: string): string | undefined {
  for (const line of text.replace(/^\uFEFF/, '').split(/\r?\n/)) {
    const found = MODELINE_PATTERN.exec(line);
    if (found) return found[1];
  }
  return undefined;
}

export function buildDefinitionFromRemote(
  actual: WorkflowResponse,
  options: { groups: TargetGroups },
): WorkflowDefinition {
  const converted = fromRemote(actual, WORKFLOW_SHAPE);
  const fields: Json = isRecord(converted) ? converted : {};
  const definition: Json = {};
  for (const key of Object.keys(WORKFLOW_SHAPE.fields)) {
    const value = key === 'notificationGroupId' ? groupOf(actual, options.groups) : fields[key];
    if (value !== undefined) definition[key] = value;
  }
  // The service always returns the name and the trigger; keep the keys a definition requires even if it did not.
  definition.name ??= actual.name;
  definition.steps ??= [];
  definition.triggers ??= [];
  return definition as unknown as WorkflowDefinition;
}

/**
 * A definition's file text: the schema modeline, then block style with file references on one line
 * (`content: { file: ./order-shipped.email.html }`), no anchors for repeated values, and long lines kept whole so
 * a later diff of the file stays small.
 */
export function buildDefinitionYaml(definition: object): string {
  const doc = new (yamlLib().Document)(definition, { aliasDuplicateObjects: false });
  for (const { pointer } of findIncludeReferences(definition)) {
    // yaml reads a numeric string as a sequence index.
    const node = doc.getIn(splitPointer(pointer), true);
    if (yamlLib().isMap(node)) node.flow = true;
  }
  return `${SCHEMA_MODELINE}\n${doc.toString({ lineWidth: 0 })}`;
}

function groupOf(actual: WorkflowResponse, groups: TargetGroups): string | undefined {
  const id = readRemote(actual, 'notificationGroupId', WORKFLOW_SHAPE);
  return typeof id === 'string' ? groupReferenceOf(id, groups) : undefined;
}
