/**
 * (desired definitions, state, what the service returned) → the Plan `wfsync plan` prints and `wfsync sync`
 * applies. Pure: the lookups were made before; nothing here asks the service or reads a clock.
 */
import type { WriteAction } from '../generated/config.js';
import type { WorkflowResponse } from '../generated/workflow-response.js';
import type { RemoteLookup, RemoteObservation } from '../remote/index.js';
import { isPendingUpdate, type PendingUpdate, type StateEntry, type StateFile } from '../state/types.js';
import { compareText } from '../text.js';
import { SERVER_MANAGED_FIELDS } from '../validate/server-managed.js';
import { PLAN_ACTION_NAMES, PLAN_ACTIONS } from './actions.js';
import { atBaseMatches, classifyByBase, classifyByState, interruptedUpdate, type Known } from './classify.js';
import type { RunContext } from './command-line.js';
import { compareWorkflow } from './compare.js';
import { buildNextSteps, duplicateNote, type NextSteps } from './next-steps.js';
import { remoteVersionOf } from './remote-version.js';
import type { BaseVersion, DesiredWorkflow, Plan, PlanBase, PlanItem, PlanSummary } from './types.js';
import { buildUpdate } from './update-body.js';

/**
 * Fields the service sets that are never compared (shown with `--show-ignored`): the server-managed fields, except
 * the three stored names of declarable fields, which are compared under their definition names when declared
 * (`_notificationGroupId` as `notificationGroupId`, `_feedId`/`_layoutId` as `template.feedId`/`template.layoutId`).
 * Comparing reads only declared fields, so these and any field a newer server adds never count as drift.
 */
const COMPARED_UNDER_ANOTHER_NAME = new Set<string>(['_notificationGroupId', '_feedId', '_layoutId']);

export const IGNORED_FIELDS: readonly string[] = Object.freeze(
  SERVER_MANAGED_FIELDS.filter((field) => !COMPARED_UNDER_ANOTHER_NAME.has(field)),
);

export interface PlanInput {
  target: { name: string; baseUrl: string };
  desired: DesiredWorkflow[];
  state: StateFile;
  /** By identifier: every desired identifier and every identifier state records. */
  observations: ReadonlyMap<string, RemoteObservation>;
  /**
   * `plan --base`: the merge-base commit, and each definition as it was there, by identifier (an identifier not in
   * `versions` had no definition there). Without state, it tells which side changed.
   */
  base?: PlanBase & { versions: ReadonlyMap<string, BaseVersion> };
  /** What the commands each item's `next` suggests must repeat of this run (its target, config, state file). */
  run?: RunContext;
  /**
   * What sync may write on the target (ResolvedTarget.allow; default `create` only). Without `update`, an edited file
   * is `changed-locally`. With `delete`, a workflow whose file was removed becomes `delete` when the service still
   * holds the version wfsync knew; the base's removed definitions (with `base`) then need an observation by identifier.
   */
  allow?: ReadonlySet<WriteAction>;
}

/** How a definition's base version is looked up: undefined without `--base`. */
type BaseOf = (identifier: string) => BaseVersion | undefined;

