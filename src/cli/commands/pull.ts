import { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { addTargetOptions, formatOption, lazyAction, parsePositiveInt } from '../run-options.js';

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
    .option('--force', 'overwrite a file at the destination that holds another workflow')
    .option(
      '--split-content <lines>',
      'write template text (content, subject, title) of more than <lines> lines to a file of its own next to ' +
        'the definition, referenced as {file: ./…}; text already kept in a file is always written back there',
      parsePositiveInt,
    )
    .addOption(formatOption(['human', 'json']));
  addTargetOptions(command);
  return command
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  wfsync pull order-shipped --target development    # accept the dashboard version into the file\n' +
        '  wfsync pull 6650f0c0ffee00000000a0b1 --dir workflows/imported\n' +
        '  wfsync pull welcome-email --split-content 20        # long HTML goes to workflows/welcome-email.*.html\n' +
        '  wfsync pull order-shipped --format json             # what was written, as one JSON document',
    )
    .action(lazyAction(ctx, async () => (await import('./pull-run.js')).runPull));
}
