import pLimit from 'p-limit';
import { messageOf } from '../errors.js';
import type { RunContext } from '../plan/command-line.js';
import { compareWorkflow } from '../plan/compare.js';
import { forProduction } from '../plan/promotion.js';
import { remoteVersionOf } from '../plan/remote-version.js';
import type { DesiredWorkflow, Plan, PlanItem, PromoteItem } from '../plan/types.js';
import { endsCommand, guarded, type ServiceChange, type ServiceClient } from '../remote/index.js';
import { applyPlan } from './apply-plan.js';
import type { ApplyEvent } from './events.js';
import {
  type DeleteAttempt,
  isPromotedDelete,
  type PromotedDelete,
  verifyDeletes,
} from './promote-delete.js';
import {
  buildSyncStatus,
  type SyncItemResult,
  type SyncResult,
  summarizeOutcomes,
  withPlanDetails,
} from './result.js';
import type { ApplyStore } from './store.js';

export interface ApplyPromotionInput {
  plan: Plan;
  desired: readonly DesiredWorkflow[];
  /** Development's client: lists the pending changes and applies them. */
  source: ServiceClient;
  /** The Development target's name (`promoteFrom`), for the commands suggested there. */
  sourceName: string;
  /** Production's client (read-only): verifies each copy. */
  production: ServiceClient;
  /** This target's state: Production's copies are recorded in it. */
  store: ApplyStore;
  concurrency: number;
  onEvent?: (event: ApplyEvent) => void;
  signal?: AbortSignal;
  /** What the commands its messages suggest must repeat of this run (its target above all). */
  run?: RunContext;
}

/** The change type of a workflow, and of a layout, in the changes API. */
export const WORKFLOW_CHANGE = 'NotificationTemplate';
const LAYOUT_CHANGE = 'Layout';

/**
 * Run a promotion plan: list Development's pending changes (every page), apply exactly those of the plan's `promote`
 * items (after the changes of the layouts they use; groups the service promotes on the way) and of its promoted
 * deletes, never another workflow's; then read each Production copy with the Production key, compare it with the
 * file as any sync does, and record it in this target's state (a deleted one must be gone: dropped from state,
 * promote-delete.ts). Everything else in the plan is recorded or reported as a sync does it.
 */
export async function applyPromotion(input: ApplyPromotionInput): Promise<SyncResult> {
  const { plan, store } = input;
  const emit = guarded(input.onEvent);
  const promotes = plan.items.filter((i): i is Promoted => i.action === 'promote' || isPromotedDelete(i));
  const isOther = (i: PlanItem) => i.action !== 'promote' && !isPromotedDelete(i);
  // The rest (a delete Production already lacks, reports, records) as any sync: its reads with the Production key.
  const others = await applyPlan({
    plan: { ...plan, items: plan.items.filter(isOther) },
    desired: input.desired,
    client: input.production,
    store,
    concurrency: input.concurrency,
    ...(input.onEvent === undefined ? {} : { onEvent: input.onEvent }),
    ...(input.run === undefined ? {} : { run: input.run }),
    promotedFrom: input.sourceName,
  });
  const promoted = new Map<string, SyncItemResult>();
  if (promotes.length > 0) {
    emit({ type: 'phase', phase: 'create', total: promotes.length });
    for (const result of await promoteAll(input, promotes)) {
      promoted.set(result.identifier, result);
      emit({
        type: 'workflow',
        identifier: result.identifier,
        status: 'done',
        outcome: result.outcome,
        ...(result.message === undefined ? {} : { message: result.message }),
      });
    }
  }
  const rest = others.outcomes[Symbol.iterator]();
  const outcomes = plan.items.map((item) =>
    isOther(item) ? rest.next().value! : promoted.get(item.identifier)!,
  );
  return {
    plan,
    outcomes,
    summary: summarizeOutcomes(outcomes),
    interrupted: others.interrupted,
    status: buildSyncStatus(
      outcomes,
      others.status === 'auth' || others.status === 'rate-limited' ? others.status : undefined,
    ),
  };
}

/** What a promoted target's sync applies a pending change for: a promotion, or a deleted workflow's delete. */
type Promoted = PromoteItem | PromotedDelete;

