import { messageOf } from '../errors.js';
import { compareWorkflow } from '../plan/compare.js';
import { remoteVersionOf } from '../plan/remote-version.js';
import type { CreateItem, DesiredWorkflow } from '../plan/types.js';
import {
  type CreateResult,
  commandEndingKind,
  runForWorkflow,
  type ServiceClient,
  type WorkflowResponse,
} from '../remote/index.js';
import { describeCreateFailure, failedOutcome, type ItemOutcome, type SyncAdvice } from './create-failure.js';
import type { ApplyEvent } from './events.js';
import { buildIdempotencyKey, lookupIdentifiersFor } from './idempotency.js';
import type { ApplyStore } from './store.js';

export interface CreateContext {
  client: ServiceClient;
  store: ApplyStore;
  target: string;
  now: () => Date;
  emit: (event: ApplyEvent) => void;
  /** The commands failures suggest, exact for this run. */
  advice: SyncAdvice;
}

/**
 * One create, journaled: (1) write the pending entry, (2) POST, (3) check the identifier the service gave it,
 * (4) record it in state (which clears the journal entry) while (5) reading it back to compare with the file.
 */
export async function createOne(
  ctx: CreateContext,
  item: CreateItem,
  desired: DesiredWorkflow,
): Promise<ItemOutcome> {
  const { identifier } = item;
  const file = desired.file;
  const { body } = item;
  const hash = item.desiredHash ?? desired.hash;
  const lookups = lookupIdentifiersFor(identifier, body.name);
  const idempotencyKey = buildIdempotencyKey(ctx.target, identifier, hash);
  try {
    await ctx.store.recordPending({
      identifier,
      lookupIdentifiers: lookups,
      name: body.name,
      hash,
      idempotencyKey,
      startedAt: ctx.now().toISOString(),
    });
  } catch (error) {
    const message = `nothing was sent: the journal entry could not be written (${messageOf(error)})`;
    return failedOutcome(
      { identifier, file },
      message,
      `fix the state file's directory, then ${ctx.advice.again}`,
      'state',
    );
  }
  ctx.emit({ type: 'workflow', identifier, status: 'creating' });
  let created: CreateResult;
  try {
    created = await runForWorkflow(identifier, () =>
      ctx.client.createWorkflow(body, {
        idempotencyKey,
        identifier,
        alternateIdentifiers: lookups.filter((id) => id !== identifier),
      }),
    );
  } catch (error) {
    const failure = describeCreateFailure(error, identifier, file, ctx.advice);
    // Best effort: a journal entry left behind is looked up again by the next run, which is safe.
    if (!failure.keepPending) await ctx.store.clearPending(identifier).catch(() => undefined);
    return { result: failure.result, ...(failure.stop === undefined ? {} : { stop: failure.stop }) };
  }
  const given = created.workflow.triggers[0]?.identifier;
  if (given !== identifier)
    return identifierMismatch(ctx, desired, { workflow: created.workflow, given, hash });
  // Recorded and read back at once: the read changes nothing, and a failed record is what is reported either way
  // (the journal entry, durable before the POST, lets the next run recover it).
  const [unrecorded, verified] = await Promise.all([
    record(ctx, desired, created.workflow, hash),
    verify(ctx, desired, created),
  ]);
  return unrecorded ?? verified;
}

/**
 * The service gave the workflow another identifier. If the declared one belongs to another workflow, the service
 * made a duplicate (`<identifier>-<suffix>`): nothing may be recorded under the declared identifier, and a person
 * deletes the duplicate. Otherwise the service derives another identifier from the name: the workflow is recorded
 * anyway, since with no entry the next run would find nothing under the declared identifier and create it again.
 */
async function identifierMismatch(
  ctx: CreateContext,
  desired: DesiredWorkflow,
  created: { workflow: WorkflowResponse; given: string | undefined; hash: string },
): Promise<ItemOutcome> {
  const { identifier, file } = desired;
  const { workflow, given, hash } = created;
  const id = workflow._id;
  const base = { identifier, file, remoteId: id };
  const shown = given ?? '(none)';
  let holder: WorkflowResponse | undefined;
  try {
    holder = await runForWorkflow(identifier, () => ctx.client.getWorkflow(identifier));
  } catch {
    // Cannot tell (holder stays undefined): recording is the side that never creates twice.
  }
  if (holder !== undefined && holder._id !== id) {
    await ctx.store.clearPending(identifier).catch(() => undefined);
    return failedOutcome(
      base,
      `the identifier ${identifier} is taken by another workflow (id ${holder._id}), so the service created a duplicate: workflow ${id} with the identifier ${shown}`,
      `delete workflow ${id} (${shown}) in the dashboard, then rename this workflow or adopt the existing one with ${ctx.advice.cli('pull', identifier)}`,
    );
  }
  const unrecorded = await record(ctx, desired, workflow, hash);
  if (unrecorded !== undefined) return unrecorded;
  return failedOutcome(
    base,
    `the service gave workflow ${id} the identifier ${shown}, not ${identifier}: triggers of ${identifier} will not reach it`,
    `rename the workflow so the service derives ${identifier}, delete workflow ${id} in the dashboard, then ${ctx.advice.cli('state forget', identifier)}`,
  );
}

async function verify(
  ctx: CreateContext,
  desired: DesiredWorkflow,
  created: CreateResult,
): Promise<ItemOutcome> {
  const { identifier, file } = desired;
  const id = created.workflow._id;
  const base = { identifier, file, remoteId: id };
  ctx.emit({ type: 'workflow', identifier, status: 'verifying' });
  let actual: WorkflowResponse | undefined;
  try {
    actual = await runForWorkflow(identifier, () => ctx.client.getWorkflow(id));
  } catch (error) {
    const message = `created (id ${id}) and recorded, but reading it back failed: ${messageOf(error)}`;
    return failedOutcome(
      base,
      message,
      `run ${ctx.advice.cli('plan')} to compare it`,
      commandEndingKind(error),
    );
  }
  if (actual === undefined) {
    const message = `created (id ${id}) and recorded, but the service finds no workflow with that id`;
    return failedOutcome(base, message, `run ${ctx.advice.cli('plan')} to see what the service holds`);
  }
  const { changes, diff } = compareWorkflow(desired, actual);
  if (changes.length > 0) {
    return failedOutcome(
      { ...base, changes, diff },
      `created (id ${id}), but the service stored something else than was sent`,
      'compare the diff with the definition; the difference may need a change in the file or a report to the service',
    );
  }
  const how = created.replayed
    ? '; the service replayed an earlier attempt'
    : created.reconciled
      ? '; the response was lost, found by a lookup'
      : '';
  return { result: { ...base, outcome: 'created', message: `id ${id}${how}` } };
}

/** Record a created workflow (clearing its journal entry); if that fails, the result to report instead. */
async function record(
  ctx: CreateContext,
  desired: DesiredWorkflow,
  workflow: WorkflowResponse,
  hash: string,
): Promise<ItemOutcome | undefined> {
  const { identifier, file } = desired;
  const id = workflow._id;
  try {
    await ctx.store.recordWorkflow(identifier, {
      id,
      hash,
      origin: 'created',
      file,
      remoteVersion: remoteVersionOf(workflow),
      recordedAt: ctx.now().toISOString(),
    });
    return undefined;
  } catch (error) {
    // The journal entry on disk still names this create: the next run's reconcile records it.
    const message = `created (id ${id}), but recording it failed (${messageOf(error)}); the journal entry lets the next run recover it`;
    return failedOutcome({ identifier, file, remoteId: id }, message, ctx.advice.again, 'state');
  }
}
