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
import type { TargetCommandFlags } from '../run-options.js';
import { readCommentContext } from '../stamp.js';

export interface SyncFlags extends TargetCommandFlags {
  format: PlanFormat;
  /** Also write the JSON document `--format json` prints (the sync result; the plan with `--dry-run`) to this file. */
  out?: string;
  dryRun?: boolean;
  plan?: string;
  lockTimeout: number;
  /** As plan's `--base` (explicit only: sync does not read GITHUB_BASE_REF). */
  base?: string;
}

export async function runSync(ctx: CommandContext, flags: SyncFlags): Promise<number> {
  // 0. `--out` may not be (or lie under) a symbolic link: refused before anything is applied.
  if (flags.out !== undefined) checkOutputFile(ctx.cwd, '--out', flags.out);
  // 1. The run, by the API (load, open, lock, reconcile, plan, preflight, apply); progress and notes on stderr,
  //    Ctrl-C as the API's two signals.
  const progress = progressFor(ctx, flags.quiet);
  const { stop, abort, removeInterrupt } = listenForInterrupts(progress);
  let run: SyncRun;
  try {
    run = await runSyncing({
      ...flags,
      cwd: ctx.cwd,
      env: ctx.env,
      onEvent: progress.onEvent,
      onClientEvent: clientListener(ctx, flags.verbose, progress),
      onLog: logListener(ctx, flags),
      stop,
      abort,
    });
  } finally {
    removeInterrupt();
    await progress.done();
  }
  // 2. Report in `--format` (`--dry-run`: the plan `plan` would print, under sync's name), and the exit code.
  return run.kind === 'plan'
    ? reportDryRun(ctx, flags, run.plan, run.run)
    : reportSync(ctx, flags, run.result, run.run);
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
  flags: SyncFlags,
  plan: Extract<SyncRun, { kind: 'plan' }>['plan'],
  run: RunContext,
): Promise<number> {
  const comment = { ...(await readCommentContext(ctx.env, ctx.cwd, flags.format, flags.target)), run };
  const options = {
    color: useColor(ctx),
    command: 'sync' as const,
    commandMark: ctx.commandMark.get,
    ...comment,
  };
  await writeOutput(ctx.stdout, planRenderers[flags.format](plan, options));
  if (flags.out) await writeOutputFile(ctx.cwd, '--out', flags.out, fileText(ctx, renderPlanJson(plan)));
  return planExitCode(plan);
}

/** The result in `--format` (and the GitHub step summary); the exit code. */
async function reportSync(
  ctx: CommandContext,
  flags: SyncFlags,
  result: Extract<SyncRun, { kind: 'sync' }>['result'],
  run: RunContext,
): Promise<number> {
  const comment = { ...(await readCommentContext(ctx.env, ctx.cwd, flags.format, flags.target)), run };
  await writeOutput(
    ctx.stdout,
    syncRenderers[flags.format](result, {
      color: useColor(ctx),
      command: 'sync',
      commandMark: ctx.commandMark.get,
      ...comment,
    }),
  );
  if (flags.out) await writeOutputFile(ctx.cwd, '--out', flags.out, fileText(ctx, renderSyncJson(result)));
  if (flags.format === 'github' && ctx.env.GITHUB_STEP_SUMMARY) {
    await appendFileText(ctx.env.GITHUB_STEP_SUMMARY, fileText(ctx, renderSyncStepSummary(result, comment)));
  }
  return syncExitCode(result);
}
