/**
 * The plan of a promoted target (`promoteFrom`, Production): (desired, Development as read with its own key and
 * state, Production's copies as read with this target's key) → the Plan. On this service Production receives a
 * workflow only when its pending change in Development is applied, and applying ships Development's workflow as it
 * is, with every edit folded into that change: so a workflow is promoted only when Development holds exactly the
 * reviewed file. Pure: the lookups were made before; nothing here asks the service or reads a clock.
 */
import type { WriteAction } from '../generated/config.js';
import type { RemoteLookup, RemoteObservation } from '../remote/index.js';
import type { StateEntry, StateFile } from '../state/types.js';
import { compareText } from '../text.js';
import { duplicateItem, entryOf, IGNORED_FIELDS, itemBaseOf, summarize } from './build-plan.js';
import { commandLine, type RunContext, sourceRunOf } from './command-line.js';
import { compareWorkflow } from './compare.js';
import { buildDeleteSteps, planRemovedPromotion, type RemovedCopy } from './promotion-delete.js';
import { remoteVersionOf } from './remote-version.js';
import type { DesiredWorkflow, Plan, PlanItem } from './types.js';

export interface PromotionInput {
  target: { name: string; baseUrl: string };
  /** The Development target's name (`promoteFrom`), for the commands the plan suggests. */
  source: string;
  desired: DesiredWorkflow[];
  /** This target's state: the Production copies recorded by earlier promotions. */
  state: StateFile;
  /** The Development target's state: what wfsync synced there, and at which version. */
  sourceState: StateFile;
  /** Development, read with the Development key, by identifier. */
  development: ReadonlyMap<string, RemoteObservation>;
  /** Production's copy of each workflow Development holds (found by its `_parentId`), by identifier. */
  production: ReadonlyMap<string, RemoteLookup>;
  /** Development notification group `_id` → its Production copy's (`_parentId`): what a promoted workflow points at. */
  productionGroups: ReadonlyMap<string, string>;
  /** What was read for each workflow of this target's state whose file was removed, by identifier. */
  removed?: ReadonlyMap<string, RemovedCopy>;
  /** What sync may do on this target (ResolvedTarget.allow): with `delete`, removed files' deletes are promoted. */
  allow?: ReadonlySet<WriteAction>;
  run?: RunContext;
}

const code = (text: string): string => `\`${text}\``;

export function buildPromotionPlan(input: PromotionInput): Plan {
  const say = promotionSteps(input);
  const filesById = new Map<string, string[]>();
  for (const d of input.desired)
    filesById.set(d.identifier, [...(filesById.get(d.identifier) ?? []), d.file]);
  const planned = [...input.desired]
    .sort((a, b) => compareText(a.identifier, b.identifier) || compareText(a.file, b.file))
    .map((d) => {
      const files = filesById.get(d.identifier)!;
      return files.length > 1 ? duplicateItem(d, files) : planOne(input, d, say);
    });
  const allowed = input.allow?.has('delete') === true;
  const orphans = Object.keys(input.state.workflows)
    .filter((identifier) => !filesById.has(identifier))
    .sort(compareText)
    .map((identifier) =>
      planRemovedPromotion({
        identifier,
        entry: entryOf(input.state, identifier)!,
        read: input.removed?.get(identifier),
        sourceState: input.sourceState,
        allowed,
        say: say.deletes(identifier),
      }),
    );
  const items = [...planned, ...orphans];
  return {
    version: 1,
    target: { ...input.target },
    items,
    summary: summarize(items),
    ignoredFields: [...IGNORED_FIELDS],
  };
}

type Steps = ReturnType<typeof promotionSteps>;

