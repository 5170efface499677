import { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { addTargetOptions, type TargetCommandFlags } from '../run-options.js';

export interface PullFlags extends TargetCommandFlags {
  dir?: string;
  force?: boolean;
}

export function pullCommand(ctx: CommandContext): Command {
  const command = new Command('pull')
    .summary("write the service's workflow as a definition file and record it in state")
    .description(
      'Fetch workflows from the service and write each as a definition file (declarable fields only, server ' +
        'defaults left out, stable key order, schema modeline), then record it in state. Use it to adopt a workflow ' +
        'made in the dashboard, or to accept drift: the file of the same identifier is edited in place (comments and layout kept).',
    )
    .argument('<workflow...>', 'workflow ids (24 hex) or trigger identifiers')
    .option('--dir <dir>', 'where new definition files go (default: the workflows directory)')
    .option('--force', 'overwrite a file at the destination that holds another workflow');
  addTargetOptions(command);
  return command
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  wfsync pull order-shipped --target production     # accept the dashboard version into the file\n' +
        '  wfsync pull 6650f0c0ffee00000000a0b1 --dir workflows/imported',
    )
    .action(async (workflows: string[], flags: PullFlags, cmd: Command) => {
      ctx.exitCode = await (await import('./pull-run.js')).runPull(ctx, workflows, {
        ...cmd.optsWithGlobals(),
        ...flags,
      });
    });
}
