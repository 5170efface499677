import { messageOf } from '../errors.js';
import { compareWorkflow } from '../plan/compare.js';
import { remoteVersionOf } from '../plan/remote-version.js';
import type { DesiredWorkflow, UpdateItem } from '../plan/types.js';
import { commandEndingKind, RemoteError, runForWorkflow, type WorkflowResponse } from '../remote/index.js';
import type { StateEntry } from '../state/types.js';
import { failedOutcome, type ItemOutcome } from './create-failure.js';
import type { CreateContext } from './create-one.js';

/**
 * One update, journaled: (1) read the workflow again and write nothing if the service's version is not the plan's
 * (a dashboard edit since the plan); (2) write the journal entry; (3) PUT the whole body (when anything but `active`
 * differs); (4) set `active` through the status route (when it differs); (5) read it back and compare with the file;
 * (6) record the new hash and version (which clears the journal entry). A failure after (2) leaves the entry: the next
 * run's plan compares the service with the file and finishes, records or hands it to a person.
 */
export async function updateOne(
  ctx: CreateContext,
  item: UpdateItem,
  desired: DesiredWorkflow,
  entry: StateEntry | undefined,
): Promise<ItemOutcome> {
  const { identifier } = item;
  const id = item.remoteId;
  const base = { identifier, file: desired.file, ...(id === undefined ? {} : { remoteId: id }) };
  if (id === undefined) return failedOutcome(base, 'the plan updates a workflow whose id it does not know');
  const hash = item.desiredHash ?? desired.hash;
  // 1. The service's copy must be the one the plan was made from.
  let fresh: WorkflowResponse | undefined;
  try {
    fresh = await runForWorkflow(identifier, () => ctx.client.getWorkflow(id));
  } catch (error) {
    const message = `nothing was sent: reading it before the update failed (${messageOf(error)})`;
    return failedOutcome(base, message, ctx.advice.again, commandEndingKind(error));
  }
  if (fresh === undefined || remoteVersionOf(fresh) !== item.remoteVersion) {
    const what = fresh === undefined ? 'is gone from the service' : 'changed on the service';
    return {
      result: {
        ...base,
        outcome: 'conflict',
        message: `nothing was sent: the workflow ${what} since the plan was made (edited in the dashboard?)`,
        next: `run ${ctx.advice.cli('plan')} again and review what the service holds now`,
      },
    };
  }
  // 2. Journal, durable before the first write.
  try {
    await ctx.store.recordPending({
      kind: 'update',
      identifier,
      id,
      hash,
      startedAt: ctx.now().toISOString(),
    });
  } catch (error) {
    const message = `nothing was sent: the journal entry could not be written (${messageOf(error)})`;
    return failedOutcome(base, message, `fix the state file's directory, then ${ctx.advice.again}`, 'state');
  }
  ctx.emit({ type: 'workflow', identifier, status: 'updating' });
  // 3 and 4. The PUT, then the status.
  try {
    if (item.body !== undefined) {
      const body = item.body as unknown as Record<string, unknown>;
      await runForWorkflow(identifier, () => ctx.client.updateWorkflow(id, body));
    }
    if (item.active !== undefined) {
      const active = item.active;
      await runForWorkflow(identifier, () => ctx.client.setWorkflowStatus(id, active));
    }
  } catch (error) {
    return writeFailed(ctx, base, error);
  }
  // 5. Read back and compare, as creates are.
  ctx.emit({ type: 'workflow', identifier, status: 'verifying' });
  let actual: WorkflowResponse | undefined;
  try {
    actual = await runForWorkflow(identifier, () => ctx.client.getWorkflow(id));
  } catch (error) {
    const message = `updated, but reading it back failed (${messageOf(error)}); the next run compares it again`;
    return failedOutcome(base, message, ctx.advice.again, commandEndingKind(error));
  }
  if (actual === undefined) {
    const message = 'updated, but the service no longer finds the workflow';
    return failedOutcome(base, message, `run ${ctx.advice.cli('plan')} to see what the service holds`);
  }
  const { changes, diff } = compareWorkflow(desired, actual);
  if (changes.length > 0) {
    return failedOutcome(
      { ...base, changes, diff },
      'updated, but the service holds something else than the file',
      'compare the diff with the definition; the difference may need a change in the file or in the dashboard',
    );
  }
  // 6. Record: the new hash and the version just read (the journal entry goes with it).
  try {
    await ctx.store.recordWorkflow(identifier, {
      id,
      hash,
      origin: entry !== undefined && entry.id === id ? entry.origin : 'adopted',
      file: desired.file,
      remoteVersion: remoteVersionOf(actual),
      recordedAt: ctx.now().toISOString(),
    });
  } catch (error) {
    const message = `updated, but recording it failed (${messageOf(error)}); the next run finds it equal and records it`;
    return failedOutcome(base, message, ctx.advice.again, 'state');
  }
  return {
    result: {
      ...base,
      outcome: 'updated',
      message: `id ${id}; ${describeWrites(item)}`,
      ...(item.steps.length === 0 ? {} : { steps: item.steps }),
    },
  };
}

/** A PUT or status call failed: what it means for the journal and the rest of the run. */
async function writeFailed(
  ctx: CreateContext,
  base: { identifier: string; file: string; remoteId?: string },
  error: unknown,
): Promise<ItemOutcome> {
  const unknown = !(error instanceof RemoteError) || error.kind === 'outcome-unknown';
  if (unknown) {
    const message = `the update's outcome is unknown; the journal entry lets the next run compare and finish it (${messageOf(error)})`;
    return failedOutcome(
      base,
      message,
      ctx.advice.again,
      error instanceof RemoteError ? undefined : 'unexpected',
    );
  }
  // The service refused it: nothing of this call was applied (a PUT refused half-way is compared by the next plan).
  await ctx.store.clearPending(base.identifier).catch(() => undefined);
  if (error.kind === 'auth')
    return failedOutcome(
      base,
      error.message,
      `check the API key of this target (only a Development-environment key may update), then ${ctx.advice.again}`,
      'auth',
    );
  const kind = commandEndingKind(error);
  const next = kind === undefined ? `fix what the service says, then ${ctx.advice.again}` : ctx.advice.again;
  return failedOutcome(base, `the service refused the update: ${error.message}`, next, kind);
}

/** `PUT (2 steps kept, 1 new, 1 removed) and status active: false`. */
function describeWrites(item: UpdateItem): string {
  const parts: string[] = [];
  if (item.body !== undefined) {
    const count = (kind: string) => item.steps.filter((s) => s.match === kind).length;
    const steps = [
      `${count('kept')} kept`,
      ...(['new', 'replaced', 'removed'] as const).filter((k) => count(k) > 0).map((k) => `${count(k)} ${k}`),
    ];
    parts.push(`PUT (steps: ${steps.join(', ')})`);
  }
  if (item.active !== undefined) parts.push(`status active: ${item.active}`);
  return parts.join(' and ');
}
