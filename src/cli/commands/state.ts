import { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { addTargetOptions, formatOption, lazyAction } from '../run-options.js';

export function stateCommand(ctx: CommandContext): Command {
  const state = new Command('state')
    .summary("show, rebuild or edit a target's state file")
    .description(
      'State maps each trigger identifier to the workflow id it was created as, plus the hash of the definition. ' +
        'It is a cache of identity, not the only truth: plan and sync look identifiers up on the service when an ' +
        'entry is missing, and "rebuild" recreates the whole file from the service.',
    );
  const show = addTargetOptions(
    new Command('show').description("print the target's state").addOption(formatOption(['human', 'json'])),
  ).action(lazyAction(ctx, async () => (await import('./state-run.js')).runShow));
  const rebuild = addTargetOptions(
    new Command('rebuild').description(
      'rebuild the state file from the service: look every definition up by identifier (after settling interrupted creates)',
    ),
  ).action(lazyAction(ctx, async () => (await import('./state-run.js')).runRebuild));
  const forget = addTargetOptions(
    new Command('forget')
      .description(
        'remove entries (e.g. orphaned workflows deleted in the dashboard); nothing is sent to the service',
      )
      .argument('<identifier...>', 'trigger identifiers to remove'),
  ).action(lazyAction(ctx, async () => (await import('./state-run.js')).runForget));
  return state.addCommand(show).addCommand(rebuild).addCommand(forget);
}
