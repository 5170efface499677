import { setMaxListeners } from 'node:events';
import { readFile } from 'node:fs/promises';
import { applyPlan } from '../../apply/apply-plan.js';
import type { ApplyEvent } from '../../apply/events.js';
import { reconcilePending } from '../../apply/reconcile-pending.js';
import type { SyncResult } from '../../apply/result.js';
import { WfsyncError } from '../../errors.js';
import { ExitCode } from '../../exit-codes.js';
import { parseJson } from '../../json.js';
import { checkReviewedPlan, findPlanStaleness } from '../../plan/staleness.js';
import type { Plan } from '../../plan/types.js';
import { renderSyncStepSummary } from '../../report/plan/markdown.js';
import { type PlanFormat, planRenderers, syncRenderers } from '../../report/plan/renderers.js';
import { appendFileText, writeOutput } from '../../report/write-output.js';
import type { LockOptions } from '../../state/lock.js';
import { readState } from '../../state/read.js';
import { type CommandContext, fileText, useColor } from '../context.js';
import { onInterrupt } from '../interrupt.js';
import { type LoadedRun, loadRun, openRun, planRun, stateIdentity, withLockedState } from '../pipeline.js';
import { checkBeforeCreating } from '../preflight.js';
import type { Progress } from '../progress/index.js';
import { clientListener, progressFor } from '../run-helpers.js';
import type { TargetCommandFlags } from '../run-options.js';
import { readCommentContext } from '../stamp.js';
import { planExitCode } from './plan-run.js';

export interface SyncFlags extends TargetCommandFlags {
  format: PlanFormat;
  dryRun?: boolean;
  plan?: string;
  lockTimeout: number;
  /** As plan's `--base` (explicit only: sync does not read GITHUB_BASE_REF). */
  base?: string;
}

export async function runSync(ctx: CommandContext, flags: SyncFlags): Promise<number> {
  // 1. Config, target, definitions: every check that can fail does so before the first request.
  const loaded = await loadRun(flags, ctx.cwd, ctx.env);
  const reviewed = flags.plan ? await readReviewedPlan(flags.plan) : undefined;
  const progress = progressFor(ctx, flags.quiet);
  const { stop, abort, removeInterrupt } = listenForInterrupts(progress);
  const { session, desired, base } = await openRun(loaded, {
    env: ctx.env,
    onClientEvent: clientListener(ctx, flags.verbose, progress),
    signal: abort,
  }).catch(async (error: unknown) => {
    removeInterrupt();
    await progress.done();
    throw error;
  });
  if (flags.verbose) await writeOutput(ctx.stderr, `wfsync: ${session.route}\n`);
  const common = { session, desired, base, onEvent: progress.onEvent };
  const preflight = { stderr: ctx.stderr, verbose: flags.verbose, quiet: flags.quiet };
  try {
    // 2a. Dry run: exactly what `plan` does.
    if (flags.dryRun)
      return await planDryRun(ctx, flags, loaded, { ...common, preflight, done: progress.done });
    // 2. One sync per target at a time; then settle creates an earlier run left unfinished.
    progress.onEvent({ type: 'phase', phase: 'lock' });
    const lock = syncLockOptions(flags.lockTimeout, stop, progress.onEvent);
    return await withLockedState(loaded.target, lock, async (store) => {
      await reconcilePending({ client: session.client, store, onEvent: progress.onEvent });
      // 3. What the service holds, and the plan.
      const planned = await planRun(loaded, {
        ...common,
        state: store.snapshot,
        previews: false,
        signal: stop,
      });
      if (reviewed) assertPlanHolds(reviewed, planned, flags.plan!);
      // What the service would refuse (a key that may not create, missing groups): stops before the first POST.
      const plan = await checkBeforeCreating(loaded, session, planned, preflight);
      // 4. Apply: create, verify, record.
      const result = await applyPlan({
        plan,
        desired,
        client: session.client,
        store,
        concurrency: loaded.target.concurrency,
        onEvent: progress.onEvent,
        signal: stop,
      });
      return await reportSync(ctx, flags, result, progress);
    });
  } finally {
    removeInterrupt();
    await progress.done();
    await session.close();
  }
}

