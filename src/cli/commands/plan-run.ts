import { ExitCode } from '../../exit-codes.js';
import type { Plan } from '../../plan/types.js';
import { renderPlanJson } from '../../report/plan/json.js';
import { renderPlanStepSummary } from '../../report/plan/markdown.js';
import { type PlanFormat, planRenderers } from '../../report/plan/renderers.js';
import { appendFileText, writeFileText, writeOutput } from '../../report/write-output.js';
import { readState } from '../../state/read.js';
import { plural } from '../../text.js';
import { type CommandContext, fileText, useColor } from '../context.js';
import { loadRun, openRun, planRun, stateIdentity } from '../pipeline.js';
import { writePlanPreviews } from '../plan-previews.js';
import { checkBeforeCreating } from '../preflight.js';
import { clientListener, progressFor, readOnlyClient } from '../run-helpers.js';
import type { TargetCommandFlags } from '../run-options.js';
import { readCommentContext } from '../stamp.js';

export interface PlanFlags extends TargetCommandFlags {
  format: PlanFormat;
  out?: string;
  showIgnored?: boolean;
  /** Compare with the definitions at the merge-base of HEAD and this ref (default: GITHUB_BASE_REF, if set). */
  base?: string;
  /** Write an HTML preview of each created or differing workflow (and an index) into this directory. */
  previews?: string;
}

export async function runPlan(ctx: CommandContext, flags: PlanFlags): Promise<number> {
  // 1. Config, target and definitions, all validated before anything goes out.
  const loaded = await loadRun(flags, ctx.cwd, ctx.env, { baseFromEnv: true });
  const progress = progressFor(ctx, flags.quiet);
  // 2. The target (and for `local`, the embedded service) and the bodies that would be sent.
  const { session, desired, base } = await openRun(loaded, {
    env: ctx.env,
    onClientEvent: clientListener(ctx, flags.verbose, progress),
  });
  if (flags.verbose) await writeOutput(ctx.stderr, `wfsync: ${session.route}\n`);
  if (flags.verbose && base) {
    await writeOutput(ctx.stderr, `wfsync: base: ${base.ref}, compared at the merge-base ${base.commit}\n`);
  }
  let plan: Plan;
  try {
    // 3. State (read-only: plan takes no lock and writes nothing), then what the service holds.
    const state = await readState(loaded.target.statePath, stateIdentity(loaded.target));
    const readOnly = { ...session, client: readOnlyClient(session.client) };
    plan = await planRun(loaded, { session: readOnly, desired, state, base, onEvent: progress.onEvent });
    // 4. What sync would be refused for (the key's environment, missing groups): asked now, read-only.
    plan = await checkBeforeCreating(loaded, readOnly, plan, {
      stderr: ctx.stderr,
      verbose: flags.verbose,
      quiet: flags.quiet,
    });
  } finally {
    await progress.done();
    await session.close();
  }
  // 5. Report (a comment says when, at which commit, and repeats the --target given).
  const comment = await readCommentContext(ctx.env, ctx.cwd, flags.format, flags.target);
  const text = planRenderers[flags.format](plan, {
    color: useColor(ctx),
    command: 'plan',
    showIgnored: flags.showIgnored,
    commandMark: ctx.commandMark,
    ...comment,
  });
  await writeOutput(ctx.stdout, text);
  if (flags.out) await writeFileText(flags.out, fileText(ctx, renderPlanJson(plan)));
  if (flags.previews !== undefined) {
    const { count, shown } = await writePlanPreviews(flags.previews, plan, desired, ctx.cwd);
    if (!flags.quiet)
      await writeOutput(ctx.stderr, `wfsync: ${plural(count, 'preview')} and an index in ${shown}\n`);
  }
  if (flags.format === 'github' && ctx.env.GITHUB_STEP_SUMMARY) {
    await appendFileText(ctx.env.GITHUB_STEP_SUMMARY, fileText(ctx, renderPlanStepSummary(plan, comment)));
  }
  return planExitCode(plan);
}

/**
 * 1 when the service could not be asked about some; else 6 when a workflow needs a person (sync cannot settle it);
 * else 2 when sync has something to do (create, or record in state); else 0.
 */
export function planExitCode(plan: Plan): number {
  const s = plan.summary;
  if (s.error > 0) return ExitCode.Failure;
  if (s.drifted + s.changedLocally + s.missingRemotely + s.conflict + s.orphaned > 0)
    return ExitCode.NeedsPerson;
  // Recording an identity the service already holds as the file says changes nothing a reviewer must see: 0.
  return s.create > 0 ? ExitCode.Changes : ExitCode.Ok;
}
