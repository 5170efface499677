import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { IGNORED_FIELDS } from '../../../src/plan/build-plan.js';
import { type Shape, WORKFLOW_SHAPE } from '../../../src/plan/shape.js';

/** The plan's copy of the definition structure must not drift from the schema it mirrors. */

interface SchemaNode {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  items?: SchemaNode;
}

const schema = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, '../../../schemas/workflow.schema.json'), 'utf8'),
) as SchemaNode & { $defs: Record<string, SchemaNode> };

function resolve(node: SchemaNode): SchemaNode {
  if (node.$ref === undefined) return node;
  const name = node.$ref.replace('#/$defs/', '');
  const target = schema.$defs[name];
  if (!target) throw new Error(`unresolved ${node.$ref}`);
  return resolve(target);
}

const types = (node: SchemaNode): string[] => (node.type === undefined ? [] : [node.type].flat());

/** Walks schema and shape together; returns the mismatches as readable lines. */
function mismatches(node: SchemaNode, shape: Shape, at: string, seen = new Set<Shape>()): string[] {
  if (seen.has(shape)) return [];
  const resolved = resolve(node);
  if (resolved.properties !== undefined) {
    if (shape.kind !== 'object') return [`${at}: the schema has properties, the shape is ${shape.kind}`];
    const next = new Set(seen).add(shape);
    const problems: string[] = [];
    const schemaKeys = Object.keys(resolved.properties);
    const shapeKeys = Object.keys(shape.fields);
    if (schemaKeys.join() !== shapeKeys.join()) problems.push(`${at}: [${schemaKeys}] vs [${shapeKeys}]`);
    for (const key of schemaKeys) {
      const field = shape.fields[key];
      if (field) problems.push(...mismatches(resolved.properties[key]!, field, `${at}/${key}`, next));
    }
    for (const key of Object.keys({ ...shape.defaults, ...shape.pullOmits })) {
      if (!(key in shape.fields)) problems.push(`${at}: default for unknown field ${key}`);
    }
    return problems;
  }
  const items = resolved.items === undefined ? undefined : resolve(resolved.items);
  if (types(resolved).includes('array') && items?.properties !== undefined) {
    if (shape.kind !== 'list') return [`${at}: the schema has a list of objects, the shape is ${shape.kind}`];
    return mismatches(items, shape.items, `${at}/0`, seen);
  }
  return shape.kind === 'value' ? [] : [`${at}: the schema has a plain value, the shape is ${shape.kind}`];
}

function allFieldNames(shape: Shape, at: string, out: Map<string, string[]>, seen = new Set<Shape>()): void {
  if (seen.has(shape)) return;
  seen.add(shape);
  if (shape.kind === 'list') allFieldNames(shape.items, `${at}/0`, out, seen);
  if (shape.kind !== 'object') return;
  for (const [key, field] of Object.entries(shape.fields)) {
    out.set(key, [...(out.get(key) ?? []), `${at}/${key}`]);
    allFieldNames(field, `${at}/${key}`, out, seen);
  }
}

describe('WORKFLOW_SHAPE', () => {
  it('has every declarable field of the schema, in its order, with the same nesting', () => {
    expect(mismatches(schema, WORKFLOW_SHAPE, '')).toEqual([]);
  });

  it('would notice a field missing from the shape', () => {
    const broken = { ...WORKFLOW_SHAPE, fields: { ...WORKFLOW_SHAPE.fields } };
    delete (broken.fields as Record<string, Shape>).critical;
    expect(mismatches(schema, broken, '')).toEqual([
      expect.stringContaining(': [name,description,tags,active,critical,'),
      ': default for unknown field critical',
    ]);
  });

  it('never declares a server-managed field (type only below the top level)', () => {
    const names = new Map<string, string[]>();
    allFieldNames(WORKFLOW_SHAPE, '', names);
    for (const field of IGNORED_FIELDS) {
      const where = names.get(field) ?? [];
      expect(where.filter((pointer) => pointer === `/${field}`)).toEqual([]);
      if (field !== 'type') expect(where).toEqual([]);
    }
  });
});
