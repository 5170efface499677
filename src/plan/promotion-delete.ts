/**
 * A promoted target's workflow whose file was removed (in this target's state, no definition any more): promoting
 * the delete. On this service Production loses a workflow only when the pending change of its deleted Development
 * workflow is applied (a soft delete of the copy). wfsync promotes that delete only when the target allows `delete`,
 * Production's copy is the one wfsync promoted (its recorded version), Development's workflow is gone and no longer
 * in the Development target's state (deleted by its sync), and Development lists a pending change for it. Anything
 * else is left to a person, saying why. Pure: the lookups were made before.
 */
import type { RemoteLookup } from '../remote/index.js';
import type { StateEntry, StateFile } from '../state/types.js';
import { entryOf } from './build-plan.js';
import { commandLine, type RunContext } from './command-line.js';
import { buildProjectionDiff } from './diff.js';
import { fromRemote } from './project.js';
import { remoteVersionOf } from './remote-version.js';
import { WORKFLOW_SHAPE } from './shape.js';
import type { PlanItem } from './types.js';

/** What was read for a workflow whose file was removed, on a promoted target (api/promotion-delete.ts). */
export interface RemovedCopy {
  /** Production's copy, read with the Production key by the id this target's state records. */
  production: RemoteLookup;
  /** The Development workflow the copy was promoted from (its `_parentId`), read with the Development key. */
  development?: RemoteLookup;
  /** The `_id` of that Development workflow's pending change, when Development lists one. */
  pendingChangeId?: string;
}

/** The sentences a promoted delete ends with (promotion.ts makes them with the run's exact commands). */
export interface DeleteSteps {
  /** The target allows `delete`; sync will apply the pending delete. */
  promoteDelete: () => string;
  /** Production no longer has the copy. */
  gone: (allowed: boolean) => string;
  /** Everything holds but the target does not allow `delete`. */
  notAllowed: () => string;
  /** Development still has the workflow, or its state still records it. */
  syncSourceFirst: () => string;
  /** Development's workflow is deleted but has no pending change, and Production still has its copy. */
  noPendingChange: () => string;
  /** Production's copy is not the version wfsync promoted. */
  changedInProduction: () => string;
  /** Production's copy does not say which Development workflow it came from. */
  noParent: () => string;
  error: () => string;
}

export interface RemovedInput {
  identifier: string;
  /** This target's entry: the Production copy wfsync promoted. */
  entry: StateEntry;
  read: RemovedCopy | undefined;
  /** The Development target's state. */
  sourceState: StateFile;
  /** The promoted target allows `delete` (its `allow`, or `--allow delete`). */
  allowed: boolean;
  say: DeleteSteps;
}

export function planRemovedPromotion(input: RemovedInput): PlanItem {
  const { identifier, entry, read, say, allowed } = input;
  const base = { identifier, stateId: entry.id, stateHash: entry.hash, changes: [] };
  const personal = (next: string): PlanItem => ({
    ...base,
    action: 'orphaned',
    next: allowed ? next : `${next} ${say.notAllowed()}`,
  });
  const production = read?.production;
  if (production === undefined || production.status === 'error') {
    const why = production?.status === 'error' ? production.message : 'Production was not asked for it';
    return { ...base, action: 'error', error: `Production: ${why}`, next: say.error() };
  }
  // Gone already (a crash after the change was applied, or promoted from the dashboard): state only drops it.
  if (production.status === 'not-found')
    return { ...base, action: allowed ? 'delete' : 'orphaned', next: say.gone(allowed) };
  const copy = production.workflow;
  const version = remoteVersionOf(copy);
  const found = {
    ...base,
    name: copy.name,
    remoteId: copy._id,
    remoteVersion: version,
  };
  const withFound = (next: string): PlanItem => ({ ...personal(next), ...found });
  const parentId = typeof copy._parentId === 'string' && copy._parentId !== '' ? copy._parentId : undefined;
  if (parentId === undefined) return withFound(say.noParent());
  if (entry.remoteVersion === undefined || entry.remoteVersion !== version)
    return withFound(say.changedInProduction());
  const development = read?.development;
  if (development === undefined || development.status === 'error') {
    const why = development?.status === 'error' ? development.message : 'Development was not asked for it';
    return { ...found, action: 'error', error: `Development: ${why}`, next: say.error() };
  }
  const stillSynced = entryOf(input.sourceState, identifier)?.id === parentId;
  if (development.status === 'found' || stillSynced) return withFound(say.syncSourceFirst());
  if (read?.pendingChangeId === undefined) return withFound(say.noPendingChange());
  if (!allowed) return { ...found, action: 'orphaned', next: say.notAllowed() };
  return {
    ...found,
    action: 'delete',
    sourceId: parentId,
    diff: buildProjectionDiff({
      service: fromRemote(copy, WORKFLOW_SHAPE),
      file: undefined,
      serviceName: copy.name,
      fileName: '/dev/null',
    }),
    next: say.promoteDelete(),
  };
}

const code = (text: string): string => `\`${text}\``;

/** The sentences of a workflow whose file was removed (plan/promotion-delete.ts). */
export function buildDeleteSteps(input: {
  target: { name: string };
  source: string;
  identifier: string;
  run?: RunContext;
  /** The exact `sync` commands of this run and of its source (code spans). */
  commands: { syncSource: string; sync: string };
}): DeleteSteps {
  const { source, identifier } = input;
  const { syncSource, sync } = input.commands;
  const target = input.target.name;
  const removed = 'no definition has this identifier any more';
  const forget = (): string => code(commandLine(input.run, 'state forget', { args: [identifier] }));
  // Production is view-only: its copy goes only when a delete is promoted to it.
  const byHand = (): string =>
    "Production's copy goes only when a delete of its workflow is promoted (the dashboard's Changes page); once " +
    `it is gone, ${sync} drops it from state where \`delete\` is allowed, or run ${forget()} to stop tracking it.`;
  return {
    promoteDelete: () =>
      `${removed}, and ${source} deleted its workflow: ${sync} will apply that pending delete in ${source}, ` +
      "deleting Production's copy, and drop it from state.",
    gone: (allowed) =>
      allowed
        ? `${removed} and Production no longer has it: ${sync} will drop it from state (nothing is sent).`
        : `${removed} and Production no longer has it: run ${forget()}.`,
    notAllowed: () =>
      `Target \`${target}\` does not allow sync to delete: add \`delete\` to \`targets.${target}.allow\` in ` +
      `wfsync.config.yaml (or add \`--allow delete\` to the command) for sync to promote ${source}'s delete.`,
    syncSourceFirst: () =>
      `${removed}, but ${source} still has its workflow (or its state still records it): delete it there first ` +
      `(${syncSource}, with \`delete\` allowed on ${code(source)}), then promote the delete.`,
    noPendingChange: () =>
      `${removed} and ${source}'s workflow is deleted, but ${source} has no pending change for it (applied or ` +
      `discarded already?) while Production still has its copy: a person decides. ${byHand()}`,
    changedInProduction: () =>
      `${removed}, but Production's copy is not the version wfsync promoted (promoted from the dashboard, or ` +
      `edited with a Production key?), so sync will not delete it: a person decides. ${byHand()}`,
    noParent: () =>
      `${removed}, but Production's copy names no ${source} workflow it was promoted from, so no change wfsync ` +
      `applies can delete it: a person decides. ${byHand()}`,
    error: () => 'nothing will be deleted for it: run the plan again once the service answers.',
  };
}
