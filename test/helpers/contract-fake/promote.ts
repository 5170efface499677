import { childrenOf, publicChange } from './changes.js';
import type { Change, Doc, FakeState, Group } from './state.js';
import { chainSteps } from './steps.js';

/**
 * Applying a Development change to Production, as the contract states it: its hidden children first, then the
 * change; a workflow's Production copy is created (a new `_id`, `_parentId` = the Development `_id`) or overwritten
 * (the copied fields below), its steps pointing at Production copies of their templates, its group promoted on the
 * way; a deleted Development workflow soft-deletes its Production copy. Applying an applied change does nothing.
 */

const COPIED = [
  'name',
  'active',
  'draft',
  'description',
  'tags',
  'critical',
  'triggers',
  'preferenceSettings',
  'data',
] as const;

/** The Production copy of a Development template, created or overwritten; returns its `_id`. */
function promoteTemplate(state: FakeState, devTemplateId: string): string | undefined {
  const source = state.development.templates.get(devTemplateId);
  if (source === undefined) return undefined;
  const templates = state.production.templates;
  const existing = [...templates.values()].find((t) => t._parentId === devTemplateId);
  const id = (existing?._id as string | undefined) ?? state.newId();
  const at = state.now();
  templates.set(id, {
    ...structuredClone(source),
    _id: id,
    id,
    _parentId: devTemplateId,
    _environmentId: state.production._id,
    createdAt: existing?.createdAt ?? at,
    updatedAt: at,
  });
  return id;
}

/** The Production group derived from a Development group, promoted on the way when missing. */
function promoteGroup(state: FakeState, devGroupId: string): string {
  const production = state.production.groups;
  const existing = production.find((g) => g._parentId === devGroupId);
  if (existing !== undefined) return existing._id;
  const source = state.development.groups.find((g) => g._id === devGroupId);
  if (source === undefined) return devGroupId;
  const at = state.now();
  const group: Group = {
    ...source,
    _id: state.newId(),
    _environmentId: state.production._id,
    _parentId: devGroupId,
    createdAt: at,
    updatedAt: at,
  };
  production.push(group);
  return group._id;
}

function promoteWorkflow(state: FakeState, devId: string): void {
  const source = state.development.workflows.get(devId);
  if (source === undefined) return;
  const workflows = state.production.workflows;
  const existing = [...workflows.values()].find((w) => w._parentId === devId && w.deleted !== true);
  const at = state.now();
  if (source.deleted === true) {
    if (existing !== undefined)
      workflows.set(existing._id as string, { ...existing, deleted: true, deletedAt: at, updatedAt: at });
    return;
  }
  const steps = ((source.steps as Doc[]) ?? []).map((step) => {
    const templateId = promoteTemplate(state, step._templateId as string) ?? (step._templateId as string);
    return { ...structuredClone(step), _id: templateId, _templateId: templateId };
  });
  const id = (existing?._id as string | undefined) ?? state.newId();
  const copy: Doc =
    existing === undefined
      ? {
          _id: id,
          id,
          isBlueprint: false,
          type: source.type,
          origin: source.origin,
          _environmentId: state.production._id,
          _organizationId: state.organizationId,
          _creatorId: state.creatorId,
          _parentId: devId,
          deleted: false,
          createdAt: at,
          __v: 0,
        }
      : { ...existing };
  for (const field of COPIED) {
    if (source[field] === undefined) delete copy[field];
    else copy[field] = structuredClone(source[field]);
  }
  copy.steps = chainSteps(steps);
  copy._notificationGroupId = promoteGroup(state, source._notificationGroupId as string);
  copy.updatedAt = at;
  workflows.set(id, copy);
}

/** Applies one Development change; returns its children then itself, as the apply route answers. */
export function applyChange(state: FakeState, change: Change): Doc[] {
  const children = childrenOf(state, change);
  if (!change.enabled) {
    for (const child of children) {
      const template = state.development.templates.get(child._entityId);
      if (template?.deleted === true) {
        const copy = [...state.production.templates.values()].find((t) => t._parentId === child._entityId);
        if (copy !== undefined)
          state.production.templates.set(copy._id as string, { ...copy, deleted: true });
      } else promoteTemplate(state, child._entityId);
    }
    if (change.type === 'NotificationTemplate') promoteWorkflow(state, change._entityId);
    const at = state.now();
    for (const c of [...children, change]) {
      c.enabled = true;
      c.updatedAt = at;
    }
  }
  return [...children, change].map(publicChange);
}
