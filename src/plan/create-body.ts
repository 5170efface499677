import type { WorkflowDefinition } from '../generated/workflow.js';
import type { TargetGroups } from '../remote/index.js';
import type { CreateWorkflowBody } from './types.js';

export type { TargetGroups };

const OBJECT_ID = /^[0-9a-f]{24}$/;
const GROUP_PREFIX = 'group:';
/** Fields only wfsync reads: the service derives the trigger itself. */
const WFSYNC_ONLY = new Set(['triggers']);

/**
 * The POST /v1/workflows body for a definition: everything but wfsync-only fields, in the definition's key order,
 * with `notificationGroupId` resolved to an id. Steps and templates go as declared.
 */
export function buildCreateBody(
  definition: WorkflowDefinition,
  groups: TargetGroups,
): { body: CreateWorkflowBody } | { problem: string } {
  const group = resolveGroup(definition.notificationGroupId, groups);
  if ('problem' in group) return group;
  const body: Record<string, unknown> = {};
  const declared = definition.notificationGroupId !== undefined;
  for (const [key, value] of Object.entries(definition)) {
    if (WFSYNC_ONLY.has(key) || value === undefined) continue;
    // An omitted group takes the place the schema gives it: before data and steps (set again, it keeps its place).
    if (!declared && (key === 'data' || key === 'steps')) body.notificationGroupId = group.id;
    body[key] = key === 'notificationGroupId' ? group.id : value;
  }
  body.notificationGroupId ??= group.id;
  return { body: body as unknown as CreateWorkflowBody };
}

/** A definition's group reference → the id the service stores. */
export function resolveGroup(
  reference: string | undefined,
  groups: TargetGroups,
): { id: string } | { problem: string } {
  const target = groups.target === undefined ? 'the target' : `target "${groups.target}"`;
  if (reference === undefined) {
    if (groups.defaultId !== undefined) return { id: groups.defaultId };
    return {
      problem:
        "no notificationGroupId: set one in the definition, the target's notificationGroupId in wfsync.config.yaml, or WFSYNC_NOTIFICATION_GROUP_ID",
    };
  }
  if (reference.startsWith(GROUP_PREFIX)) {
    const name = reference.slice(GROUP_PREFIX.length);
    const id = Object.hasOwn(groups.named, name) ? groups.named[name] : undefined;
    if (id !== undefined) return { id };
    const known = Object.keys(groups.named).sort();
    const names = known.length === 0 ? 'it defines none' : `known: ${known.map((n) => `"${n}"`).join(', ')}`;
    return {
      problem: `notificationGroupId "${reference}" is not defined for ${target} (${names}): add it to the target's notificationGroups in wfsync.config.yaml`,
    };
  }
  if (OBJECT_ID.test(reference)) return { id: reference };
  return {
    problem: `notificationGroupId "${reference}" is neither a 24-character lower-case hex id nor group:<name>`,
  };
}

/**
 * The reverse, for `wfsync pull`: the target's default group is left out, a named group becomes `group:<name>`
 * (the first name in sorted order when several map to the id), any other id is kept as is.
 */
export function groupReferenceOf(id: string, groups: TargetGroups): string | undefined {
  if (id === groups.defaultId) return undefined;
  const name = Object.keys(groups.named)
    .sort()
    .find((n) => groups.named[n] === id);
  return name === undefined ? id : `${GROUP_PREFIX}${name}`;
}
