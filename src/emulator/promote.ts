import type { Json } from '../json.js';
import type { StoredChange } from './changes.js';
import type { ServiceState } from './handlers.js';
import { notFound } from './http-error.js';
import type { StoredWorkflow } from './types.js';

/**
 * What applying a change does to Production, as the service's promotion does it. A workflow change creates the
 * Production copy (a new `_id`, `_parentId` = the Development `_id`) or overwrites it with the Development
 * workflow as it is now (name, active, draft, description, tags, critical, triggers, preferences, steps, data,
 * group); its steps point at Production copies of their templates (`template._parentId` = the Development
 * template), reused across promotions; a group Production lacks is promoted on the way; a deleted Development
 * workflow soft-deletes the Production copy. Template changes need nothing of their own: their workflow's steps
 * carry them.
 */
export function promoteChange(state: ServiceState, change: StoredChange): void {
  if (change.type === 'NotificationTemplate') promoteWorkflow(state, change._entityId);
  else if (change.type === 'NotificationGroup') promoteGroup(state, change._entityId);
}

function promoteWorkflow(state: ServiceState, developmentId: string): void {
  const { development, production } = state.environments;
  const source = state.store.findIncludingDeleted(development._id, developmentId);
  if (source === undefined) return;
  const existing = state.store.findByParent(production._id, developmentId);
  const now = new Date(state.clock()).toISOString();
  if (source.deleted === true) {
    const gone = { deleted: true, deletedAt: now, deletedBy: state.identity.creatorId, updatedAt: now };
    if (existing !== undefined) state.store.update(production._id, existing._id, (w) => ({ ...w, ...gone }));
    return;
  }
  const groupId = promoteGroup(state, source._notificationGroupId ?? '');
  const id = existing?._id ?? state.newId();
  const copy: StoredWorkflow = {
    ...structuredClone(source),
    _id: id,
    id,
    _environmentId: production._id,
    _parentId: source._id,
    _notificationGroupId: groupId,
    steps: copySteps(state, source.steps, existing?.steps ?? []),
    createdAt: existing?.createdAt ?? now,
    updatedAt: now,
    __v: existing === undefined ? 0 : ((existing.__v as number | undefined) ?? 0) + 1,
  };
  if (existing === undefined) state.store.add(copy);
  else state.store.update(production._id, existing._id, () => copy);
}

/** The Production group promoted from the Development group `developmentId`, copied over first when missing. */
function promoteGroup(state: ServiceState, developmentId: string): string {
  const { development, production } = state.environments;
  const promoted = production.groups.find((g) => g._parentId === developmentId);
  if (promoted !== undefined) return promoted._id;
  const source = development.groups.find((g) => g._id === developmentId);
  if (source === undefined) throw notFound(`Notification group with id ${developmentId} not found`);
  const now = new Date(state.clock()).toISOString();
  const id = state.newId();
  production.groups.push({
    ...source,
    _id: id,
    _environmentId: production._id,
    _parentId: developmentId,
    createdAt: now,
    updatedAt: now,
  });
  return id;
}

/** Development steps → Production steps: each template's Production copy keeps its id from one promotion to the next. */
function copySteps(state: ServiceState, steps: readonly Json[], previous: readonly Json[]): Json[] {
  const known = new Map<unknown, string>();
  const remember = (list: readonly Json[]): void => {
    for (const step of list) {
      const template = step.template as Json | undefined;
      if (template?._parentId !== undefined) known.set(template._parentId, step._templateId as string);
      if (Array.isArray(step.variants)) remember(step.variants as Json[]);
    }
  };
  remember(previous);
  const environmentId = state.environments.production._id;
  const copy = (list: readonly Json[]): Json[] => {
    let parentId: string | null = null;
    return list.map((step) => {
      const sourceId = step._templateId as string;
      const id = known.get(sourceId) ?? state.newId();
      const template = {
        ...(step.template as Json),
        _id: id,
        id,
        _environmentId: environmentId,
        _parentId: sourceId,
      };
      const variants = Array.isArray(step.variants) ? { variants: copy(step.variants as Json[]) } : {};
      const out = { ...step, _id: id, id, _templateId: id, _parentId: parentId, template, ...variants };
      parentId = id;
      return out;
    });
  };
  return copy(steps);
}
