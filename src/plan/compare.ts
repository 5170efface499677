/**
 * desired (the file) vs actual (what the service returned): the field-level changes a person must act on, and a
 * YAML diff of the compared fields. Noise-free by construction: only declared fields and fields with documented
 * server defaults are compared (see project.ts), so `sync` followed by `plan` shows nothing to do. Pure.
 *
 * The walks here and in project.ts and diff.ts recurse, on depth-checked data only: the desired side comes from a
 * definition within MAX_DEFINITION_DEPTH (the loader counts aliases at their use), the service's side from
 * parseJson, within MAX_JSON_DEPTH (remote/interpret.ts). Most follow the shape, which ends at `value` nodes, except
 * through a step's variants.
 */

import { deriveTrigger } from '../derive/trigger.js';
import { joinPointer } from '../diagnostic.js';
import type { WorkflowResponse } from '../generated/workflow-response.js';
import { canonicalJson, isRecord, type Json, jsonEqual } from '../json.js';
import { buildProjectionDiff } from './diff.js';
import { expandDeclared, matchByName, projectRemote } from './project.js';
import { type Shape, WORKFLOW_SHAPE } from './shape.js';
import type { DesiredWorkflow, FieldChange } from './types.js';

export interface WorkflowComparison {
  changes: FieldChange[];
  /** Empty when there are no changes. */
  diff: string;
}

/**
 * Comparisons made ahead (compareAhead), by the two objects compared, each given out once: a fetch compares each
 * workflow as its answer arrives, while the next requests are on the network, and the plan built after the last
 * answer finds it done. Nothing changes either side in between; a second comparison of the pair is made afresh.
 */
const ahead = new WeakMap<DesiredWorkflow, WeakMap<WorkflowResponse, WorkflowComparison>>();

export function compareWorkflow(desired: DesiredWorkflow, actual: WorkflowResponse): WorkflowComparison {
  const made = ahead.get(desired)?.get(actual);
  if (made === undefined) return compareOnce(desired, actual);
  ahead.get(desired)!.delete(actual);
  return made;
}

/** Compare now what compareWorkflow will be asked for later (the same two objects, unchanged meanwhile). */
export function compareAhead(desired: DesiredWorkflow, actual: WorkflowResponse): void {
  let withDesired = ahead.get(desired);
  if (withDesired === undefined) {
    withDesired = new WeakMap();
    ahead.set(desired, withDesired);
  }
  withDesired.set(actual, compareOnce(desired, actual));
}

function compareOnce(desired: DesiredWorkflow, actual: WorkflowResponse): WorkflowComparison {
  const declared = expandDeclared(declaredWorkflow(desired), WORKFLOW_SHAPE);
  const held = projectRemote(actual, declared, WORKFLOW_SHAPE);
  const changes: FieldChange[] = [];
  collectChanges(declared, held, WORKFLOW_SHAPE, ROOT, changes);
  const diff =
    changes.length === 0
      ? ''
      : buildProjectionDiff({
          service: held,
          file: declared,
          serviceName: actual.name,
          fileName: desired.file,
        });
  return { changes, diff };
}

/**
 * The definition as the service will hold it: the group resolved, and the trigger lists the file leaves out filled
 * with what the service derives from the body (so a template edit in the dashboard that changes them shows).
 */
function declaredWorkflow(desired: DesiredWorkflow): Json {
  const [trigger] = desired.definition.triggers;
  let derived: ReturnType<typeof deriveTrigger> | undefined;
  const derive = () => {
    derived ??= deriveTrigger(desired.body, { extraction: 'server' });
    return derived;
  };
  return {
    ...(desired.definition as unknown as Json),
    notificationGroupId: desired.body.notificationGroupId,
    triggers: [
      {
        ...trigger,
        variables: trigger.variables ?? derive().variables.map(({ name, type }) => ({ name, type })),
        subscriberVariables:
          trigger.subscriberVariables ?? derive().subscriberVariables.map(({ name }) => ({ name })),
      },
    ],
  };
}

interface Location {
  pointer: string;
  path: string;
}

const ROOT: Location = { pointer: '', path: '' };

function child(at: Location, key: string | number): Location {
  const path = typeof key === 'number' ? `${at.path}[${key}]` : at.path === '' ? key : `${at.path}.${key}`;
  return { pointer: joinPointer(at.pointer, key), path };
}

function collectChanges(
  desired: unknown,
  actual: unknown,
  shape: Shape,
  at: Location,
  out: FieldChange[],
): void {
  if (actual === undefined) {
    out.push({ ...at, kind: 'only-in-file', desired });
    return;
  }
  if (shape.kind === 'list' && Array.isArray(desired) && Array.isArray(actual)) {
    if (shape.match === 'set') {
      if (!sameSet(desired, actual)) out.push({ ...at, kind: 'changed', desired, actual });
    } else if (shape.match === 'name') {
      collectByName(desired, actual, shape.items, at, out);
    } else {
      for (let i = 0; i < Math.max(desired.length, actual.length); i++) {
        if (i < desired.length) collectChanges(desired[i], actual[i], shape.items, child(at, i), out);
        else out.push({ ...child(at, i), kind: 'only-on-service', actual: actual[i] });
      }
    }
    return;
  }
  if (shape.kind === 'object' && isRecord(desired) && isRecord(actual)) {
    for (const [key, field] of Object.entries(shape.fields)) {
      if (desired[key] !== undefined) collectChanges(desired[key], actual[key], field, child(at, key), out);
    }
    return;
  }
  if (!jsonEqual(desired, actual)) out.push({ ...at, kind: 'changed', desired, actual });
}

/** Elements matched by name wherever they stand; ones only the service has are placed after the file's. */
function collectByName(
  desired: unknown[],
  actual: unknown[],
  items: Shape,
  at: Location,
  out: FieldChange[],
): void {
  const { pairs, extra } = matchByName(desired, actual);
  pairs.forEach(([mine, theirs], i) => {
    collectChanges(mine, theirs, items, child(at, i), out);
  });
  extra.forEach((theirs, k) => {
    out.push({ ...child(at, desired.length + k), kind: 'only-on-service', actual: theirs });
  });
}

function sameSet(a: readonly unknown[], b: readonly unknown[]): boolean {
  const left = new Set(a.map(canonicalJson));
  const right = new Set(b.map(canonicalJson));
  return left.size === right.size && [...left].every((item) => right.has(item));
}
