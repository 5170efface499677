import { setMaxListeners } from 'node:events';
import { planExitCode, syncExitCode } from '../../api/outcome.js';
import { runSyncing, type SyncRun } from '../../api/sync.js';
import type { RunContext } from '../../plan/command-line.js';
import { renderPlanJson, renderSyncJson } from '../../report/plan/json.js';
import { renderSyncStepSummary } from '../../report/plan/markdown.js';
import { type PlanFormat, planRenderers, syncRenderers } from '../../report/plan/renderers.js';
import { appendFileText, writeOutput } from '../../report/write-output.js';
import { type CommandContext, fileText, useColor } from '../context.js';
import { onInterrupt } from '../interrupt.js';
import { checkOutputFile, writeOutputFile } from '../output-file.js';
import type { Progress } from '../progress/index.js';
import { clientListener, logListener, progressFor } from '../run-helpers.js';
import { parseTargetArguments, type TargetArguments, type TargetValues } from '../run-options.js';
import { readCommentContext } from '../stamp.js';

/** `wfsync sync`'s arguments, parsed once from argv (parseSyncArguments). */
export interface SyncArguments extends TargetArguments {
  format: PlanFormat;
  /** Also write the JSON document `--format json` prints (the sync result; the plan with `--dry-run`) to this file. */
  out?: string;
  dryRun: boolean;
  plan?: string;
  lockTimeout: number;
  /** As plan's `--base` (explicit only: sync does not read GITHUB_BASE_REF). */
  base?: string;
}

/** Commander's values of sync's options (cli/commands/sync.ts), the global ones included. */
export type SyncValues = TargetValues &
  Omit<SyncArguments, keyof TargetArguments | 'dryRun'> & { dryRun?: boolean };

export function parseSyncArguments(paths: string[], values: SyncValues): SyncArguments {
  const { format, out, plan, lockTimeout, base } = values;
  return {
    ...parseTargetArguments(values, paths),
    format,
    dryRun: values.dryRun === true,
    lockTimeout,
    ...(out === undefined ? {} : { out }),
    ...(plan === undefined ? {} : { plan }),
    ...(base === undefined ? {} : { base }),
  };
}

export async function runSync(ctx: CommandContext, paths: string[], values: SyncValues): Promise<number> {
  const args = parseSyncArguments(paths, values);
  // 0. `--out` may not be (or lie under) a symbolic link: refused before anything is applied.
  if (args.out !== undefined) checkOutputFile(ctx.cwd, '--out', args.out);
  // 1. The run, by the API (load, open, lock, reconcile, plan, preflight, apply); progress and notes on stderr,
  //    Ctrl-C as the API's two signals.
  const progress = progressFor(ctx, args.quiet);
  const { stop, abort, removeInterrupt } = listenForInterrupts(progress);
  let run: SyncRun;
  try {
    run = await runSyncing({
      options: args.options,
      cwd: ctx.cwd,
      env: ctx.env,
      dryRun: args.dryRun,
      lockTimeout: args.lockTimeout,
      verbose: args.verbose,
      ...(args.plan === undefined ? {} : { plan: args.plan }),
      ...(args.base === undefined ? {} : { base: args.base }),
      onEvent: progress.onEvent,
      onClientEvent: clientListener(ctx, args.verbose, progress),
      onLog: logListener(ctx, args),
      stop,
      abort,
    });
  } finally {
    removeInterrupt();
    await progress.done();
  }
  // 2. Report in `--format` (`--dry-run`: the plan `plan` would print, under sync's name), and the exit code.
  return run.kind === 'plan'
    ? reportDryRun(ctx, args, run.plan, run.run)
    : reportSync(ctx, args, run.result, run.run);
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

async function reportDryRun(
  ctx: CommandContext,
  args: SyncArguments,
  plan: Extract<SyncRun, { kind: 'plan' }>['plan'],
  run: RunContext,
): Promise<number> {
  const comment = { ...(await readCommentContext(ctx.env, ctx.cwd, args.format, args.options.target)), run };
  const options = {
    color: useColor(ctx),
    command: 'sync' as const,
    commandMark: ctx.commandMark.get,
    ...comment,
  };
  await writeOutput(ctx.stdout, planRenderers[args.format](plan, options));
  if (args.out) await writeOutputFile(ctx.cwd, '--out', args.out, fileText(ctx, renderPlanJson(plan)));
  return planExitCode(plan);
}

/** The result in `--format` (and the GitHub step summary); the exit code. */
async function reportSync(
  ctx: CommandContext,
  args: SyncArguments,
  result: Extract<SyncRun, { kind: 'sync' }>['result'],
  run: RunContext,
): Promise<number> {
  const comment = { ...(await readCommentContext(ctx.env, ctx.cwd, args.format, args.options.target)), run };
  await writeOutput(
    ctx.stdout,
    syncRenderers[args.format](result, {
      color: useColor(ctx),
      command: 'sync',
      commandMark: ctx.commandMark.get,
      ...comment,
    }),
  );
  if (args.out) await writeOutputFile(ctx.cwd, '--out', args.out, fileText(ctx, renderSyncJson(result)));
  if (args.format === 'github' && ctx.env.GITHUB_STEP_SUMMARY) {
    await appendFileText(ctx.env.GITHUB_STEP_SUMMARY, fileText(ctx, renderSyncStepSummary(result, comment)));
  }
  return syncExitCode(result);
}
