/**
 * Who changed a workflow that differs from its file, told by state, by the git base, or by an interrupted update's
 * journal entry; and whether it is an update (changed in the file only). Pure.
 */
import type { WorkflowResponse } from '../generated/workflow-response.js';
import type { PendingUpdate, StateEntry } from '../state/types.js';
import { compareWorkflow } from './compare.js';
import type { NextSteps } from './next-steps.js';
import { remoteVersionOf } from './remote-version.js';
import type { BaseVersion, DesiredWorkflow, DifferingAction, FieldChange, PlanAttribution } from './types.js';

/** What state says of a definition, and whether the target allows updating it. */
export interface Known {
  entry: StateEntry | undefined;
  pending: PendingUpdate | undefined;
  mayUpdate: boolean;
}

export interface Classified {
  action: DifferingAction;
  attribution: PlanAttribution;
  next: string;
  /** Changed in the file only, the service still holding the version before: an update, where allowed. */
  updatable?: true;
}

/** The base's definition is what the service holds. */
export function atBaseMatches(atBase: BaseVersion | undefined, workflow: WorkflowResponse): boolean {
  return atBase?.status === 'present' && compareWorkflow(atBase.desired, workflow).changes.length === 0;
}

/**
 * An earlier sync journaled an update of this workflow and did not record it. When the service no longer holds the
 * version before it, the PUT landed (or someone else wrote): the update is finished when only what its own next step
 * sets (`active`) differs, else a person compares. Undefined when there is no such entry or the PUT never landed.
 */
export function interruptedUpdate(
  desired: DesiredWorkflow,
  workflow: WorkflowResponse,
  changes: readonly FieldChange[],
  known: Known & { atBase: BaseVersion | undefined },
  say: NextSteps,
): Classified | undefined {
  const { pending, entry } = known;
  if (pending === undefined || pending.id !== workflow._id) return undefined;
  const before =
    entry?.remoteVersion !== undefined
      ? entry.remoteVersion === remoteVersionOf(workflow)
      : atBaseMatches(known.atBase, workflow);
  if (before) return undefined;
  const attribution: PlanAttribution = entry === undefined ? 'base' : 'state';
  if (pending.hash === desired.hash && changes.every((c) => c.pointer === '/active'))
    return { action: 'changed-locally', attribution, next: say.update(), updatable: true };
  return { action: 'changed-locally', attribution, next: say.interruptedUpdate() };
}

/**
 * State recorded the hash of the body it created: the file is unchanged since (drifted) or not. Changed, it is
 * updatable while the service still holds the version state recorded (an entry without one: while it holds the
 * base's definition, with `--base`); else a person looks.
 */
export function classifyByState(
  desired: DesiredWorkflow,
  entry: StateEntry,
  service: { version: string; baseMatches: () => boolean },
  say: NextSteps,
): Classified {
  if (entry.hash === desired.hash)
    return { action: 'drifted', attribution: 'state', next: say.drifted(desired.identifier, 'state') };
  const changed = { action: 'changed-locally', attribution: 'state' } as const;
  const unchanged =
    entry.remoteVersion === undefined ? service.baseMatches() : entry.remoteVersion === service.version;
  if (unchanged) return { ...changed, next: say.changedLocally('state'), updatable: true };
  if (entry.remoteVersion === undefined) return { ...changed, next: say.changedLocallyNoVersion() };
  return { ...changed, next: say.changedBoth() };
}

/**
 * Without state: the base's definition tells. New since the base → conflict (the identifier is taken); unchanged
 * since the base (same body hash, so a comment-only edit counts as unchanged) → drifted; changed, and the service
 * still matches the base's version → changed locally (updatable); matches neither → conflict. No base → conflict,
 * unknown.
 */
export function classifyByBase(
  desired: DesiredWorkflow,
  workflow: WorkflowResponse,
  atBase: BaseVersion | undefined,
  say: NextSteps,
): Classified {
  const { identifier } = desired;
  if (atBase === undefined || atBase.status === 'unreadable') {
    const why =
      atBase === undefined ? undefined : `its definition at the base could not be read: ${atBase.reason}`;
    return { action: 'conflict', attribution: 'unknown', next: say.conflictUnknown(identifier, why) };
  }
  if (atBase.status === 'absent')
    return { action: 'conflict', attribution: 'base', next: say.conflictNew(identifier) };
  if (atBase.desired.hash === desired.hash)
    return { action: 'drifted', attribution: 'base', next: say.drifted(identifier, 'base') };
  if (compareWorkflow(atBase.desired, workflow).changes.length === 0)
    return {
      action: 'changed-locally',
      attribution: 'base',
      next: say.changedLocally('base'),
      updatable: true,
    };
  return { action: 'conflict', attribution: 'base', next: say.conflictBoth() };
}
