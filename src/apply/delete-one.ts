import { messageOf } from '../errors.js';
import { remoteVersionOf } from '../plan/remote-version.js';
import type { DeleteItem } from '../plan/types.js';
import { commandEndingKind, runForWorkflow, type WorkflowResponse } from '../remote/index.js';
import { failedOutcome, type ItemOutcome } from './create-failure.js';
import type { CreateContext } from './create-one.js';
import type { SyncItemResult } from './result.js';

/** What a delete needs of apply's context (create-one.ts CreateContext). */
export type DeleteContext = Pick<CreateContext, 'client' | 'store' | 'emit' | 'advice'>;

/**
 * One delete: (1) read the workflow again, and skip it (a person's) unless the service still holds the version the
 * plan saw; (2) `DELETE` it; (3) read it back, a 404 proving it gone (also when the DELETE's answer was lost);
 * (4) drop it from state. Nothing is journaled: a crash after the DELETE leaves a state entry the next plan finds
 * gone on the service (404), and that plan only drops it. A workflow already gone at (1) is only dropped.
 */
export async function deleteOne(ctx: DeleteContext, item: DeleteItem): Promise<ItemOutcome> {
  const { identifier } = item;
  const id = item.remoteId ?? item.stateId;
  const base: Omit<SyncItemResult, 'outcome'> = {
    identifier,
    ...(item.file === undefined ? {} : { file: item.file }),
    ...(id === undefined ? {} : { remoteId: id }),
  };
  if (id === undefined)
    return failedOutcome(base, 'the plan deletes a workflow it has no id for (a wfsync bug)');
  const read = () => runForWorkflow(identifier, () => ctx.client.getWorkflow(id));
  let current: WorkflowResponse | undefined;
  try {
    current = await read();
  } catch (error) {
    const message = `not deleted: reading it again before deleting failed: ${messageOf(error)}`;
    return failedOutcome(base, message, ctx.advice.again, commandEndingKind(error));
  }
  if (current === undefined) {
    return forget(ctx, base, 'the service no longer has it: dropped from state; nothing was sent');
  }
  if (item.remoteVersion === undefined || remoteVersionOf(current) !== item.remoteVersion) {
    // A dashboard edit since the plan (or since `plan --out` was reviewed): never deleted without a person.
    return {
      result: {
        ...base,
        outcome: 'skipped',
        message: "not deleted: the service's workflow changed since the plan (edited in the dashboard?)",
        next: `run ${ctx.advice.cli('plan')} again: a person decides whether it should still be deleted`,
      },
    };
  }
  ctx.emit({ type: 'workflow', identifier, status: 'deleting' });
  let refused: unknown;
  try {
    await runForWorkflow(identifier, () => ctx.client.deleteWorkflow(id));
  } catch (error) {
    // Its answer may have been lost after the service deleted it: the read below tells.
    refused = error;
  }
  let after: WorkflowResponse | undefined;
  try {
    after = await read();
  } catch (error) {
    const sent = refused === undefined ? 'deleted' : `the DELETE failed (${messageOf(refused)})`;
    const message = `${sent}, but reading it back failed: ${messageOf(error)}`;
    return failedOutcome(base, message, `run ${ctx.advice.cli('plan')} to see what the service holds`);
  }
  if (after !== undefined) {
    if (refused !== undefined) {
      const message = `not deleted: ${messageOf(refused)}`;
      return failedOutcome(base, message, ctx.advice.again, commandEndingKind(refused));
    }
    const message = 'the service answered the DELETE, but still has the workflow';
    return failedOutcome(base, message, `run ${ctx.advice.cli('plan')} to see what the service holds`);
  }
  const how = refused === undefined ? '' : '; its answer was lost, a read found it gone';
  return forget(ctx, base, `id ${id}; deleted on the service${how}`);
}

/** Drop the deleted workflow from state; if that fails, the next run's plan finds it gone and drops it. */
async function forget(
  ctx: DeleteContext,
  base: Omit<SyncItemResult, 'outcome'>,
  message: string,
): Promise<ItemOutcome> {
  try {
    await ctx.store.forget(base.identifier);
  } catch (error) {
    const failed = `${message}, but dropping it from state failed (${messageOf(error)}); the next run drops it`;
    return failedOutcome(base, failed, ctx.advice.again, 'state');
  }
  return { result: { ...base, outcome: 'deleted', message } };
}