/** `sync --dry-run`: the plan `plan` would print (with create previews), under sync's name; nothing is locked. */
async function planDryRun(
  ctx: CommandContext,
  flags: SyncFlags,
  loaded: LoadedRun,
  run: Omit<Parameters<typeof planRun>[1], 'state'> & {
    preflight: Parameters<typeof checkBeforeCreating>[3];
    done: () => Promise<void>;
  },
): Promise<number> {
  const { preflight, done, ...planInput } = run;
  const state = await readState(loaded.target.statePath, stateIdentity(loaded.target));
  const planned = await planRun(loaded, { ...planInput, state });
  const plan = await checkBeforeCreating(loaded, run.session, planned, preflight);
  await done();
  const comment = await readCommentContext(ctx.env, ctx.cwd, flags.format, flags.target);
  const options = {
    color: useColor(ctx),
    command: 'sync' as const,
    commandMark: ctx.commandMark,
    ...comment,
  };
  await writeOutput(ctx.stdout, planRenderers[flags.format](plan, options));
  return planExitCode(plan);
}

/**
 * Ctrl-C once: `stop` (no new creates; the ones in flight finish and are recorded). Twice: `abort` the requests in
 * flight (the journal settles them next run).
 */
function listenForInterrupts(progress: Progress) {
  const stop = new AbortController();
  const abort = new AbortController();
  // Every request in flight listens to these: with --concurrency above 10 Node would warn about a leak that is not one.
  setMaxListeners(0, stop.signal, abort.signal);
  const removeInterrupt = onInterrupt(() => {
    if (!stop.signal.aborted) {
      stop.abort(new Error('interrupted'));
      progress.onEvent({
        type: 'notice',
        message: 'stopping: finishing creates in flight (Ctrl-C again to abort them)',
      });
    } else abort.abort(new Error('aborted'));
  });
  return { stop: stop.signal, abort: abort.signal, removeInterrupt };
}

/** `--lock-timeout` seconds of waiting for another sync of the target, saying who holds the lock. */
function syncLockOptions(
  timeoutSeconds: number,
  signal: AbortSignal,
  onEvent: (event: ApplyEvent) => void,
): LockOptions {
  return {
    timeoutMs: timeoutSeconds * 1000,
    signal,
    onWait: (holder) =>
      onEvent({
        type: 'notice',
        message: `waiting for the lock held by pid ${holder.pid} on ${holder.hostname} since ${holder.startedAt}`,
      }),
  };
}

/** The result in `--format` (and the GitHub step summary), once the progress display has ended; the exit code. */
async function reportSync(
  ctx: CommandContext,
  flags: SyncFlags,
  result: SyncResult,
  progress: Progress,
): Promise<number> {
  await progress.done();
  const comment = await readCommentContext(ctx.env, ctx.cwd, flags.format, flags.target);
  await writeOutput(
    ctx.stdout,
    syncRenderers[flags.format](result, {
      color: useColor(ctx),
      command: 'sync',
      commandMark: ctx.commandMark,
      ...comment,
    }),
  );
  if (flags.format === 'github' && ctx.env.GITHUB_STEP_SUMMARY) {
    await appendFileText(ctx.env.GITHUB_STEP_SUMMARY, fileText(ctx, renderSyncStepSummary(result, comment)));
  }
  const byStatus = {
    ok: ExitCode.Ok,
    'action-needed': ExitCode.NeedsPerson,
    failed: ExitCode.Failure,
    auth: ExitCode.Auth,
    'rate-limited': ExitCode.RateLimited,
  } as const;
  const code: number = byStatus[result.status];
  // Interrupted with nothing worse wrong still must not look like success, nor like a person's job alone.
  const interrupted = result.interrupted && (code === ExitCode.Ok || code === ExitCode.NeedsPerson);
  return interrupted ? ExitCode.Failure : code;
}

async function readReviewedPlan(file: string): Promise<Plan> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new WfsyncError(
      `cannot read the plan ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
      { exitCode: ExitCode.Usage },
    );
  }
  try {
    const checked = checkReviewedPlan(parseJson(text));
    if ('problem' in checked) throw new Error(checked.problem);
    return checked.plan;
  } catch (error) {
    throw new WfsyncError(
      `${file} is not a plan written by "wfsync plan --out": ${(error as Error).message}`,
      { exitCode: ExitCode.Invalid },
    );
  }
}

function assertPlanHolds(reviewed: Plan, fresh: Plan, file: string): void {
  const reasons = findPlanStaleness(reviewed, fresh);
  if (reasons.length === 0) return;
  const shown = reasons.slice(0, 20).map((r) => `  - ${r}`);
  if (reasons.length > 20) shown.push(`  … and ${reasons.length - 20} more`);
  throw new WfsyncError(
    `the reviewed plan ${file} is stale; nothing was sent. Run "wfsync plan --out ${file}" again and review it:\n${shown.join('\n')}`,
    { exitCode: ExitCode.Changes },
  );
}
