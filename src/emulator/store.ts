import { OBJECT_ID } from '../state/check.js';
import type { StoredWorkflow } from './types.js';

/**
 * Workflows of every environment, oldest first. Lookups follow the service: a canonical 24-hex lowercase id is
 * looked up as `_id`, anything else as a trigger identifier; with duplicate identifiers the oldest wins.
 * A deleted workflow is kept (soft delete: `deleted: true`) but no lookup, list or identifier check sees it, as the
 * service's soft-delete plugin hides it; promotion alone reads it (findIncludingDeleted).
 * Documents are copied in and out so callers can never change what is stored.
 */
export class WorkflowStore {
  #items: StoredWorkflow[] = [];

  constructor(initial: readonly StoredWorkflow[] = []) {
    this.#items = initial.map((w) => structuredClone(w));
  }

  add(workflow: StoredWorkflow): void {
    this.#items.push(structuredClone(workflow));
  }

  find(environmentId: string, idOrIdentifier: string): StoredWorkflow | undefined {
    const inEnvironment = this.#live(environmentId);
    const found = OBJECT_ID.test(idOrIdentifier)
      ? inEnvironment.find((w) => w._id === idOrIdentifier)
      : inEnvironment.find((w) => w.triggers.some((t) => t.identifier === idOrIdentifier));
    return found === undefined ? undefined : structuredClone(found);
  }

  /** By `_id` only, deleted or not (what a promotion reads of the Development copy). */
  findIncludingDeleted(environmentId: string, id: string): StoredWorkflow | undefined {
    const found = this.#items.find((w) => w._environmentId === environmentId && w._id === id);
    return found === undefined ? undefined : structuredClone(found);
  }

  /** The live copy in `environmentId` promoted from the workflow `parentId` (its `_parentId`). */
  findByParent(environmentId: string, parentId: string): StoredWorkflow | undefined {
    const found = this.#live(environmentId).find((w) => w._parentId === parentId);
    return found === undefined ? undefined : structuredClone(found);
  }

  /**
   * Change a live stored workflow in place; the same lookup rules as find. Returns the stored result, or undefined
   * when there is no such workflow.
   */
  update(
    environmentId: string,
    idOrIdentifier: string,
    change: (workflow: StoredWorkflow) => StoredWorkflow,
  ): StoredWorkflow | undefined {
    const current = this.find(environmentId, idOrIdentifier);
    if (current === undefined) return undefined;
    const index = this.#items.findIndex((w) => w._id === current._id);
    const next = structuredClone(change(current));
    this.#items[index] = next;
    return structuredClone(next);
  }

  /** Whether a live workflow other than `exceptId` has this trigger identifier. */
  hasIdentifier(environmentId: string, identifier: string, exceptId?: string): boolean {
    return this.#live(environmentId).some(
      (w) => w._id !== exceptId && w.triggers.some((t) => t.identifier === identifier),
    );
  }

  /** Live workflows, oldest first; of one environment when given. */
  list(environmentId?: string): StoredWorkflow[] {
    return this.#items
      .filter(
        (w) => w.deleted !== true && (environmentId === undefined || w._environmentId === environmentId),
      )
      .map((w) => structuredClone(w));
  }

  /** Every document, deleted ones included (what the data file keeps). */
  all(): StoredWorkflow[] {
    return this.#items.map((w) => structuredClone(w));
  }

  clear(): void {
    this.#items = [];
  }

  #live(environmentId: string): StoredWorkflow[] {
    return this.#items.filter((w) => w._environmentId === environmentId && w.deleted !== true);
  }
}
