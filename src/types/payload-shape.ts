/**
 * The payload a workflow's trigger call must carry, as a type: built from what its templates read (Handlebars'
 * scoping rules, src/derive/handlebars.ts) and what its trigger declares. Pure: no node:*, no clock.
 *
 * - A field's type is the declared one (`triggers[0].variables`), else the one its uses give: an `{{#each}}` list is
 *   an array, an `{{#if}}` subject never printed is a boolean, anything else a string. Dotted uses (`{{order.id}}`)
 *   make objects; fields read inside an `{{#each list}}` make the list's elements objects.
 * - A field is required when some use reads it (or a field under it) outside any `{{#if}}`/`{{#unless}}`, or under
 *   conditions on the object it belongs to (`{{#if order}}{{order.id}}{{/if}}`: `order?: {id: string}`); one read
 *   only under other conditions, only by a payload filter, or declared and never read, is optional.
 * - Every rendered string counts, a customHtml email's subject too (the service does not scan it; it renders it).
 * - Fields the digested events' payloads are read for (`{{#each step.events}}{{payload.title}}`) are payload fields
 *   too: each event is a trigger call's payload.
 */

import { scanTemplate } from '../derive/handlebars.js';
import { firstSegmentIs, isSystemVariable } from '../derive/names.js';
import { deriveTrigger, subscriberVariablesOf, textSourcesOfStep } from '../derive/trigger.js';
import type { VariableType } from '../derive/types.js';
import type { WorkflowDefinition } from '../generated/workflow.js';
import { isRecord } from '../json.js';

export type PayloadType =
  | { kind: 'string' }
  | { kind: 'boolean' }
  | { kind: 'array'; element: PayloadType }
  | { kind: 'object'; fields: PayloadField[] };

export interface PayloadField {
  name: string;
  required: boolean;
  type: PayloadType;
}

/** One workflow's trigger, typed: what `wfsync types` writes for it. */
export interface WorkflowTypes {
  /** The trigger identifier applications call (`triggers[0].identifier`). */
  identifier: string;
  name: string;
  description?: string;
  /** The definition's display path. */
  file: string;
  payload: { kind: 'object'; fields: PayloadField[] };
  /** Subscriber fields the workflow reads (`firstName`, `data.plan`) or needs for its channels (`email`, `phone`). */
  subscriberFields: string[];
}

/** What buildWorkflowTypes reads of a definition. */
export interface TypedDefinition {
  identifier: string;
  file: string;
  workflow: WorkflowDefinition;
}

/** The prefix under which the digested events' payloads are read. */
const EVENT_PAYLOAD = ['step', 'events', 'payload'];

/** A field as the uses build it up, before it becomes a PayloadType. */
interface ShapeNode {
  declared?: VariableType;
  used?: VariableType;
  required: boolean;
  children: Map<string, ShapeNode>;
}

export function buildWorkflowTypes({ identifier, file, workflow }: TypedDefinition): WorkflowTypes {
  const root = newNode();
  const subscriber = new Set<string>();
  const steps: unknown[] = Array.isArray(workflow.steps) ? workflow.steps : [];
  // 1. What the templates read, step by step, each use with whether a condition guards it.
  for (const step of steps) {
    for (const text of renderedTextsOf(step)) {
      for (const usage of scanTemplate(text).usages) {
        const segments = usage.name.split('.');
        const from = requiredFrom(segments, usage.conditions);
        if (!isSystemVariable(usage.name)) addUse(root, segments, usage.type, from);
        else if (startsWith(segments, EVENT_PAYLOAD) && segments.length > EVENT_PAYLOAD.length)
          addUse(root, segments.slice(EVENT_PAYLOAD.length), usage.type, from - EVENT_PAYLOAD.length);
        else if (firstSegmentIs(usage.name, 'subscriber') && segments.length > 1)
          subscriber.add(segments.slice(1).join('.'));
      }
    }
    for (const field of subscriberFilterFields(step)) subscriber.add(field);
  }
  // 2. What the step settings read: a payload filter's field may be absent (the filter then fails); a scheduled
  // delay's delayPath and a digest's digestKey are needed.
  for (const variable of deriveTrigger(workflow).variables) {
    if (variable.pointer.includes('/template/')) continue;
    addUse(root, variable.name.split('.'), variable.type, variable.pointer.includes('/filters/') ? NEVER : 0);
  }
  // 3. The declared types win; a declared field nobody reads is optional.
  const declared = workflow.triggers?.[0]?.variables ?? [];
  for (const variable of declared) {
    const node = addUse(root, variable.name.split('.'), undefined, NEVER);
    node.declared = variable.type ?? 'String';
  }
  for (const { name } of subscriberVariablesOf(steps)) subscriber.add(name);
  return {
    identifier,
    name: workflow.name,
    ...(workflow.description === undefined ? {} : { description: workflow.description }),
    file,
    payload: { kind: 'object', fields: fieldsOf(root) },
    subscriberFields: [...subscriber].sort(),
  };
}

