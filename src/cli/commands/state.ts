import { Command, Option } from 'commander';
import type { CommandContext } from '../context.js';
import { addTargetOptions, type TargetCommandFlags } from '../run-options.js';

export type Globals = TargetCommandFlags & { config?: string };

export function stateCommand(ctx: CommandContext): Command {
  const state = new Command('state')
    .summary("show, rebuild or edit a target's state file")
    .description(
      'State maps each trigger identifier to the workflow id it was created as, plus the hash of the definition. ' +
        'It is a cache of identity, not the only truth: plan and sync look identifiers up on the service when an ' +
        'entry is missing, and "rebuild" recreates the whole file from the service.',
    );
  const show = addTargetOptions(
    new Command('show')
      .description("print the target's state")
      .addOption(
        new Option('-f, --format <format>', 'output format').choices(['human', 'json']).default('human'),
      ),
  ).action(async (flags: Globals & { format: 'human' | 'json' }, cmd: Command) => {
    ctx.exitCode = await (await import('./state-run.js')).runShow(ctx, {
      ...cmd.optsWithGlobals(),
      ...flags,
    });
  });
  const rebuild = addTargetOptions(
    new Command('rebuild').description(
      'rebuild the state file from the service: look every definition up by identifier (after settling interrupted creates)',
    ),
  ).action(async (flags: Globals, cmd: Command) => {
    ctx.exitCode = await (await import('./state-run.js')).runRebuild(ctx, {
      ...cmd.optsWithGlobals(),
      ...flags,
    });
  });
  const forget = addTargetOptions(
    new Command('forget')
      .description(
        'remove entries (e.g. orphaned workflows deleted in the dashboard); nothing is sent to the service',
      )
      .argument('<identifier...>', 'trigger identifiers to remove'),
  ).action(async (identifiers: string[], flags: Globals, cmd: Command) => {
    ctx.exitCode = await (await import('./state-run.js')).runForget(ctx, identifiers, {
      ...cmd.optsWithGlobals(),
      ...flags,
    });
  });
  return state.addCommand(show).addCommand(rebuild).addCommand(forget);
}
