import { OBJECT_ID } from '../state/check.js';
import type { StoredWorkflow } from './types.js';

/**
 * Workflows of every environment, oldest first. Lookups follow the service: a canonical 24-hex lowercase id is
 * looked up as `_id`, anything else as a trigger identifier; with duplicate identifiers the oldest wins.
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
    const inEnvironment = this.#items.filter((w) => w._environmentId === environmentId);
    const found = OBJECT_ID.test(idOrIdentifier)
      ? inEnvironment.find((w) => w._id === idOrIdentifier)
      : inEnvironment.find((w) => w.triggers.some((t) => t.identifier === idOrIdentifier));
    return found === undefined ? undefined : structuredClone(found);
  }

  /**
   * Change a stored workflow in place (a test's stand-in for an edit in the dashboard); the same lookup rules as
   * find. Returns the stored result, or undefined when there is no such workflow.
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

  hasIdentifier(environmentId: string, identifier: string): boolean {
    return this.#items.some(
      (w) => w._environmentId === environmentId && w.triggers.some((t) => t.identifier === identifier),
    );
  }

  list(environmentId?: string): StoredWorkflow[] {
    return this.#items
      .filter((w) => environmentId === undefined || w._environmentId === environmentId)
      .map((w) => structuredClone(w));
  }

  clear(): void {
    this.#items = [];
  }
}
