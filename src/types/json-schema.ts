/**
 * `wfsync types --format json-schema`: one JSON Schema (draft 2020-12) per workflow under `$defs`, keyed by trigger
 * identifier, for code in other languages; the document itself describes the same map as `WorkflowPayloads`. Objects
 * are built without a prototype, so a field named `__proto__` is a key like any other.
 */

import { escapePointerSegment } from '../diagnostic.js';
import { jsonText } from '../report/channel.js';
import type { PayloadField, PayloadType, WorkflowTypes } from './payload-shape.js';
import { GENERATED_HEADER, sortByIdentifier } from './typescript.js';

type Schema = Record<string, unknown>;

export function renderJsonSchema(workflows: readonly WorkflowTypes[]): string {
  const sorted = sortByIdentifier(workflows);
  const properties = record();
  const defs = record();
  for (const workflow of sorted) {
    properties[workflow.identifier] = { $ref: `#/$defs/${pointerSegment(workflow.identifier)}` };
    defs[workflow.identifier] = workflowSchema(workflow);
  }
  const document: Schema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $comment: GENERATED_HEADER,
    title: 'WorkflowPayloads',
    description: 'The payload each workflow is triggered with, by trigger identifier.',
    type: 'object',
    properties,
    additionalProperties: false,
    $defs: defs,
  };
  return `${jsonText(document)}\n`;
}

function workflowSchema(workflow: WorkflowTypes): Schema {
  const schema: Schema = {
    title: workflow.name,
    ...(workflow.description === undefined ? {} : { description: workflow.description }),
    $comment: `${workflow.file}; subscriber fields: ${workflow.subscriberFields.join(', ') || 'none'}`,
  };
  return { ...schema, ...objectSchema(workflow.payload.fields) };
}

function typeSchema(type: PayloadType): Schema {
  switch (type.kind) {
    case 'string':
      return { type: 'string' };
    case 'boolean':
      return { type: 'boolean' };
    case 'array':
      return { type: 'array', items: typeSchema(type.element) };
    case 'object':
      return objectSchema(type.fields);
  }
}

function objectSchema(fields: readonly PayloadField[]): Schema {
  const properties = record();
  for (const field of fields) properties[field.name] = typeSchema(field.type);
  const required = fields.filter((field) => field.required).map((field) => field.name);
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}

/** An object without a prototype: any key, `__proto__` included, is an own property. */
function record(): Schema {
  return Object.create(null) as Schema;
}

/** A JSON pointer segment inside a URI fragment: `~` and `/` escaped (RFC 6901), then percent-encoded. */
function pointerSegment(key: string): string {
  return encodeURIComponent(escapePointerSegment(key));
}