export function buildPlan(input: PlanInput): Plan {
  const { desired, state, observations, base } = input;
  const say = buildNextSteps(input.run);
  const mayUpdate = input.allow?.has('update') ?? false;
  const baseOf: BaseOf = (identifier) =>
    base === undefined ? undefined : (base.versions.get(identifier) ?? { status: 'absent' });
  const filesById = new Map<string, string[]>();
  for (const d of desired) filesById.set(d.identifier, [...(filesById.get(d.identifier) ?? []), d.file]);
  const planned = [...desired]
    .sort((a, b) => compareText(a.identifier, b.identifier) || compareText(a.file, b.file))
    .map((d) => {
      const files = filesById.get(d.identifier)!;
      if (files.length > 1) return duplicateItem(d, files);
      const known: Known = {
        entry: entryOf(state, d.identifier),
        pending: pendingUpdateOf(state, d.identifier),
        mayUpdate,
      };
      return planDesired(d, known, observations.get(d.identifier), baseOf, say);
    });
  const removal: Removal = { allowed: input.allow?.has('delete') === true, baseOf, say };
  const orphans = Object.keys(state.workflows)
    .filter((identifier) => !filesById.has(identifier))
    .sort(compareText)
    .map((identifier) =>
      planOrphan(identifier, entryOf(state, identifier)!, observations.get(identifier), removal),
    );
  const removed = removal.allowed
    ? removedAtBase(input, filesById).map((identifier) =>
        planRemovedAtBase(identifier, observations.get(identifier), removal),
      )
    : [];
  const items = [...planned, ...orphans, ...removed.filter((item) => item !== undefined)];
  return {
    version: 1,
    target: { name: input.target.name, baseUrl: input.target.baseUrl },
    items,
    summary: summarize(items),
    ignoredFields: [...IGNORED_FIELDS],
    ...(base === undefined ? {} : { base: { ref: base.ref, commit: base.commit } }),
  };
}

/** Own properties only: an identifier such as `constructor` must not find Object.prototype's. */
export function entryOf(state: StateFile, identifier: string): StateEntry | undefined {
  return Object.hasOwn(state.workflows, identifier) ? state.workflows[identifier] : undefined;
}

/** An update's journal entry: an earlier sync started this update and did not record it. */
function pendingUpdateOf(state: StateFile, identifier: string): PendingUpdate | undefined {
  const pending = Object.hasOwn(state.pending, identifier) ? state.pending[identifier] : undefined;
  return pending !== undefined && isPendingUpdate(pending) ? pending : undefined;
}

/** What every item of a definition holds, whatever its action. */
type ItemBase = Omit<PlanItem, 'action' | 'next'> & { file: string };

/** The fields of an item that a definition and its state entry give, whatever the action. */
export function itemBaseOf(desired: DesiredWorkflow, entry: StateEntry | undefined): ItemBase {
  return {
    identifier: desired.identifier,
    file: desired.file,
    name: desired.definition.name,
    desiredHash: desired.hash,
    ...(entry === undefined ? {} : { stateId: entry.id, stateHash: entry.hash }),
    changes: [],
  };
}

function planDesired(
  desired: DesiredWorkflow,
  known: Known,
  observation: RemoteObservation | undefined,
  baseOf: BaseOf,
  say: NextSteps,
): PlanItem {
  const { entry } = known;
  const atBase = () => baseOf(desired.identifier);
  const base = itemBaseOf(desired, entry);
  const byId = observation?.byId;
  const byIdentifier = observation?.byIdentifier;
  if (entry !== undefined) {
    if (byId?.status === 'found')
      return compared(base, desired, byId.workflow, { ...known, atBase: atBase() }, say);
    if (byId?.status !== 'not-found') return failed(base, byId, 'by its recorded id', say);
    // The recorded id is gone: a workflow with the identifier may still exist (recreated in the dashboard).
    if (byIdentifier?.status === 'found') {
      return compared(
        base,
        desired,
        byIdentifier.workflow,
        { ...known, entry: undefined, atBase: atBase() },
        say,
      );
    }
    // Missing-remotely is a claim about the service: only a 404 on both lookups makes it.
    if (byIdentifier?.status !== 'not-found') return failed(base, byIdentifier, 'by identifier', say);
    return {
      ...base,
      action: 'missing-remotely',
      next: say.missingRemotely(desired.identifier, entry.id, desired.file),
    };
  }
  if (byIdentifier?.status === 'found') {
    return compared(base, desired, byIdentifier.workflow, { ...known, atBase: atBase() }, say);
  }
  if (byIdentifier?.status !== 'not-found') return failed(base, byIdentifier, 'by identifier', say);
  return { ...base, action: 'create', body: desired.body, next: say.create() };
}

