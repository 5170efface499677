import { Command, type Option } from 'commander';
import { VERSION_LINE } from '../version.js';
import { ciRelayCommand } from './commands/ci-relay.js';
import { completeCommand, completionCommand } from './commands/completion.js';
import { doctorCommand } from './commands/doctor.js';
import { emulateCommand } from './commands/emulate.js';
import { initCommand } from './commands/init.js';
import { newCommand } from './commands/new.js';
import { planCommand } from './commands/plan.js';
import { previewCommand } from './commands/preview.js';
import { pullCommand } from './commands/pull.js';
import { stateCommand } from './commands/state.js';
import { syncCommand } from './commands/sync.js';
import { typesCommand } from './commands/types.js';
import { validateCommand } from './commands/validate.js';
import type { CommandContext, Invocation } from './context.js';

/** One command of the program: its name (as its factory names it) and how to build it. */
export interface CommandEntry {
  name: string;
  build: (ctx: CommandContext) => Command;
  /** Left out of the help and of what Tab offers. */
  hidden?: true;
  /** Its action reads the whole program (`__complete` answers from it). */
  readsProgram?: true;
}

/** Every command, in the order `wfsync --help` lists them: the one list of command names. */
export const COMMANDS: readonly CommandEntry[] = [
  { name: 'validate', build: validateCommand },
  { name: 'plan', build: planCommand },
  { name: 'sync', build: syncCommand },
  { name: 'pull', build: pullCommand },
  { name: 'state', build: stateCommand },
  { name: 'emulate', build: emulateCommand },
  { name: 'init', build: initCommand },
  { name: 'new', build: newCommand },
  { name: 'completion', build: completionCommand },
  { name: '__complete', build: completeCommand, hidden: true, readsProgram: true },
  { name: 'preview', build: previewCommand },
  { name: 'types', build: typesCommand },
  { name: 'doctor', build: doctorCommand },
  { name: 'ci-relay', build: ciRelayCommand, hidden: true },
];

/**
 * The commander program for `args`: the global options, version, help command and help texts, with the one command
 * the arguments name, or every command when they name none (or `all`, or a command that reads the whole program).
 * Whatever it prints is the same either way: a run builds one command instead of all of them.
 */
export function buildProgram(ctx: CommandContext, args: readonly string[] | 'all'): Command {
  const program = new Command('wfsync')
    .description(
      'Workflow-as-code for the notification service: validate, plan and sync workflow definitions kept as YAML.',
    )
    .version(VERSION_LINE, '-V, --version', 'print the version, with the Node version and platform')
    .option(
      '-c, --config <file>',
      'config file (default: wfsync.config.yaml, looked up from the working directory)',
    )
    .option('--verbose', 'print debugging detail and stack traces')
    .option('--no-color', 'no colours (as NO_COLOR=1), anywhere on the command line')
    .option('--color', 'colours even when not on a terminal (as FORCE_COLOR=1)')
    .helpCommand('help [command]', 'show help for a command')
    .showHelpAfterError('(run "wfsync --help" for usage)')
    .addHelpText(
      'after',
      '\nExit codes: 0 ok, 1 unexpected failure, 2 workflows to create, 3 invalid definitions or config,\n' +
        '            4 authentication rejected, 5 rate limited, 6 a workflow needs a person, 64 usage error.',
    );
  const named = args === 'all' ? undefined : namedCommand(program, args);
  const entries = named === undefined || named.readsProgram ? COMMANDS : [named];
  for (const entry of entries) program.addCommand(entry.build(ctx), { hidden: entry.hidden === true });
  // Usage errors and --help/--version surface as CommanderError; print through our streams.
  const configure = (command: Command): void => {
    command.exitOverride().configureOutput({
      writeOut: (s) => ctx.stdout.write(s),
      writeErr: (s) => ctx.stderr.write(s),
    });
    listenForFormat(command, ctx.invocation);
    for (const sub of command.commands) configure(sub);
  };
  configure(program);
  return program;
}

/**
 * The command `args` name, read as commander reads them: the first argument that is neither one of `program`'s own
 * options nor its value. Undefined for anything else (no command, `--help`, `help`, an unknown word or option, `--`):
 * those runs get the whole program, whose help and suggestions list every command.
 */
export function namedCommand(program: Command, args: readonly string[]): CommandEntry | undefined {
  const own = (flag: string): Option | undefined =>
    program.options.find((option) => option.short === flag || option.long === flag);
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (!arg.startsWith('-')) return COMMANDS.find((entry) => entry.name === arg);
    const option = own(arg);
    if (option?.required) i++; // its value, whatever it looks like
    // A flag; or `--config=FILE`, `-cFILE`: the option and its value in one argument.
    if (option?.isBoolean() || option?.required) continue;
    const joined = /^--[^=]+=/.test(arg) ? own(arg.slice(0, arg.indexOf('='))) : own(arg.slice(0, 2));
    if (joined?.required && arg.length > 2) continue;
    return undefined;
  }
  return undefined;
}

/**
 * Remember, as commander parses them, the options that decide what a failure prints on stdout: the command's
 * `--format` (and which command it belongs to), `--target`, `--dry-run`, and the file `plan --codequality` names
 * (a failure's Code Quality report goes there too). A bad value never reaches the listener
 * (commander's own check throws first).
 */
function listenForFormat(command: Command, invocation: Invocation | undefined): void {
  if (invocation === undefined) return;
  const has = (name: string) => command.options.some((option) => option.attributeName() === name);
  if (has('format')) {
    command.on('option:format', (value: string) => {
      invocation.command = command.name();
      invocation.format = value;
    });
  }
  if (has('target')) command.on('option:target', (value: string) => (invocation.target = value));
  if (has('dryRun')) command.on('option:dry-run', () => (invocation.dryRun = true));
  if (has('codequality')) {
    command.on('option:codequality', (file: string) => {
      invocation.codequality = { command: command.name(), file, written: false };
    });
  }
}