function planOne(input: PromotionInput, desired: DesiredWorkflow, say: Steps): PlanItem {
  const { identifier } = desired;
  const entry = entryOf(input.state, identifier);
  const sourceEntry = entryOf(input.sourceState, identifier);
  const base = itemBaseOf(desired, entry);
  const observed = input.development.get(identifier);
  const lookup =
    observed?.byId?.status === 'found' || observed?.byIdentifier === undefined
      ? observed?.byId
      : observed.byIdentifier;
  if (lookup === undefined || lookup.status === 'error') {
    const error = lookup?.status === 'error' ? lookup.message : 'Development was not asked for this workflow';
    return { ...base, action: 'error', error: `Development: ${error}`, next: say.error() };
  }
  if (lookup.status === 'not-found') return { ...base, action: 'missing-remotely', next: say.missing() };
  const source = lookup.workflow;
  const sourceVersion = remoteVersionOf(source);
  const inDevelopment = compareWorkflow(desired, source);
  if (inDevelopment.changes.length > 0) {
    const edited =
      sourceEntry !== undefined && sourceEntry.id === source._id && sourceEntry.hash === desired.hash;
    return {
      ...base,
      action: edited ? 'drifted' : 'changed-locally',
      attribution: 'state',
      changes: inDevelopment.changes,
      diff: inDevelopment.diff,
      next: edited ? say.editedInDevelopment() : say.syncFirst(),
    };
  }
  if (editedSinceSync(sourceEntry, source._id, sourceVersion)) {
    return { ...base, action: 'drifted', attribution: 'state', next: say.editedUnseen(sourceEntry!) };
  }
  const copy = input.production.get(identifier);
  if (copy?.status === 'error') {
    return { ...base, action: 'error', error: `Production: ${copy.message}`, next: say.error() };
  }
  const promote = {
    ...base,
    action: 'promote' as const,
    sourceId: source._id,
    sourceVersion,
    ...layoutsOf(desired),
  };
  if (copy === undefined || copy.status === 'not-found')
    return { ...promote, next: say.promote(desired, false) };
  const inProduction = compareWorkflow(forProduction(desired, input.productionGroups), copy.workflow);
  const found = { remoteId: copy.workflow._id, remoteVersion: remoteVersionOf(copy.workflow) };
  if (inProduction.changes.length === 0) {
    const recorded = entry !== undefined && entry.id === copy.workflow._id && entry.hash === desired.hash;
    return { ...base, ...found, action: 'in-sync', next: recorded ? say.inSync() : say.record() };
  }
  return {
    ...promote,
    ...found,
    changes: inProduction.changes,
    diff: inProduction.diff,
    next: say.promote(desired, true),
  };
}

/** Development's workflow changed since wfsync synced it, though every field the file declares still matches. */
function editedSinceSync(entry: StateEntry | undefined, id: string, version: string): boolean {
  return entry?.remoteVersion !== undefined && entry.id === id && entry.remoteVersion !== version;
}

/**
 * The file as Production's copy holds it: the service points a promoted workflow at Production's copy of its group.
 * A group Production does not have yet is promoted with the workflow: the Development id then stays (a difference).
 */
export function forProduction(
  desired: DesiredWorkflow,
  groups: ReadonlyMap<string, string>,
): DesiredWorkflow {
  const group = groups.get(desired.body.notificationGroupId);
  if (group === undefined) return desired;
  return { ...desired, body: { ...desired.body, notificationGroupId: group } };
}

/** The layouts the file's steps (and their variants) name: their pending changes must be applied first. */
function layoutsOf(desired: DesiredWorkflow): { layoutIds?: string[] } {
  const found = new Set<string>();
  const visit = (steps: unknown): void => {
    if (!Array.isArray(steps)) return;
    for (const step of steps) {
      if (typeof step !== 'object' || step === null) continue;
      const { template, variants } = step as { template?: { layoutId?: unknown }; variants?: unknown };
      if (typeof template?.layoutId === 'string' && template.layoutId !== '') found.add(template.layoutId);
      visit(variants);
    }
  };
  visit(desired.body.steps);
  return found.size === 0 ? {} : { layoutIds: [...found].sort(compareText) };
}

/** The sentences a promotion plan ends its items with, naming the exact commands of this run and its source. */
function promotionSteps(input: PromotionInput) {
  const { run, source } = input;
  const syncSource = code(commandLine(sourceRunOf(run, source), 'sync'));
  const sync = code(commandLine(run, 'sync'));
  return {
    promote: (desired: DesiredWorkflow, replaces: boolean): string =>
      `${sync} will apply its pending change in ${source}, ${replaces ? "replacing Production's copy" : 'creating it in Production'}` +
      (desired.body.active === true
        ? '.'
        : ': it arrives inactive (the file does not set `active: true`), as in Development.'),
    inSync: (): string => 'nothing to do.',
    record: (): string => `Production already holds the file's version: ${sync} will record it in state.`,
    syncFirst: (): string =>
      `${source} does not hold the file's version yet: sync it first (${syncSource}), then promote; the diff shows ${source} → file.`,
    editedInDevelopment: (): string =>
      `the file has not changed since ${source} was synced, but ${source}'s workflow differs (edited in the dashboard?): ` +
      'promoting would ship an unreviewed edit, so it is not promoted; bring the edit into the file (or undo it in the ' +
      `dashboard), sync ${source}, then promote.`,
    editedUnseen: (entry: StateEntry): string =>
      `${source}'s workflow changed since wfsync synced it (version ${entry.remoteVersion}), in fields the file does not declare: ` +
      `promoting would ship an unreviewed edit, so it is not promoted; undo the edit in the dashboard or run ${syncSource} to accept the workflow as it is now, then promote.`,
    missing: (): string =>
      `${source} does not have this workflow: sync it first (${syncSource}), then promote.`,
    error: (): string => 'nothing will be promoted for it: run the plan again once the service answers.',
    deletes: (identifier: string) =>
      buildDeleteSteps({ ...input, identifier, commands: { syncSource, sync } }),
  };
}