/**
 * A workflow found on the service, and what tells who changed it when it differs: the hash state recorded when it was
 * created (`entry`, found by the recorded id), else the definition at the base commit (`atBase`, with `--base`),
 * else nothing (conflict, saying what cannot be known). Changed in the file only, it is an update when the target
 * allows one and the service's update can reach the file (update-body.ts).
 */
function compared(
  base: ItemBase,
  desired: DesiredWorkflow,
  workflow: WorkflowResponse,
  known: Known & { atBase: BaseVersion | undefined },
  say: NextSteps,
): PlanItem {
  const { changes, diff } = compareWorkflow(desired, workflow);
  const version = remoteVersionOf(workflow);
  const found = { ...base, remoteId: workflow._id, remoteVersion: version, changes };
  const { entry } = known;
  if (changes.length === 0) {
    let next = say.inSyncAdopt();
    if (entry !== undefined) next = entry.hash === desired.hash ? say.inSync() : say.inSyncNewHash();
    else if (base.stateId !== undefined) next = say.inSyncReplaced(base.stateId, workflow._id);
    return { ...found, action: 'in-sync', next };
  }
  const classified =
    interruptedUpdate(desired, workflow, changes, known, say) ??
    (entry === undefined
      ? classifyByBase(desired, workflow, known.atBase, say)
      : classifyByState(
          desired,
          entry,
          { version, baseMatches: () => atBaseMatches(known.atBase, workflow) },
          say,
        ));
  const note = duplicateNote(desired.identifier, changes);
  const noted = (next: string) => (note === undefined ? next : `${note} ${next}`);
  const { action, attribution } = classified;
  // Where updates are not allowed, why one could not be made anyway is beside the point: today's advice.
  const next =
    !known.mayUpdate && action === 'changed-locally' && !classified.updatable
      ? say.changedLocally(attribution === 'base' ? 'base' : 'state')
      : classified.next;
  if (!classified.updatable) return { ...found, action, attribution, diff, next: noted(next) };
  if (!known.mayUpdate) {
    const since = attribution === 'base' ? 'base' : 'state';
    return { ...found, action, attribution, diff, next: noted(say.changedLocallyNotAllowed(since)) };
  }
  const built = buildUpdate(desired, workflow, changes);
  if ('blocked' in built)
    return { ...found, action, attribution, diff, next: noted(say.updateBlocked(built.blocked)) };
  const { notes, ...update } = built.update;
  return {
    ...found,
    action: 'update',
    attribution,
    diff,
    ...update,
    ...(notes.length === 0 ? {} : { notes }),
    next: noted(say.update()),
  };
}

function failed(base: ItemBase, lookup: RemoteLookup | undefined, how: string, say: NextSteps): PlanItem {
  const error =
    lookup?.status === 'error'
      ? lookup.message
      : `the service was not asked for this workflow ${how} (a wfsync bug: please report it)`;
  return { ...base, action: 'error', error, next: say.error() };
}

/** Two or more files declare one identifier: an error item for each, naming them all (any target's plan). */
export function duplicateItem(desired: DesiredWorkflow, files: readonly string[]): PlanItem {
  return {
    identifier: desired.identifier,
    action: 'error',
    file: desired.file,
    name: desired.definition.name,
    desiredHash: desired.hash,
    changes: [],
    error: `${files.length} definitions declare identifier ${desired.identifier}: ${files.join(', ')}`,
    next: 'rename all but one of these workflows (name and identifier): one identifier cannot name two workflows.',
  };
}

/** How a workflow whose file was removed is decided: may sync delete it, and what the base held. */
interface Removal {
  allowed: boolean;
  baseOf: BaseOf;
  say: NextSteps;
}

