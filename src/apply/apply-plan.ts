import pLimit from 'p-limit';
import { messageOf } from '../errors.js';
import { PLAN_ACTIONS, planActionMeta } from '../plan/actions.js';
import { entryOf } from '../plan/build-plan.js';
import { commandLine, type RunContext, sourceRunOf } from '../plan/command-line.js';
import type {
  CreateItem,
  DeleteItem,
  DesiredWorkflow,
  Plan,
  PlanItem,
  PlanItemFields,
  UpdateItem,
} from '../plan/types.js';
import { guarded, type ServiceClient } from '../remote/index.js';
import { isPendingUpdate, type StateFile } from '../state/types.js';
import {
  buildSyncAdvice,
  failedOutcome,
  type ItemOutcome,
  type StopReason,
  skippedMessage,
} from './create-failure.js';
import { type CreateContext, createOne } from './create-one.js';
import { deleteOne } from './delete-one.js';
import type { ApplyEvent } from './events.js';
import {
  buildSyncStatus,
  isSyncOutcome,
  type SyncItemResult,
  type SyncResult,
  summarizeOutcomes,
  withPlanDetails,
} from './result.js';
import type { ApplyStore } from './store.js';
import { updateOne } from './update-one.js';

export interface ApplyPlanInput {
  plan: Plan;
  desired: readonly DesiredWorkflow[];
  client: ServiceClient;
  store: ApplyStore;
  concurrency: number;
  onEvent?: (event: ApplyEvent) => void;
  /** What the commands its advice names must repeat of this run (target, config, state file). */
  run?: RunContext;
  /** A promoted target (Production): the target its workflows are promoted from, for what orphaned entries need. */
  promotedFrom?: string;
  /** Stops STARTING creates (the rest are `skipped`); creates in flight finish and are recorded. */
  signal?: AbortSignal;
}

/**
 * Run a plan: POST what it says to create, DELETE what it says to delete (read again first, verified by a 404) and
 * PUT what it says to update (journaled, bounded concurrency, verified by reading it back), record workflows the
 * service already matches, and report everything else for a person to act on. One workflow's failure does not stop
 * the others, except failures every later write would share.
 */
export async function applyPlan(input: ApplyPlanInput): Promise<SyncResult> {
  const { plan, store, signal } = input;
  const advice = buildSyncAdvice(input.run);
  const emit = guarded(input.onEvent);
  const now = () => new Date();
  const desired = new Map(input.desired.map((d) => [d.identifier, d]));
  const initial = store.snapshot;
  const results: SyncItemResult[] = [];
  let stop: StopReason | undefined;
  const creates: Array<[number, CreateItem | DeleteItem]> = [];
  const updates: Array<[number, UpdateItem]> = [];
  const adoptions: Array<Promise<void>> = [];
  for (const [index, item] of plan.items.entries()) {
    if (item.action === 'create' || item.action === 'delete') creates.push([index, item]);
    else if (item.action === 'update') updates.push([index, item]);
    else if (PLAN_ACTIONS[item.action].apply === 'record') {
      // Concurrently: the store writes everything recorded meanwhile in one go (1,000 adoptions, few fsyncs).
      adoptions.push(
        adopt(store, initial, item, now, advice.again).then((adopted) => {
          results[index] = adopted.result;
          stop ??= adopted.stop;
        }),
      );
    } else results[index] = reportOnly(item);
  }
  await Promise.all(adoptions);
  const orphaned = plan.items.filter((i) => i.action === 'orphaned').length;
  if (orphaned > 0) emit({ type: 'notice', message: orphanedNotice(orphaned, input) });

  const ctx: CreateContext = { client: input.client, store, target: plan.target.name, now, emit, advice };
  const limit = pLimit(input.concurrency);
  let interrupted = false;
  /** Each write in the pool, unless the run stopped: then `skipped`, saying why. */
  const writeAll = <T extends CreateItem | DeleteItem | UpdateItem>(
    writes: ReadonlyArray<[number, T]>,
    write: (item: T) => Promise<ItemOutcome>,
  ) =>
    Promise.all(
      writes.map(([index, item]) =>
        limit(async () => {
          if (stop === undefined && signal?.aborted) stop = 'interrupted';
          let result: SyncItemResult;
          if (stop !== undefined) {
            interrupted ||= stop === 'interrupted' || stop === 'cancelled';
            result = {
              identifier: item.identifier,
              outcome: 'skipped',
              message: skippedMessage(stop),
              next: advice.again,
            };
          } else {
            const outcome = await write(item);
            result = outcome.result;
            stop ??= outcome.stop;
            if (outcome.stop === 'cancelled') interrupted = true;
          }
          results[index] = withPlanDetails(item, result);
          emit({
            type: 'workflow',
            identifier: item.identifier,
            status: 'done',
            outcome: result.outcome,
            ...(result.message === undefined ? {} : { message: result.message }),
          });
        }),
      ),
    );
  emit({ type: 'phase', phase: 'create', total: creates.length });
  await writeAll(creates, (item) =>
    item.action === 'delete'
      ? deleteOne(ctx, item)
      : createChecked(ctx, item, desired.get(item.identifier), initial),
  );
  if (updates.length > 0) {
    emit({ type: 'phase', phase: 'update', total: updates.length });
    await writeAll(updates, (item) => updateChecked(ctx, item, desired.get(item.identifier), initial));
  }
  const stoppedBy = stop === 'auth' || stop === 'rate-limited' ? stop : undefined;
  return {
    plan,
    outcomes: results,
    summary: summarizeOutcomes(results),
    interrupted,
    status: buildSyncStatus(results, stoppedBy),
  };
}

