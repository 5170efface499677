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
import { parseTargetArguments, type TargetArguments, type TargetValues } from '../run-options.js';
import { readCommentContext } from '../stamp.js';

/** `wfsync plan`'s arguments, parsed once from argv (parsePlanArguments). */
export interface PlanArguments extends TargetArguments {
  format: PlanCommandFormat;
  out?: string;
  showIgnored: boolean;
  /** Compare with the definitions at the merge-base of HEAD and this ref (default: GITHUB_BASE_REF, if set). */
  base?: string;
  /** Write an HTML preview of each created or differing workflow (and an index) into this directory. */
  previews?: string;
  /** Also write the Code Quality report (`--format codeclimate`'s document) to this file, from the same plan. */
  codequality?: string;
}

/** Commander's values of plan's options (cli/commands/plan.ts), the global ones included. */
export type PlanValues = TargetValues &
  Omit<PlanArguments, keyof TargetArguments | 'showIgnored'> & {
    showIgnored?: boolean;
  };

export function parsePlanArguments(paths: string[], values: PlanValues): PlanArguments {
  const { format, out, base, previews, codequality } = values;
  return {
    ...parseTargetArguments(values, paths),
    format,
    showIgnored: values.showIgnored === true,
    ...(out === undefined ? {} : { out }),
    ...(base === undefined ? {} : { base }),
    ...(previews === undefined ? {} : { previews }),
    ...(codequality === undefined ? {} : { codequality }),
  };
}

export async function runPlan(ctx: CommandContext, paths: string[], values: PlanValues): Promise<number> {
  const args = parsePlanArguments(paths, values);
  // 0. The files it will write: none may be (or lie under) a symbolic link, refused before the service is asked.
  if (args.out !== undefined) checkOutputFile(ctx.cwd, '--out', args.out);
  if (args.codequality !== undefined) checkOutputFile(ctx.cwd, '--codequality', args.codequality);
  if (args.previews !== undefined) checkOutputFile(ctx.cwd, '--previews', args.previews);
  // 1. The plan, by the API (load, open, fetch, plan, preflight); progress and notes on stderr.
  const progress = progressFor(ctx, args.quiet);
  let planning: Planning;
  try {
    planning = await runPlanning({
      options: args.options,
      base: args.base,
      cwd: ctx.cwd,
      env: ctx.env,
      verbose: args.verbose,
      onEvent: progress.onEvent,
      onClientEvent: clientListener(ctx, args.verbose, progress),
      onLog: logListener(ctx, args),
    });
  } finally {
    await progress.done();
  }
  const { plan, desired, run } = planning;
  // 2. Report (a comment says when, at which commit; every suggested command repeats the run's target and files).
  const comment = { ...(await readCommentContext(ctx.env, ctx.cwd, args.format, args.options.target)), run };
  const text = planRenderers[args.format](plan, {
    color: useColor(ctx),
    command: 'plan',
    showIgnored: args.showIgnored,
    commandMark: ctx.commandMark.get,
    ...comment,
  });
  await writeOutput(ctx.stdout, text);
  if (args.codequality !== undefined)
    await writeCodeQualityFile(ctx, args.codequality, renderPlanCodeClimate(plan));
  if (args.out) await writeOutputFile(ctx.cwd, '--out', args.out, fileText(ctx, renderPlanJson(plan)));
  if (args.previews !== undefined) {
    const { count, shown } = await writePlanPreviews(args.previews, plan, desired, ctx.cwd);
    if (!args.quiet)
      await writeOutput(ctx.stderr, `wfsync: ${plural(count, 'preview')} and an index in ${shown}\n`);
  }
  if (args.format === 'github' && ctx.env.GITHUB_STEP_SUMMARY) {
    await appendFileText(ctx.env.GITHUB_STEP_SUMMARY, fileText(ctx, renderPlanStepSummary(plan, comment)));
  }
  // 3. The exit code.
  return planExitCode(plan);
}
