import { Command } from 'commander';
import { clientEventsForProgress } from '../../apply/index.js';
import { ExitCode } from '../../exit-codes.js';
import type { Plan } from '../../plan/types.js';
import { type PlanFormat, planRenderers, renderPlanStepSummary } from '../../report/plan/renderers.js';
import { appendFileText, writeFileText, writeOutput } from '../../report/write-output.js';
import { readState } from '../../state/index.js';
import { type CommandContext, useColor } from '../context.js';
import { loadRun, openRun, planRun, stateIdentity } from '../pipeline.js';
import {
  addOnlyOption,
  addTargetOptions,
  formatOption,
  progressFor,
  readOnlyClient,
  type TargetCommandFlags,
} from '../run-options.js';
import { combineListeners, verboseClientLog } from '../verbose.js';

interface PlanFlags extends TargetCommandFlags {
  format: PlanFormat;
  out?: string;
  showIgnored?: boolean;
}

export function planCommand(ctx: CommandContext): Command {
  const command = new Command('plan')
    .summary('show what differs between the definitions and the service (read-only)')
    .description(
      'For each definition, find the workflow on the service and show what differs, as a diff. Read-only: plan\n' +
        'never sends a POST. Exit 0 when there is nothing to do, 2 when something would be created or differs.',
    )
    .addOption(formatOption(['human', 'json', 'markdown', 'github']))
    .option('-o, --out <file>', 'also write the plan as JSON (for review, or for "wfsync sync --plan")')
    .option('--show-ignored', 'list the server-managed fields that are never compared');
  addTargetOptions(command);
  addOnlyOption(command);
  return command
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  wfsync plan                                   # against the default target\n' +
        '  wfsync plan --target production --out plan.json\n' +
        '  wfsync plan --format markdown > comment.md    # a pull-request comment\n' +
        '  wfsync plan --only "order-*"\n' +
        '\nExit codes: 0 nothing to do, 2 changes or drift, 1 service unreachable, 3 invalid, 4 auth, 5 rate limited.',
    )
    .action(async (flags: PlanFlags, cmd: Command) => {
      ctx.exitCode = await runPlan(ctx, { ...cmd.optsWithGlobals(), ...flags });
    });
}

async function runPlan(ctx: CommandContext, flags: PlanFlags & { config?: string }): Promise<number> {
  // 1. Config, target and definitions, all validated before anything goes out.
  const loaded = await loadRun(flags, ctx.cwd, ctx.env);
  const progress = progressFor(ctx, flags.quiet);
  // 2. The target (and for `local`, the embedded service) and the bodies that would be sent.
  const { session, desired } = await openRun(loaded, {
    env: ctx.env,
    ...(flags.only ? { only: flags.only } : {}),
    onClientEvent: combineListeners(
      clientEventsForProgress(progress.onEvent),
      flags.verbose ? verboseClientLog(ctx.stderr) : undefined,
    ),
  });
  let plan: Plan;
  try {
    // 3. State (read-only: plan takes no lock and writes nothing), then what the service holds.
    const state = await readState(loaded.target.statePath, stateIdentity(session));
    plan = await planRun({
      session: { ...session, client: readOnlyClient(session.client) },
      desired,
      state,
      concurrency: loaded.target.concurrency,
      ...(flags.only ? { only: flags.only } : {}),
      onEvent: progress.onEvent,
    });
  } finally {
    await progress.done();
    await session.close();
  }
  // 4. Report.
  const text = planRenderers[flags.format](plan, {
    color: useColor(ctx),
    command: 'plan',
    ...(flags.showIgnored ? { showIgnored: true } : {}),
  });
  await writeOutput(ctx.stdout, text);
  if (flags.out) await writeFileText(flags.out, `${JSON.stringify(plan, null, 2)}\n`);
  if (flags.format === 'github' && ctx.env.GITHUB_STEP_SUMMARY) {
    await appendFileText(ctx.env.GITHUB_STEP_SUMMARY, renderPlanStepSummary(plan));
  }
  return planExitCode(plan);
}

/** 0 nothing to do; 2 something to create or act on; 1 when the service could not be asked about some. */
export function planExitCode(plan: Plan): number {
  const s = plan.summary;
  if (s.error > 0) return ExitCode.Failure;
  const actionable = s.create + s.drifted + s.changedLocally + s.missingRemotely + s.conflict;
  return actionable > 0 ? ExitCode.Changes : ExitCode.Ok;
}
