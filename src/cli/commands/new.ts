import { Command, InvalidArgumentError, Option } from 'commander';
import { CHANNELS, type Channel, DEFAULT_CHANNEL } from '../../scaffold/channels.js';
import type { CommandContext } from '../context.js';
import { formatOption, lazyAction } from '../run-options.js';

/** `--channel` named again adds a step; an unknown one is a usage error naming the choices. */
function collectChannel(value: string, previous: Channel[] | undefined): Channel[] {
  if (!(CHANNELS as readonly string[]).includes(value))
    throw new InvalidArgumentError(`Allowed choices are ${CHANNELS.join(', ')}.`);
  return [...(previous ?? []), value as Channel];
}

export function newCommand(ctx: CommandContext): Command {
  return new Command('new')
    .summary('write a new workflow definition that validates as is')
    .description(
      'Write <workflows dir>/<identifier>.yaml: a definition named NAME with one step of the channel and example ' +
        'content, and the trigger the service will derive (its identifier from the name, its variables from the ' +
        'content), so "wfsync validate" passes at once. Refuses to overwrite a file (unless --force) and to reuse ' +
        'an identifier another definition has.',
    )
    .argument(
      '<name>',
      'workflow name; lower-case words ("order shipped") give the same identifier on every server',
    )
    .addOption(
      new Option(
        '--channel <channel>',
        `channel of a message step: ${CHANNELS.join(', ')} (repeatable: one step each, in order; default ${DEFAULT_CHANNEL})`,
      ).argParser(collectChannel),
    )
    .option('--digest <window>', 'collect events first, then send one message: 30m, 1h, 1d, 1w, 1mo')
    .option('--delay <window>', 'wait first (before a digest): 30s, 10m, 1h, 2d')
    .option('--dir <dir>', 'directory to write to (default: the workflows directory from config)')
    .option('--force', 'overwrite the file if it exists')
    .addOption(formatOption(['human', 'json']))
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  wfsync new "order shipped"                 # workflows/order-shipped.yaml, an in-app message\n' +
        '  wfsync new "invoice paid" --channel email\n' +
        '  wfsync new "payment failed" --channel email --channel sms   # two steps, in that order\n' +
        '  wfsync new "weekly summary" --digest 1w --channel email     # a digest step, then the email\n' +
        '  wfsync new "build failed" --channel chat --dir workflows/engineering\n' +
        '  wfsync new "order shipped" --format json              # what was written, as one JSON document\n' +
        '\nExit codes: 0 written, 1 the file could not be written, 3 invalid config, 64 usage error (also: the\n' +
        'file exists, or the identifier is taken).',
    )
    .action(lazyAction(ctx, async () => (await import('./new-run.js')).runNew));
}
