import { type Command, Command as CommanderCommand } from 'commander';
import { SHELLS, type Shell } from '../../scaffold/completion.js';
import type { CommandContext } from '../context.js';

/** `wfsync completion bash|zsh|fish`: prints the script, which asks `wfsync __complete` (hidden) on every Tab. */
export function completionCommand(ctx: CommandContext): Command {
  return new CommanderCommand('completion')
    .summary('print the shell completion script (bash, zsh or fish)')
    .description(
      'Print a completion script for the shell: commands, subcommands, options and their choices, and the ' +
        "project's targets and workflow identifiers (read from the config and the definitions when you press Tab, " +
        'without the network). The script asks wfsync itself on every Tab, so it stays right after an upgrade.',
    )
    .addArgument(new CommanderCommand().createArgument('<shell>', 'bash, zsh or fish').choices([...SHELLS]))
    .addHelpText(
      'after',
      '\nInstall (docs/reference/editors.md, Shell completion):\n' +
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

/** `wfsync __complete -- WORDS…` (hidden): what Tab offers after the words; the scripts' one question. */
export function completeCommand(ctx: CommandContext): Command {
  return new CommanderCommand('__complete')
    .description('print what Tab offers after the words (for the completion scripts)')
    .argument('[words...]', 'the words after the program name; the last one is the word being completed')
    .action(async (words: string[], _flags: object, command: Command) => {
      const { runComplete } = await import('./completion-run.js');
      ctx.exitCode = await runComplete(ctx, words, command.parent ?? command);
    });
}
