import { type Command, Command as CommanderCommand, type Option } from 'commander';
import {
  type CompletionCommand,
  type CompletionModel,
  type CompletionOption,
  type DynamicKind,
  SHELLS,
  type Shell,
} from '../../scaffold/completion.js';
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

/** Option long names whose values come from the project. */
const DYNAMIC_OPTIONS: Record<string, DynamicKind> = { '--target': 'targets', '--only': 'identifiers' };
/** Positional arguments by name: identifiers, or paths. */
const DYNAMIC_ARGUMENTS: Record<string, DynamicKind | 'files'> = {
  workflow: 'identifiers',
  identifier: 'identifiers',
  paths: 'files',
};
/** Options whose value is a file or directory. */
const FILE_OPTIONS = new Set(['--config', '--state', '--out', '--plan', '--dir', '--data', '--schema-path']);

/** The model the scripts are built from, read off the commander program: it cannot drift from the commands. */
export function buildCompletionModel(program: Command): CompletionModel {
  return {
    program: program.name(),
    options: program.options.map(optionOf),
    commands: program.commands.filter(isShown).map(commandOf),
  };
}

function isShown(command: Command): boolean {
  return !command.name().startsWith('__');
}

function commandOf(command: Command): CompletionCommand {
  const argument = command.registeredArguments[0]?.name();
  const args = argument === undefined ? undefined : DYNAMIC_ARGUMENTS[argument];
  return {
    name: command.name(),
    description: command.summary() || command.description().split('\n')[0] || '',
    options: command.options.filter((o) => !o.hidden).map(optionOf),
    ...(args === undefined ? {} : { args }),
    subcommands: command.commands.filter(isShown).map(commandOf),
  };
}

function optionOf(option: Option): CompletionOption {
  const names = [option.short, option.long].filter((n): n is string => n !== undefined);
  const takesValue = option.required || option.optional;
  const dynamic = option.long === undefined ? undefined : DYNAMIC_OPTIONS[option.long];
  return {
    names,
    description: option.description,
    ...(takesValue
      ? {
          value: dynamic
            ? { dynamic }
            : option.argChoices
              ? { choices: option.argChoices }
              : { files: FILE_OPTIONS.has(option.long ?? '') },
        }
      : {}),
  };
}