/**
 * In state, no definition any more. Deleted only when the target allows it and the service still holds the version
 * wfsync recorded (or, for an entry without one, the base's definition): anything else is a person's decision.
 */
function planOrphan(
  identifier: string,
  entry: StateEntry,
  observation: RemoteObservation | undefined,
  removal: Removal,
): PlanItem {
  const { say } = removal;
  const base: PlanItem = {
    identifier,
    action: 'orphaned',
    stateId: entry.id,
    stateHash: entry.hash,
    changes: [],
    next: removal.allowed ? say.orphaned(identifier) : say.orphanedNotAllowed(identifier),
  };
  const byId = observation?.byId;
  if (byId?.status === 'not-found') {
    // Gone already (a crash after the DELETE, or a dashboard delete): with delete allowed, state just drops it.
    if (removal.allowed) return { ...base, action: 'delete', next: say.deleteGone() };
    return { ...base, next: say.orphanedGone(identifier) };
  }
  if (byId?.status !== 'found') return base;
  const { workflow } = byId;
  const version = remoteVersionOf(workflow);
  const found = { ...base, name: workflow.name, remoteId: workflow._id, remoteVersion: version };
  if (!removal.allowed) return found;
  const atBase = removal.baseOf(identifier);
  const unchanged =
    entry.remoteVersion !== undefined
      ? entry.remoteVersion === version
      : atBase?.status === 'present' && compareWorkflow(atBase.desired, workflow).changes.length === 0;
  if (unchanged) return { ...found, action: 'delete', next: say.delete('state') };
  if (entry.remoteVersion === undefined) return { ...found, next: say.orphanedUnknown(identifier) };
  return { ...found, next: say.orphanedChanged(identifier) };
}

/**
 * `--base` with delete allowed: the identifiers a definition had at the base whose file is gone and that state does
 * not record (state's own are planOrphan's). The caller looked each up by identifier.
 */
export function removedAtBase(
  input: Pick<PlanInput, 'base' | 'state'>,
  files: ReadonlyMap<string, unknown>,
): string[] {
  if (input.base === undefined) return [];
  return [...input.base.versions]
    .filter(([identifier, version]) => version.status === 'present' && !files.has(identifier))
    .map(([identifier]) => identifier)
    .filter((identifier) => entryOf(input.state, identifier) === undefined)
    .sort(compareText);
}

/**
 * A definition of the base whose file this change removes, unknown to state: deleted when the service still holds
 * the base's version (compared as a file would be); gone already, nothing to do; changed since, a person decides.
 */
function planRemovedAtBase(
  identifier: string,
  observation: RemoteObservation | undefined,
  removal: Removal,
): PlanItem | undefined {
  const { say } = removal;
  const atBase = removal.baseOf(identifier);
  const lookup = observation?.byIdentifier;
  if (atBase?.status !== 'present' || lookup?.status === 'not-found') return undefined;
  // The file as the base had it: the path this change removes.
  const item: ItemBase = {
    identifier,
    file: atBase.desired.file,
    name: atBase.desired.definition.name,
    changes: [],
  };
  if (lookup?.status !== 'found') return failed(item, lookup, 'by identifier', say);
  const { workflow } = lookup;
  const found = { ...item, remoteId: workflow._id, remoteVersion: remoteVersionOf(workflow) };
  if (compareWorkflow(atBase.desired, workflow).changes.length === 0)
    return { ...found, action: 'delete', next: say.delete('base') };
  return { ...found, action: 'orphaned', next: say.orphanedChangedSinceBase(identifier) };
}

export function summarize(items: readonly PlanItem[]): PlanSummary {
  // The table lists every action once, in the order the summary prints.
  const summary = Object.fromEntries(
    PLAN_ACTION_NAMES.map((a) => [PLAN_ACTIONS[a].summaryKey, 0]),
  ) as PlanSummary;
  for (const item of items) summary[PLAN_ACTIONS[item.action].summaryKey]++;
  return summary;
}
