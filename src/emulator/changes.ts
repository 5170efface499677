import { jsonEqual } from '../json.js';

/**
 * The service's changes log: every write to a workflow (or to one of its message templates) records a change in the
 * writer's environment, and an entity has at most one pending change: later writes fold into it (same `_id`, new
 * diff, `updatedAt` moves). Step writes are child changes (`_parentId` = their workflow's change) that the list
 * hides and that are applied with it. `change` is the diff from the entity as last promoted to the entity now.
 */

export type ChangeType = 'NotificationTemplate' | 'MessageTemplate' | 'NotificationGroup';

export interface StoredChange {
  _id: string;
  _entityId: string;
  _environmentId: string;
  _organizationId: string;
  _creatorId: string;
  type: ChangeType;
  change: Record<string, unknown>;
  enabled: boolean;
  _parentId?: string;
  createdAt: string;
  updatedAt: string;
  /** The entity as this change leaves it (internal: what the next diff starts from once it is promoted). */
  item: Record<string, unknown>;
}

export interface ChangeContext {
  environmentId: string;
  organizationId: string;
  creatorId: string;
  newId: () => string;
  /** ms since the epoch */
  now: number;
}

export interface RecordInput {
  type: ChangeType;
  entityId: string;
  item: Record<string, unknown>;
  /** The workflow change a step write belongs to. */
  parentId?: string;
}

export class ChangeLog {
  #items: StoredChange[];

  constructor(initial: readonly StoredChange[] = []) {
    this.#items = initial.map((c) => structuredClone(c));
  }

  /** The id of the entity's pending change, or a fresh one when it has none (what the service's getChangeId does). */
  pendingId(environmentId: string, type: ChangeType, entityId: string, newId: () => string): string {
    return this.#pending(environmentId, type, entityId)?._id ?? newId();
  }

  /** Record a write: fold it into the entity's pending change, or open one with `id` (default: a new id). */
  record(ctx: ChangeContext, input: RecordInput, id?: string): StoredChange {
    const timestamp = new Date(ctx.now).toISOString();
    const base = this.#lastPromoted(ctx.environmentId, input.type, input.entityId)?.item ?? {};
    const change = topLevelDelta(base, input.item);
    const pending = this.#pending(ctx.environmentId, input.type, input.entityId);
    if (pending !== undefined) {
      Object.assign(pending, { change, item: structuredClone(input.item), updatedAt: timestamp });
      if (input.parentId !== undefined) pending._parentId = input.parentId;
      return structuredClone(pending);
    }
    const created: StoredChange = {
      _id: id ?? ctx.newId(),
      _entityId: input.entityId,
      _environmentId: ctx.environmentId,
      _organizationId: ctx.organizationId,
      _creatorId: ctx.creatorId,
      type: input.type,
      change,
      enabled: false,
      ...(input.parentId === undefined ? {} : { _parentId: input.parentId }),
      createdAt: timestamp,
      updatedAt: timestamp,
      item: structuredClone(input.item),
    };
    this.#items.push(created);
    return structuredClone(created);
  }

  find(environmentId: string, id: string): StoredChange | undefined {
    const found = this.#items.find((c) => c._environmentId === environmentId && c._id === id);
    return found === undefined ? undefined : structuredClone(found);
  }

  /** A change's children, oldest first. */
  children(id: string): StoredChange[] {
    return this.#items.filter((c) => c._parentId === id).map((c) => structuredClone(c));
  }

  /** Top-level changes of an environment, pending (`promoted` false) or applied, newest first. */
  topLevel(environmentId: string, promoted: boolean): StoredChange[] {
    return this.#items
      .filter(
        (c) => c._environmentId === environmentId && c._parentId === undefined && c.enabled === promoted,
      )
      .reverse()
      .map((c) => structuredClone(c));
  }

  markApplied(id: string): void {
    const found = this.#items.find((c) => c._id === id);
    if (found !== undefined) found.enabled = true;
  }

  all(): StoredChange[] {
    return this.#items.map((c) => structuredClone(c));
  }

  clear(): void {
    this.#items = [];
  }

  #pending(environmentId: string, type: ChangeType, entityId: string): StoredChange | undefined {
    return this.#items.find(
      (c) => c._environmentId === environmentId && c.type === type && c._entityId === entityId && !c.enabled,
    );
  }

  #lastPromoted(environmentId: string, type: ChangeType, entityId: string): StoredChange | undefined {
    return this.#items.findLast(
      (c) => c._environmentId === environmentId && c.type === type && c._entityId === entityId && c.enabled,
    );
  }
}

/**
 * A jsondiffpatch-style delta of the top level only: `[new]` added, `[old, new]` changed, `[old, 0, 0]` removed.
 * Nested values are compared and shown whole; nobody reads deeper than "what changed" here, so no library.
 */
export function topLevelDelta(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): Record<string, unknown> {
  const delta: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(after)) {
    if (!(key in before)) delta[key] = [value];
    else if (!jsonEqual(before[key], value)) delta[key] = [before[key], value];
  }
  for (const [key, value] of Object.entries(before)) if (!(key in after)) delta[key] = [value, 0, 0];
  return delta;
}

/** A change as the service's API shows it (without the internal snapshot). */
export function publicChange(change: StoredChange): Omit<StoredChange, 'item'> {
  const { item: _item, ...shown } = change;
  return shown;
}