async function createChecked(
  ctx: CreateContext,
  item: CreateItem,
  desired: DesiredWorkflow | undefined,
  initial: StateFile,
): Promise<ItemOutcome> {
  const base = { identifier: item.identifier, ...(item.file === undefined ? {} : { file: item.file }) };
  if (desired === undefined) {
    return failedOutcome(base, 'the plan creates a workflow no definition given to sync has');
  }
  const journaled = Object.hasOwn(initial.pending, item.identifier)
    ? initial.pending[item.identifier]
    : undefined;
  if (journaled !== undefined && !isPendingUpdate(journaled)) {
    // An earlier create of it was interrupted and reconciling could not tell whether it landed.
    return failedOutcome(
      base,
      'an earlier create of this workflow may have reached the service and could not be checked; it is not sent again until a run can tell',
      `${ctx.advice.again} when the service can be reached`,
    );
  }
  return createOne(ctx, item, desired);
}

async function updateChecked(
  ctx: CreateContext,
  item: UpdateItem,
  desired: DesiredWorkflow | undefined,
  initial: StateFile,
): Promise<ItemOutcome> {
  if (desired === undefined) {
    const base = { identifier: item.identifier, ...(item.file === undefined ? {} : { file: item.file }) };
    return failedOutcome(base, 'the plan updates a workflow no definition given to sync has');
  }
  const entry = entryOf(initial, item.identifier);
  return updateOne(ctx, item, desired, entry);
}

/** The service already matches the file: make state say so (new entry or refreshed hash). */
async function adopt(
  store: ApplyStore,
  initial: StateFile,
  item: PlanItem,
  now: () => Date,
  again: string,
): Promise<ItemOutcome> {
  const result = reportOnly(item);
  const entry = entryOf(initial, item.identifier);
  const { remoteId, desiredHash } = item;
  if (remoteId === undefined || desiredHash === undefined) return { result };
  const known = entry !== undefined && entry.id === remoteId && entry.hash === desiredHash;
  // An interrupted update's journal entry goes when the workflow is recorded.
  const journaled = Object.hasOwn(initial.pending, item.identifier);
  if (known && entry.remoteVersion === item.remoteVersion && !journaled) return { result };
  // Still the workflow wfsync created (or rebuilt) when the id is the same: only the hash is refreshed.
  const origin = entry !== undefined && entry.id === remoteId ? entry.origin : 'adopted';
  try {
    await store.recordWorkflow(item.identifier, {
      id: remoteId,
      hash: desiredHash,
      origin,
      ...(item.file === undefined ? {} : { file: item.file }),
      ...(item.remoteVersion === undefined ? {} : { remoteVersion: item.remoteVersion }),
      recordedAt: now().toISOString(),
    });
  } catch (error) {
    const message = `matches the service, but recording it in state failed: ${messageOf(error)}`;
    return failedOutcome(result, message, again, 'state');
  }
  // Only the service's version was new (recorded for a later update or delete to compare with): nothing to tell.
  if (known) return { result };
  result.message =
    origin === 'adopted'
      ? 'already on the service and matching the file: recorded in state'
      : "matches the service: recorded the file's new hash";
  return { result };
}

/** Plan items sync does not act on, carried into the result as they are (an action with no outcome of its own fails). */
function reportOnly(planned: PlanItem): SyncItemResult {
  const item: PlanItemFields = planned;
  const outcome = isSyncOutcome(item.action) ? item.action : 'failed';
  const message = item.error ?? planActionMeta(item.action).reported;
  return withPlanDetails(item, {
    identifier: item.identifier,
    outcome,
    ...(item.remoteId === undefined ? {} : { remoteId: item.remoteId }),
    ...(message === undefined ? {} : { message }),
    ...(item.changes.length === 0 ? {} : { changes: item.changes }),
    ...(item.diff === undefined ? {} : { diff: item.diff }),
    ...(item.diagnostics === undefined || item.diagnostics.length === 0
      ? {}
      : { diagnostics: item.diagnostics }),
    next: item.next,
  });
}

/**
 * What to do with state's entries that no definition has any more and sync does not delete. A promoted target's copy
 * cannot be deleted in its dashboard (Production is view-only): it goes only when the delete is promoted.
 */
function orphanedNotice(count: number, input: ApplyPlanInput): string {
  const what =
    count === 1
      ? '1 workflow in state no longer has a definition and is not deleted'
      : `${count} workflows in state no longer have definitions and are not deleted`;
  const forget = `\`${commandLine(input.run, 'state forget', { tail: '<identifier>' })}\``;
  const source = input.promotedFrom;
  if (source === undefined) return `${what} (see each "next"): delete them in the dashboard, then ${forget}`;
  const syncSource = `\`${commandLine(sourceRunOf(input.run, source), 'sync')}\``;
  return (
    `${what} (see each "next"): Production is view-only, so a copy goes only when its delete in ${source} is ` +
    `promoted (delete the workflow with ${syncSource}, then sync this target with \`delete\` allowed), or run ` +
    `${forget} to stop tracking it`
  );
}
