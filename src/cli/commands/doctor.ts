import { Command } from 'commander';
import type { CommandContext } from '../context.js';
import { formatOption, lazyAction } from '../run-options.js';

export function doctorCommand(ctx: CommandContext): Command {
  return new Command('doctor')
    .summary('check the setup, in order, and say what to fix')
    .description(
      'Check, in order, and print one line per check with what to do: the Node version, the config, the ' +
        "definitions, the API key's variable (never its value), the service reachable (through the proxy, if " +
        "one is set), the key accepted, the key's environment and what it may do, the notification groups the " +
        'definitions use, the state file and its lock. A check that needs one that failed is skipped, saying why. ' +
        'Read-only: nothing is written, nothing is sent but reads.',
    )
    .option(
      '-t, --target <name>',
      'target from wfsync.config.yaml (default: defaultTarget, else the built-in "local")',
    )
    .addOption(formatOption(['human', 'json']))
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  wfsync doctor\n' +
        '  wfsync doctor --target production --format json\n' +
        '\nExit codes: 0 every check passed (warnings allowed), else the first failing check’s: 1 Node too old, ' +
        'service\nunreachable or state file unreadable, 3 invalid config or definitions, or a missing notification ' +
        'group,\n4 API key missing or rejected, 5 rate limited past the retries, 64 usage error.',
    )
    .action(lazyAction(ctx, async () => (await import('./doctor-run.js')).runDoctor));
}
