/**
 * Stable sample data for a workflow: a payload from its trigger variables (realistic values by name and type), a
 * sample subscriber and, when it digests, three events. No clock, no randomness: same workflow, same bytes.
 */
import { scanTemplate } from '../derive/handlebars.js';
import { isSystemVariable } from '../derive/names.js';
import { deriveTrigger, textSourcesOfStep } from '../derive/trigger.js';
import type { WorkflowDefinition } from '../generated/workflow.js';
import { isRecord } from '../json.js';
import { sampleValue } from './sample-values.js';
import type { RenderData } from './types.js';

/** The sample subscriber every preview is rendered for (a fresh object each time). */
export function sampleSubscriber(data: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    subscriberId: 'sample-subscriber-1',
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada.lovelace@example.com',
    phone: '+15555550123',
    locale: 'en_US',
    avatar: 'https://example.com/avatars/ada.png',
    data,
  };
}

/** How many events a digest sample collects. */
const DIGEST_EVENTS = 3;

/** The sample tenant's own fields, for workflows that read `tenant.*`. */
const TENANT_IDENTIFIER = 'sample-tenant';
const TENANT_NAME = 'Analytical Engines Ltd';

/** Stable sample data for `workflow` (see src/render/index.ts). */
export function sampleData(workflow: WorkflowDefinition): RenderData {
  return sampleDataFromVariables(workflow, deriveTrigger(workflow).variables);
}

/** The service's own variables whose sample shape the templates decide (the rest is fixed). */
const SHAPED_SYSTEM = /subscriber\.data|step\.events|tenant|actor/;

/** sampleData's subscriber, events, tenant and actor, with an empty payload (checkWorkflow needs no more). */
export function sampleSystemData(workflow: WorkflowDefinition): RenderData {
  return sampleDataFromVariables(workflow, []);
}

/** sampleData from trigger variables already derived: the same result, less work. */
export function sampleDataFromVariables(
  workflow: WorkflowDefinition,
  variables: ReadonlyArray<{ name: string; type: string }>,
): RenderData {
  const payloadShape = newShape();
  for (const variable of variables) addShape(payloadShape, variable.name.split('.'), variable.type);
  // The service's own variables the templates read: the subscriber's `data`, the digest's events, tenant and actor.
  const system = newShape();
  const steps: unknown[] = Array.isArray(workflow?.steps) ? workflow.steps : [];
  for (const step of steps) {
    for (const source of textSourcesOfStep(step)) {
      if (!SHAPED_SYSTEM.test(source.text)) continue; // most templates read none: no second scan
      for (const usage of scanTemplate(source.text).usages) {
        if (isSystemVariable(usage.name)) addShape(system, usage.name.split('.'), usage.type);
      }
    }
  }
  const payload = materialiseObject(payloadShape, 0);
  const subscriber = sampleSubscriber(materialiseObject(pathShape(system, ['subscriber', 'data']), 0));
  const data: RenderData = { payload, subscriber };
  if (digests(workflow)) {
    // Each event is a trigger's payload; the first is the trigger that started the digest (the step's own payload).
    const eventShape = mergeShapes(payloadShape, pathShape(system, ['step', 'events']));
    data.events = Array.from({ length: DIGEST_EVENTS }, (_, i) => materialiseObject(eventShape, i));
  }
  if (system.children.has('tenant')) {
    const read = materialiseObject(pathShape(system, ['tenant']), 0);
    data.tenant = { ...read, identifier: TENANT_IDENTIFIER, name: TENANT_NAME };
  }
  if (system.children.has('actor')) {
    const actor = materialiseObject(pathShape(system, ['actor']), 1);
    data.actor = { ...actor, subscriberId: 'sample-actor-1', firstName: 'Grace', lastName: 'Hopper' };
  }
  return data;
}

/**
 * `data` rendered with `payload` as the trigger's payload (a user's, in place of the sample's). The sample names an
 * actor (a tenant) when the templates read `actor.*` (`tenant.*`); a payload with its own `actor` (`tenant`) key is
 * previewed as a trigger that names none, where the service renders the payload's value: the worker adds `actor` and
 * `tenant` to the context only when the trigger names them (`send-message.usecase.ts` `buildCompileContext`), and
 * then over the payload's (`send-message.base.ts` `getCompilePayload`).
 */
export function withPayload(data: RenderData, payload: Record<string, unknown>): RenderData {
  const result: RenderData = { ...data, payload };
  if (isRecord(payload) && Object.hasOwn(payload, 'actor')) delete result.actor;
  if (isRecord(payload) && Object.hasOwn(payload, 'tenant')) delete result.tenant;
  return result;
}

function newShape(): ShapeNode {
  return { type: 'String', children: new Map() };
}

/** The shape under `path` (an empty one when nothing is read there). */
function pathShape(root: ShapeNode, path: string[]): ShapeNode {
  let node: ShapeNode | undefined = root;
  for (const segment of path) node = node?.children.get(segment);
  return node ?? newShape();
}

function mergeShapes(a: ShapeNode, b: ShapeNode): ShapeNode {
  const merged: ShapeNode = {
    type: a.type === 'Array' || b.type === 'Array' ? 'Array' : a.type,
    children: new Map(a.children),
  };
  for (const [name, child] of b.children) {
    const mine = merged.children.get(name);
    merged.children.set(name, mine === undefined ? child : mergeShapes(mine, child));
  }
  return merged;
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

/**
 * An object with the shape's keys as its own properties, whatever they are named: a template's `__proto__` segment
 * is a key like any other, as in the JSON payload the service receives, never the object's prototype.
 */
function materialiseObject(node: ShapeNode, position: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, child] of node.children) {
    Object.defineProperty(out, name, {
      value: materialise(name, child, position),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
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

function digests(workflow: WorkflowDefinition): boolean {
  const steps: unknown[] = Array.isArray(workflow?.steps) ? workflow.steps : [];
  return steps.some((step) => isRecord(step) && isRecord(step.template) && step.template.type === 'digest');
}
