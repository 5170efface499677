import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { applyPlan } from '../apply/apply-plan.js';
import type { ApplyEvent } from '../apply/events.js';
import { applyPromotion } from '../apply/promote-plan.js';
import { reconcilePending } from '../apply/reconcile-pending.js';
import type { SyncResult } from '../apply/result.js';
import type { TargetOptions } from '../config/target.js';
import { WfsyncError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { parseJson } from '../json.js';
import { commandLine, type RunContext } from '../plan/command-line.js';
import { checkReviewedPlan, findPlanStaleness } from '../plan/staleness.js';
import type { Plan } from '../plan/types.js';
import { buildSyncJson } from '../report/plan/json.js';
import type { LockOptions } from '../state/lock.js';
import { readState } from '../state/read.js';
import type { SyncDocument } from './documents.js';
import { AbortError, asAbortError, throwIfAborted } from './errors.js';
import { processDefaults, type RunHooks, type TargetApiOptions, targetOptions } from './options.js';
import { syncExitCode } from './outcome.js';
import { type LoadedRun, loadRun, openRun, planRun, stateIdentity, withLockedState } from './pipeline.js';
import { linkedSignal, logDetails, type PlanResult, planResult, readOnlyClient } from './plan.js';
import { checkBeforeCreating, startPreflightReads } from './preflight.js';
import { checkPromotionKeys, openPromotion, planPromotedTarget, planPromotion } from './promotion.js';

/** `wfsync sync`'s options, camelCase. */
export interface SyncOptions extends TargetApiOptions, RunHooks {
  /** `--dry-run`: plan only (the plan document), send no POST, take no lock. */
  dryRun?: boolean;
  /** `--plan`: apply exactly this reviewed plan (a `plan --out` file, from `cwd`); a stale one is refused. */
  plan?: string;
  /** `--base`: as for plan (explicit only: sync does not read `GITHUB_BASE_REF`). */
  base?: string;
  /** `--lock-timeout`: seconds to wait for another sync of the same target (default 60). */
  lockTimeout?: number;
  /**
   * Stop starting new creates, finish the ones in flight and record them (the CLI's first Ctrl-C): the result then
   * says `interrupted: true`. `signal` aborts the requests in flight too, and rejects with an AbortError.
   */
  stopSignal?: AbortSignal;
}

/** What sync did: the `--format json` document, and what it leaves to whom. */
export interface SyncRunResult {
  document: SyncDocument;
  /** The CLI's exit code: 0 all created or in sync, 6 a person must act, 1 a failure or an interruption, 4 auth, 5 rate limited. */
  exitCode: ExitCode;
  /** Some workflow needs a person (drift, local changes, conflict, missing, orphaned, skipped). */
  needsPerson: boolean;
}

/**
 * `wfsync sync` as a function: creates what the service lacks (journaled, one sync per target at a time), verifies
 * the rest, records state. With `dryRun` it is `plan` (its result a plan). Rejects with a WfsyncError (see `code`)
 * when it cannot start; with an AbortError when `signal` aborts (creates done before it are recorded).
 */
export async function sync(options: SyncOptions & { dryRun: true }): Promise<PlanResult>;
export async function sync(options?: SyncOptions & { dryRun?: false }): Promise<SyncRunResult>;
export async function sync(options?: SyncOptions): Promise<SyncRunResult | PlanResult>;
export async function sync(options: SyncOptions = {}): Promise<SyncRunResult | PlanResult> {
  const { cwd, env } = processDefaults(options);
  throwIfAborted(options.signal);
  const abort = options.signal && linkedSignal(options.signal);
  const stop = linkedSignal(
    options.signal && options.stopSignal
      ? AbortSignal.any([options.signal, options.stopSignal])
      : (options.signal ?? options.stopSignal ?? new AbortController().signal),
  );
  const { dryRun, base, onEvent, onClientEvent, onLog, verbose } = options;
  const input: SyncInput = {
    options: targetOptions(options, cwd),
    cwd,
    env,
    dryRun,
    base,
    onEvent,
    onClientEvent,
    onLog,
    verbose,
    lockTimeout: options.lockTimeout ?? 60,
    ...(options.plan === undefined ? {} : { plan: resolve(cwd, options.plan) }),
    stop,
    ...(abort ? { abort } : {}),
  };
  let run: SyncRun;
  try {
    run = await runSyncing(input);
  } catch (error) {
    throw asAbortError(error, options.signal);
  }
  if (run.kind === 'plan') return planResult(run.plan);
  const result = syncRunResult(run.result);
  if (options.signal?.aborted) {
    throw new AbortError('aborted: the creates that finished are recorded; run sync again for the rest', {
      document: result.document,
    });
  }
  return result;
}

export function syncRunResult(result: SyncResult): SyncRunResult {
  return {
    document: buildSyncJson(result),
    exitCode: syncExitCode(result),
    needsPerson: result.status === 'action-needed',
  };
}

/**
 * The CLI's sync and the API's: the target options (parsed once, passed as they are), sync's own, the process's
 * parts, and the two signals (stop, then abort).
 */
export type SyncInput = Omit<RunHooks, 'signal'> & {
  options: TargetOptions;
  cwd: string;
  env: NodeJS.ProcessEnv;
  dryRun?: boolean;
  /** The reviewed plan's path, as given (the CLI's from its working directory). */
  plan?: string;
  base?: string;
  lockTimeout: number;
  /** No new creates; the ones in flight finish and are recorded. Also ends fetching and the wait for the lock. */
  stop: AbortSignal;
  /** Requests in flight are aborted (the journal settles them next run). */
  abort?: AbortSignal;
};

/** What sync did (or would do, `--dry-run`), and what the commands its report suggests must repeat of the run. */
export type SyncRun = ({ kind: 'plan'; plan: Plan } | { kind: 'sync'; result: SyncResult }) & {
  run: RunContext;
};

export async function runSyncing(input: SyncInput): Promise<SyncRun> {
  // 1. Config, target, definitions: every check that can fail does so before the first request.
  const loaded = await loadRun(input.options, { cwd: input.cwd, env: input.env, base: input.base });
  if (loaded.target.promoteFrom !== undefined) return syncPromotedTarget(loaded, input);
  const reviewed = input.plan ? await readReviewedPlan(input.plan) : undefined;
  const { session, desired, base } = await openRun(loaded, {
    env: input.env,
    onClientEvent: input.onClientEvent,
    ...(input.abort ? { signal: input.abort } : {}),
  });
  logDetails(input, session.route, base);
  const common = { session, desired, base, onEvent: input.onEvent };
  try {
    // 2a. Dry run: exactly what `plan` does.
    if (input.dryRun) {
      const state = await readState(loaded.target.statePath, stateIdentity(loaded.target));
      const readOnly = { ...session, client: readOnlyClient(session.client) };
      const early = startPreflightReads(loaded, readOnly, desired, state);
      const planned = await planRun(loaded, { ...common, session: readOnly, state });
      const plan = await checkBeforeCreating(loaded, readOnly, planned, input, early);
      return { kind: 'plan', plan, run: loaded.run };
    }
    // 2. One sync per target at a time; then settle creates an earlier run left unfinished.
    input.onEvent?.({ type: 'phase', phase: 'lock' });
    const lock = syncLockOptions(input.lockTimeout, input.stop, input.onEvent);
    return await withLockedState(loaded.target, lock, async (store) => {
      await reconcilePending({ client: session.client, store, onEvent: input.onEvent });
      // 3. What the service holds, and the plan (the preflight's reads beside its lookups).
      const early = startPreflightReads(loaded, session, desired, store.snapshot);
      const planned = await planRun(loaded, {
        ...common,
        state: store.snapshot,
        previews: false,
        signal: input.stop,
      });
      if (reviewed) assertPlanHolds(reviewed, planned, input.plan!, loaded.run);
      // What the service would refuse (a key that may not create, missing groups): stops before the first POST.
      const plan = await checkBeforeCreating(loaded, session, planned, input, early);
      // 4. Apply: create, verify, record.
      const result = await applyPlan({
        plan,
        desired,
        client: session.client,
        store,
        concurrency: loaded.target.concurrency,
        onEvent: input.onEvent,
        signal: input.stop,
        run: loaded.run,
      });
      return { kind: 'sync', result, run: loaded.run };
    });
  } finally {
    await session.close();
  }
}

/**
 * sync of a promoted target (Production): with `--dry-run` its plan; else, under this target's lock, the keys checked,
 * both environments read, and the plan's `promote` items applied through the Development key (apply/promote-plan.ts).
 */
async function syncPromotedTarget(loaded: LoadedRun, input: SyncInput): Promise<SyncRun> {
  const hooks = {
    env: input.env,
    onClientEvent: input.onClientEvent,
    ...(input.abort ? { signal: input.abort } : {}),
  };
  const reviewed = input.plan ? await readReviewedPlan(input.plan) : undefined;
  if (input.dryRun) {
    const { plan } = await planPromotedTarget(loaded, { ...hooks, onEvent: input.onEvent });
    return { kind: 'plan', plan, run: loaded.run };
  }
  const sessions = await openPromotion(loaded, { ...hooks, write: true });
  try {
    await checkPromotionKeys(loaded, sessions);
    input.onEvent?.({ type: 'phase', phase: 'lock' });
    const lock = syncLockOptions(input.lockTimeout, input.stop, input.onEvent);
    return await withLockedState(loaded.target, lock, async (store) => {
      const plan = await planPromotion(loaded, {
        sessions,
        state: store.snapshot,
        onEvent: input.onEvent,
        signal: input.stop,
      });
      // `--plan`: exactly the reviewed promotion, or nothing (a file, Development or Production changed since).
      if (reviewed) assertPlanHolds(reviewed, plan, input.plan!, loaded.run);
      const result = await applyPromotion({
        plan,
        desired: sessions.desired,
        source: sessions.source.client,
        sourceName: sessions.source.target.name,
        production: sessions.session.client,
        store,
        concurrency: loaded.target.concurrency,
        onEvent: input.onEvent,
        signal: input.stop,
        run: loaded.run,
      });
      return { kind: 'sync', result, run: loaded.run };
    });
  } finally {
    await sessions.close();
  }
}

/** `--lock-timeout` seconds of waiting for another sync of the target, saying who holds the lock. */
function syncLockOptions(
  timeoutSeconds: number,
  signal: AbortSignal,
  onEvent: ((event: ApplyEvent) => void) | undefined,
): LockOptions {
  return {
    timeoutMs: timeoutSeconds * 1000,
    signal,
    onWait: (holder) =>
      onEvent?.({
        type: 'notice',
        message: `waiting for the lock held by pid ${holder.pid} on ${holder.hostname} since ${holder.startedAt}`,
      }),
  };
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

function assertPlanHolds(reviewed: Plan, fresh: Plan, file: string, run: RunContext): void {
  const reasons = findPlanStaleness(reviewed, fresh);
  if (reasons.length === 0) return;
  const shown = reasons.slice(0, 20).map((r) => `  - ${r}`);
  if (reasons.length > 20) shown.push(`  … and ${reasons.length - 20} more`);
  throw new WfsyncError(
    `the reviewed plan ${file} is stale; nothing was sent. Run "${commandLine(run, 'plan', { args: ['--out', file] })}" again and review it:\n${shown.join('\n')}`,
    { exitCode: ExitCode.Changes },
  );
}
