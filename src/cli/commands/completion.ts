import { type Command, Command as CommanderCommand } from 'commander';
import { SHELLS, type Shell } from '../../scaffold/completion.js';
import type { CommandContext } from '../context.js';
import { lazyAction } from '../run-options.js';

/** `wfsync completion bash|zsh|fish`: prints the script; `wfsync __complete KIND` (hidden) feeds it values. */
export function completionCommand(ctx: CommandContext): Command {
  return new CommanderCommand('completion')
    .summary('print the shell completion script (bash, zsh or fish)')
    .description(
      'Print a completion script for the shell: commands, subcommands, options and their choices, and the ' +
        "project's targets and workflow identifiers (read from the config and the definitions when you press Tab, " +
        'without the network).',
    )
    .addArgument(new CommanderCommand().createArgument('<shell>', 'bash, zsh or fish').choices([...SHELLS]))
    .addHelpText(
      'after',
      '\nInstall (README: Shell completion):\n' +
        "  bash: echo 'source <(wfsync completion bash)' >> ~/.bashrc\n" +
        // biome-ignore lint/suspicious/noTemplateCurlyInString: zsh's own parameter expansion, printed as is
        '  zsh:  wfsync completion zsh > "${fpath[1]}/_wfsync"   (then start a new shell)\n' +
        '  fish: wfsync completion fish > ~/.config/fish/completions/wfsync.fish',
    )
    .action(async (shell: string, _flags: object, command: Command) => {
      const { runCompletion } = await import('./completion-run.js');
      ctx.exitCode = await runCompletion(ctx, shell as Shell, command.parent ?? command);
    });
}

export function completeCommand(ctx: CommandContext): Command {
  return new CommanderCommand('__complete')
    .description('print the values completion offers, one per line (for the completion scripts)')
    .addArgument(
      new CommanderCommand()
        .createArgument('<kind>', 'targets or identifiers')
        .choices(['targets', 'identifiers']),
    )
    .action(lazyAction(ctx, async () => (await import('./completion-run.js')).runComplete));
}
