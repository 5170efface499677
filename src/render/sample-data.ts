/**
 * Stable sample data for a workflow: a payload from its trigger variables (realistic values by name and type), a
 * sample subscriber and, when it digests, three events. No clock, no randomness: same workflow, same bytes.
 */
import { deriveTrigger } from '../derive/trigger.js';
import type { WorkflowDefinition } from '../generated/workflow.js';
import { isRecord } from '../json.js';
import { sampleValue } from './sample-values.js';
import type { RenderData } from './types.js';

/** The sample subscriber every preview is rendered for. */
export const SAMPLE_SUBSCRIBER: Readonly<Record<string, unknown>> = Object.freeze({
  subscriberId: 'sample-subscriber-1',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada.lovelace@example.com',
  phone: '+15555550123',
  locale: 'en_US',
  avatar: 'https://example.com/avatars/ada.png',
  data: {},
});

/** How many events a digest sample collects. */
const DIGEST_EVENTS = 3;

export function sampleData(workflow: WorkflowDefinition): RenderData {
  const tree: ShapeNode = { type: 'String', children: new Map() };
  for (const variable of deriveTrigger(workflow).variables)
    addShape(tree, variable.name.split('.'), variable.type);
  const payload = materialiseObject(tree, 0);
  const data: RenderData = { payload, subscriber: copy(SAMPLE_SUBSCRIBER) };
  if (digests(workflow)) {
    data.events = Array.from({ length: DIGEST_EVENTS }, (_, i) => eventPayload(payload, i));
  }
  return data;
}

/** The shape the templates read: each name, whether it is iterated, and the fields read under it. */
interface ShapeNode {
  type: string;
  children: Map<string, ShapeNode>;
}

function addShape(root: ShapeNode, segments: string[], type: string): void {
  let node = root;
  segments.forEach((segment, i) => {
    let child = node.children.get(segment);
    if (child === undefined) {
      child = { type: 'String', children: new Map() };
      node.children.set(segment, child);
    }
    // An array stays an array whatever else reads it; the last segment carries the use's type.
    if (i === segments.length - 1 && child.type !== 'Array') child.type = type;
    node = child;
  });
}

/** How many elements a sample array has. */
const ARRAY_LENGTH = 2;

function materialiseObject(node: ShapeNode, position: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, child] of node.children) out[name] = materialise(name, child, position);
  return out;
}

function materialise(name: string, node: ShapeNode, position: number): unknown {
  if (node.type === 'Array') {
    return Array.from({ length: ARRAY_LENGTH }, (_, i) =>
      node.children.size > 0 ? materialiseObject(node, i) : sampleValue(singular(name), 'String', i),
    );
  }
  if (node.children.size > 0) return materialiseObject(node, position);
  return sampleValue(name, node.type, position);
}

/** `items` → `item`: the name an element of a sample array is valued by. */
function singular(name: string): string {
  return name.length > 3 && name.endsWith('s') && !name.endsWith('ss') ? name.slice(0, -1) : name;
}

/** The i-th event a digest collected: the sample payload, its values taken at position i. */
function eventPayload(payload: Record<string, unknown>, i: number): Record<string, unknown> {
  return { ...copy(payload), eventNumber: i + 1 };
}

function digests(workflow: WorkflowDefinition): boolean {
  const steps: unknown[] = Array.isArray(workflow?.steps) ? workflow.steps : [];
  return steps.some((step) => isRecord(step) && isRecord(step.template) && step.template.type === 'digest');
}

function copy(value: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
}
