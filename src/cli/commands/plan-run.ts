import { planExitCode } from '../../api/outcome.js';
import { type Planning, runPlanning } from '../../api/plan.js';
import { renderPlanCodeClimate } from '../../report/plan/codeclimate.js';
import { renderPlanJson } from '../../report/plan/json.js';
import { renderPlanStepSummary } from '../../report/plan/markdown.js';
import { type PlanCommandFormat, planRenderers } from '../../report/plan/renderers.js';
import { appendFileText, writeOutput } from '../../report/write-output.js';
import { plural } from '../../text.js';
import { type CommandContext, fileText, useColor } from '../context.js';
import { checkOutputFile, writeCodeQualityFile, writeOutputFile } from '../output-file.js';
import { writePlanPreviews } from '../plan-previews.js';
import { clientListener, logListener, progressFor } from '../run-helpers.js';
import type { TargetCommandFlags } from '../run-options.js';
import { readCommentContext } from '../stamp.js';

export interface PlanFlags extends TargetCommandFlags {
  format: PlanCommandFormat;
  out?: string;
  showIgnored?: boolean;
  /** Compare with the definitions at the merge-base of HEAD and this ref (default: GITHUB_BASE_REF, if set). */
  base?: string;
  /** Write an HTML preview of each created or differing workflow (and an index) into this directory. */
  previews?: string;
  /** Also write the Code Quality report (`--format codeclimate`'s document) to this file, from the same plan. */
  codequality?: string;
}

export async function runPlan(ctx: CommandContext, flags: PlanFlags): Promise<number> {
  // 0. The files it will write: none may be (or lie under) a symbolic link, refused before the service is asked.
  if (flags.out !== undefined) checkOutputFile(ctx.cwd, '--out', flags.out);
  if (flags.codequality !== undefined) checkOutputFile(ctx.cwd, '--codequality', flags.codequality);
  if (flags.previews !== undefined) checkOutputFile(ctx.cwd, '--previews', flags.previews);
  // 1. The plan, by the API (load, open, fetch, plan, preflight); progress and notes on stderr.
  const progress = progressFor(ctx, flags.quiet);
  let planning: Planning;
  try {
    planning = await runPlanning({
      ...flags,
      cwd: ctx.cwd,
      env: ctx.env,
      verbose: flags.verbose,
      onEvent: progress.onEvent,
      onClientEvent: clientListener(ctx, flags.verbose, progress),
      onLog: logListener(ctx, flags),
    });
  } finally {
    await progress.done();
  }
  const { plan, desired, run } = planning;
  // 2. Report (a comment says when, at which commit; every suggested command repeats the run's target and files).
  const comment = { ...(await readCommentContext(ctx.env, ctx.cwd, flags.format, flags.target)), run };
  const text = planRenderers[flags.format](plan, {
    color: useColor(ctx),
    command: 'plan',
    showIgnored: flags.showIgnored,
    commandMark: ctx.commandMark.get,
    ...comment,
  });
  await writeOutput(ctx.stdout, text);
  if (flags.codequality !== undefined)
    await writeCodeQualityFile(ctx, flags.codequality, renderPlanCodeClimate(plan));
  if (flags.out) await writeOutputFile(ctx.cwd, '--out', flags.out, fileText(ctx, renderPlanJson(plan)));
  if (flags.previews !== undefined) {
    const { count, shown } = await writePlanPreviews(flags.previews, plan, desired, ctx.cwd);
    if (!flags.quiet)
      await writeOutput(ctx.stderr, `wfsync: ${plural(count, 'preview')} and an index in ${shown}\n`);
  }
  if (flags.format === 'github' && ctx.env.GITHUB_STEP_SUMMARY) {
    await appendFileText(ctx.env.GITHUB_STEP_SUMMARY, fileText(ctx, renderPlanStepSummary(plan, comment)));
  }
  // 3. The exit code.
  return planExitCode(plan);
}