function newNode(): ShapeNode {
  return { required: false, children: new Map() };
}

/** A use that makes no field required. */
const NEVER = Number.POSITIVE_INFINITY;

/**
 * The first segment (index) of a use that the use makes required: 0 when it is read unconditionally; past its
 * conditions when each is a path the use is under (`{{#if order}}{{order.id}}{{/if}}` needs `id` once there is an
 * `order`); never when a condition is something else (`{{#if vip}}{{discount}}{{/if}}`).
 */
function requiredFrom(
  segments: readonly string[],
  conditions: ReadonlyArray<readonly string[] | null> = [],
): number {
  let from = 0;
  for (const condition of conditions) {
    if (condition === null || condition.length >= segments.length || !startsWith(segments, condition))
      return NEVER;
    from = Math.max(from, condition.length);
  }
  return from;
}

/** Adds one use of `segments` (the node it ends at is returned), marking required its nodes from index `from` on. */
function addUse(
  root: ShapeNode,
  segments: string[],
  type: VariableType | undefined,
  from: number,
): ShapeNode {
  let node = root;
  segments.forEach((segment, i) => {
    let child = node.children.get(segment);
    if (child === undefined) {
      child = newNode();
      node.children.set(segment, child);
    }
    if (i >= from) child.required = true;
    node = child;
  });
  // An array stays an array whatever else reads it; a printed value is a string even if an `{{#if}}` tests it.
  if (type !== undefined && node.used !== 'Array' && !(type === 'Boolean' && node.used === 'String'))
    node.used = type;
  return node;
}

function fieldsOf(node: ShapeNode): PayloadField[] {
  return [...node.children].map(([name, child]) => ({ name, required: child.required, type: typeOf(child) }));
}

function typeOf(node: ShapeNode): PayloadType {
  const type = node.declared ?? node.used ?? 'String';
  const object: PayloadType | undefined =
    node.children.size > 0 ? { kind: 'object', fields: fieldsOf(node) } : undefined;
  if (type === 'Array') return { kind: 'array', element: object ?? { kind: 'string' } };
  if (object !== undefined) return object;
  return type === 'Boolean' ? { kind: 'boolean' } : { kind: 'string' };
}

/**
 * Every string of a step that is rendered: those the service scans for variables, and the subject of an email whose
 * content is one HTML string (rendered, though the service does not scan it).
 */
function renderedTextsOf(step: unknown): string[] {
  const texts = textSourcesOfStep(step).map((source) => source.text);
  const template = isRecord(step) ? step.template : undefined;
  if (isRecord(template) && template.type === 'email' && typeof template.content === 'string') {
    if (typeof template.subject === 'string') texts.unshift(template.subject);
  }
  return texts;
}

function startsWith(segments: readonly string[], prefix: readonly string[]): boolean {
  return prefix.every((segment, i) => segments[i] === segment);
}

/** The subscriber fields a step's filters compare (`on: subscriber`, `field: data.seats`). */
function subscriberFilterFields(step: unknown): string[] {
  const filters = isRecord(step) && Array.isArray(step.filters) ? step.filters : [];
  return filters.flatMap((filter: unknown) => {
    const children = isRecord(filter) && Array.isArray(filter.children) ? filter.children : [];
    return children.flatMap((child: unknown) =>
      isRecord(child) && child.on === 'subscriber' && typeof child.field === 'string' && child.field !== ''
        ? [child.field]
        : [],
    );
  });
}