async function promoteAll(input: ApplyPromotionInput, items: readonly Promoted[]): Promise<SyncItemResult[]> {
  const pending = await input.source.listPendingChanges();
  const workflowChange = new Map<string, ServiceChange>();
  const layoutChange = new Map<string, ServiceChange>();
  for (const change of pending) {
    if (change.type === WORKFLOW_CHANGE) workflowChange.set(change._entityId, change);
    else if (change.type === LAYOUT_CHANGE) layoutChange.set(change._entityId, change);
  }
  const results = new Map<string, SyncItemResult>();
  const fail = (item: Promoted, message: string, next: string) =>
    results.set(
      item.identifier,
      withPlanDetails(item, { identifier: item.identifier, outcome: 'failed', message, next }),
    );
  // 1. The layouts the promoted workflows use, once each, before them: the service does not promote them on the way.
  const layouts = new Set(
    items
      .flatMap((i) => (i.action === 'promote' ? (i.layoutIds ?? []) : []))
      .filter((id) => layoutChange.has(id)),
  );
  for (const layoutId of layouts) await input.source.applyChange(layoutChange.get(layoutId)!._id);
  // 2. Each workflow's own pending change; a workflow without one is not promoted (a delete is read below: its
  // change may have been applied meanwhile).
  const applied: PromoteItem[] = [];
  const deletes: DeleteAttempt[] = [];
  let stopped: unknown;
  const limit = pLimit(input.concurrency);
  await Promise.all(
    items.map((item) =>
      limit(async () => {
        const change = workflowChange.get(item.sourceId);
        if (change === undefined && item.action === 'delete') {
          deletes.push({ item, sent: 'none' });
          return;
        }
        if (change === undefined) {
          fail(
            item,
            'Development has no pending change for this workflow (Production was changed another way?): nothing was applied',
            'bring Production back to the file in the dashboard, or make a change in Development and promote it',
          );
          return;
        }
        if (stopped !== undefined || input.signal?.aborted) {
          fail(
            item,
            `not promoted: the run stopped (${messageOf(stopped ?? 'interrupted')})`,
            'run sync again',
          );
          return;
        }
        try {
          await input.source.applyChange(change._id);
          if (item.action === 'delete') deletes.push({ item, sent: 'applied' });
          else applied.push(item);
        } catch (error) {
          if (endsCommand(error)) stopped ??= error;
          // Its answer may have been lost after the service applied it: the read below tells.
          if (item.action === 'delete') {
            deletes.push({ item, sent: 'refused', error });
            return;
          }
          fail(
            item,
            `applying its change failed: ${messageOf(error)}`,
            'run sync again once the service answers',
          );
        }
      }),
    ),
  );
  const sentDeletes = deletes.filter((d) => d.sent === 'applied');
  if (stopped !== undefined && applied.length === 0 && sentDeletes.length === 0) throw stopped;
  // 3. Verify: each Production copy, read with the Production key, compared with the file; then recorded. A deleted
  // one must be gone; then it is dropped from state.
  if (applied.length > 0) await verifyAll(input, applied, results);
  if (deletes.length > 0) {
    const verified = await verifyDeletes(
      { production: input.production, store: input.store, concurrency: input.concurrency },
      deletes,
    );
    for (const [identifier, result] of verified) results.set(identifier, result);
  }
  return items.map((i) => results.get(i.identifier)!);
}

async function verifyAll(
  input: ApplyPromotionInput,
  applied: readonly PromoteItem[],
  results: Map<string, SyncItemResult>,
): Promise<void> {
  const { production, store } = input;
  const byParent = new Map<string, string>();
  for (const listed of await production.listWorkflows()) {
    if (listed._parentId !== undefined) byParent.set(listed._parentId, listed._id);
  }
  const groups = new Map(
    ((await production.listNotificationGroups()) ?? []).flatMap((g) =>
      g._parentId === undefined ? [] : [[g._parentId, g._id] as const],
    ),
  );
  const desired = new Map(input.desired.map((d) => [d.identifier, d]));
  const limit = pLimit(input.concurrency);
  await Promise.all(
    applied.map((item) =>
      limit(async () => {
        const done = (result: Omit<SyncItemResult, 'identifier'>) =>
          results.set(item.identifier, withPlanDetails(item, { identifier: item.identifier, ...result }));
        const copyId = byParent.get(item.sourceId);
        const wanted = desired.get(item.identifier);
        const copy = copyId === undefined ? undefined : await production.getWorkflow(copyId);
        if (copy === undefined || wanted === undefined) {
          done({
            outcome: 'failed',
            message: 'its change was applied, but Production shows no copy of the workflow',
            next: 'run plan again to see what Production holds',
          });
          return;
        }
        const { changes, diff } = compareWorkflow(forProduction(wanted, groups), copy);
        if (changes.length > 0) {
          done({
            outcome: 'failed',
            remoteId: copy._id,
            message: "its change was applied, but Production's copy differs from the file",
            changes,
            diff,
            next: 'run plan again: Development may have changed meanwhile',
          });
          return;
        }
        try {
          await store.recordWorkflow(item.identifier, {
            id: copy._id,
            hash: wanted.hash,
            origin: 'created',
            file: wanted.file,
            remoteVersion: remoteVersionOf(copy),
            recordedAt: new Date().toISOString(),
          });
        } catch (error) {
          done({
            outcome: 'failed',
            remoteId: copy._id,
            message: `promoted, but recording it in state failed: ${messageOf(error)}`,
            next: 'run sync again: it finds Production equal to the file and records it',
          });
          return;
        }
        done({
          outcome: 'promoted',
          remoteId: copy._id,
          message: 'promoted to Production and verified',
          next: 'nothing to do.',
        });
      }),
    ),
  );
}
