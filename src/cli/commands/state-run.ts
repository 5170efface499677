import { loadRun, openRun, STATE_LOCK_WAIT, stateIdentity, withLockedState } from '../../api/pipeline.js';
import { reconcilePending } from '../../apply/reconcile-pending.js';
import { hashBody } from '../../cache/hash.js';
import { UsageError } from '../../errors.js';
import { ExitCode } from '../../exit-codes.js';
import { compareWorkflow } from '../../plan/compare.js';
import { buildCreateBody, type TargetGroups } from '../../plan/create-body.js';
import type { DesiredWorkflow } from '../../plan/types.js';
import { buildDefinitionFromRemote } from '../../pull/convert.js';
import { fetchObservations, openTargetSession, type RemoteObservation } from '../../remote/index.js';
import { renderStateJson } from '../../report/state.js';
import { writeOutput } from '../../report/write-output.js';
import { readState } from '../../state/read.js';
import type { StateEntry, StateFile } from '../../state/types.js';
import type { CommandContext } from '../context.js';
import { clientListener, progressFor } from '../run-helpers.js';
import { parseTargetArguments, type TargetValues } from '../run-options.js';

export async function runShow(
  ctx: CommandContext,
  values: TargetValues & { format: 'human' | 'json' },
): Promise<number> {
  const loaded = await loadRun(parseTargetArguments(values).options, { cwd: ctx.cwd, env: ctx.env });
  // Nothing is sent, but a remote target is checked as for any other command (its URL, its API key); the local
  // one is not started.
  const session =
    loaded.target.kind === 'local' ? undefined : await openTargetSession(loaded.target, { env: ctx.env });
  try {
    const state = await readState(loaded.target.statePath, stateIdentity(loaded.target));
    await writeOutput(ctx.stdout, values.format === 'json' ? renderStateJson(state) : renderState(state));
    return ExitCode.Ok;
  } finally {
    await session?.close();
  }
}

function renderState(state: StateFile): string {
  const rows = Object.entries(state.workflows).sort(([a], [b]) => (a < b ? -1 : 1));
  const lines = [`state of target ${state.target} (${state.baseUrl}): ${rows.length} workflows`];
  const width = Math.max(10, ...rows.map(([id]) => id.length));
  for (const [identifier, entry] of rows) {
    lines.push(
      `  ${identifier.padEnd(width)}  ${entry.id}  ${entry.origin.padEnd(7)}  ${entry.recordedAt}  ${entry.file ?? ''}`.trimEnd(),
    );
  }
  const pending = Object.values(state.pending);
  if (pending.length > 0) {
    lines.push(
      `${pending.length} interrupted ${pending.some((p) => p.kind === 'update') ? 'write(s)' : 'create(s)'}, settled by the next sync or "wfsync state rebuild":`,
    );
    for (const p of pending)
      lines.push(`  ${p.identifier}  ${p.kind === 'update' ? 'update ' : ''}started ${p.startedAt}`);
  }
  return `${lines.join('\n')}\n`;
}

export async function runRebuild(ctx: CommandContext, values: TargetValues): Promise<number> {
  const { options, quiet, verbose } = parseTargetArguments(values);
  const loaded = await loadRun(options, { cwd: ctx.cwd, env: ctx.env });
  const progress = progressFor(ctx, quiet);
  const { session, desired } = await openRun(loaded, {
    env: ctx.env,
    onClientEvent: clientListener(ctx, verbose),
  });
  if (verbose) await writeOutput(ctx.stderr, `wfsync: ${session.route}\n`);
  try {
    return await withLockedState(loaded.target, STATE_LOCK_WAIT, async (store) => {
      await reconcilePending({ client: session.client, store, onEvent: progress.onEvent });
      const previous = store.snapshot;
      // Look everything up by identifier (not by the recorded ids: the point is not to trust the file).
      const lookups = await fetchObservations({
        client: session.client,
        identifiers: desired.map((d) => d.identifier),
        state: { ...previous, workflows: {}, pending: {} },
        concurrency: loaded.target.concurrency,
        onEvent: progress.onEvent,
      });
      await progress.done();
      const { workflows, lines } = rebuildEntries(desired, lookups, session.groups([]));
      await store.replace({ ...store.snapshot, workflows });
      const dropped = Object.keys(previous.workflows).filter((id) => !workflows[id]);
      await writeOutput(
        ctx.stdout,
        `rebuilt ${loaded.target.statePath}: ${Object.keys(workflows).length} of ${desired.length} definitions found on the service\n${lines.join('\n')}\n` +
          (dropped.length > 0
            ? `dropped entries with no definition or no workflow: ${dropped.join(', ')}\n`
            : ''),
      );
      return ExitCode.Ok;
    });
  } finally {
    await progress.done();
    await session.close();
  }
}

/** A state entry for every definition found on the service by its identifier, and a line for each definition. */
function rebuildEntries(
  desired: readonly DesiredWorkflow[],
  lookups: ReadonlyMap<string, RemoteObservation>,
  groups: TargetGroups,
): { workflows: Record<string, StateEntry>; lines: string[] } {
  const workflows: Record<string, StateEntry> = {};
  const lines: string[] = [];
  for (const d of desired) {
    const found = lookups.get(d.identifier)?.byIdentifier;
    if (found?.status !== 'found') {
      lines.push(
        `  ${d.identifier}: ${found?.status === 'error' ? `lookup failed: ${found.message}` : 'not on the service'}`,
      );
      continue;
    }
    const same = compareWorkflow(d, found.workflow).changes.length === 0;
    // A workflow that differs is recorded with the hash of the service's version, so the plan reports the
    // file as changed since then instead of claiming the service drifted from a file it never saw.
    const pulled = buildCreateBody(buildDefinitionFromRemote(found.workflow, { groups }), groups);
    const hash = same || !('body' in pulled) ? d.hash : hashBody(pulled.body);
    workflows[d.identifier] = {
      id: found.workflow._id,
      hash,
      origin: 'rebuilt',
      file: d.file,
      recordedAt: new Date().toISOString(),
    };
    lines.push(
      `  ${d.identifier}: ${found.workflow._id}${same ? '' : ' (differs from the file: see "wfsync plan")'}`,
    );
  }
  return { workflows, lines };
}

export async function runForget(
  ctx: CommandContext,
  identifiers: string[],
  values: TargetValues,
): Promise<number> {
  const loaded = await loadRun(parseTargetArguments(values).options, { cwd: ctx.cwd, env: ctx.env });
  const session = await openTargetSession(loaded.target, { env: ctx.env });
  try {
    return await withLockedState(loaded.target, STATE_LOCK_WAIT, async (store) => {
      const unknown = identifiers.filter(
        (id) => !store.snapshot.workflows[id] && !store.snapshot.pending[id],
      );
      if (unknown.length > 0) throw new UsageError(`not in state: ${unknown.join(', ')}`);
      for (const id of identifiers) await store.forget(id);
      await writeOutput(ctx.stdout, `forgot ${identifiers.join(', ')}\n`);
      return ExitCode.Ok;
    });
  } finally {
    await session.close();
  }
}
