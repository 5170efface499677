import { Command, CommanderError } from 'commander';
import { messageOf, WfsyncError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { writeOutput } from '../report/write-output.js';
import { VERSION_LINE } from '../version.js';
import { createCommandMark } from './command-mark.js';
import { completeCommand, completionCommand } from './commands/completion.js';
import { emulateCommand } from './commands/emulate.js';
import { initCommand } from './commands/init.js';
import { newCommand } from './commands/new.js';
import { planCommand } from './commands/plan.js';
import { previewCommand } from './commands/preview.js';
import { pullCommand } from './commands/pull.js';
import { stateCommand } from './commands/state.js';
import { syncCommand } from './commands/sync.js';
import { validateCommand } from './commands/validate.js';
import {
  type CliIO,
  type CommandContext,
  type Invocation,
  openChannels,
  processIO,
  writeWfsyncError,
} from './context.js';

/**
 * argv → command → exit code. The only place that turns errors into exit codes; bin/wfsync.js sets
 * process.exitCode from the result. Commands set ctx.exitCode and never call process.exit.
 */
export async function main(args: readonly string[], given: CliIO = processIO()): Promise<number> {
  const { argv, io } = withColorFlags(args, given);
  const verbose = argv.includes('--verbose');
  // Every write from here on, ours or commander's, goes through the streams' channels (context.ts).
  const commandMark = createCommandMark();
  const invocation: Invocation = { stdoutUsed: false };
  const channels = openChannels(io, commandMark.made, () => {
    invocation.stdoutUsed = true;
  });
  const ctx: CommandContext = { ...channels, commandMark, exitCode: ExitCode.Ok, invocation };
  const program = buildProgram(ctx);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return ctx.exitCode;
  } catch (error) {
    return reportError(error, ctx, verbose);
  }
}

/**
 * `--no-color` and `--color`, wherever they stand, become NO_COLOR / FORCE_COLOR for this run (the last one given
 * wins) and leave the arguments, so every command takes them without declaring them.
 */
function withColorFlags(args: readonly string[], io: CliIO): { argv: string[]; io: CliIO } {
  const end = args.indexOf('--');
  const flags = end === -1 ? args : args.slice(0, end);
  const last = flags.findLast((arg) => arg === '--no-color' || arg === '--color');
  if (last === undefined) return { argv: [...args], io };
  const argv = args.filter(
    (arg, i) => (end !== -1 && i >= end) || (arg !== '--no-color' && arg !== '--color'),
  );
  const { NO_COLOR: _no, FORCE_COLOR: _force, ...env } = io.env;
  return {
    argv,
    io: { ...io, env: last === '--no-color' ? { ...env, NO_COLOR: '1' } : { ...env, FORCE_COLOR: '1' } },
  };
}

function buildProgram(ctx: CommandContext): Command {
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
  program.addCommand(validateCommand(ctx));
  program.addCommand(planCommand(ctx));
  program.addCommand(syncCommand(ctx));
  program.addCommand(pullCommand(ctx));
  program.addCommand(stateCommand(ctx));
  program.addCommand(emulateCommand(ctx));
  program.addCommand(initCommand(ctx));
  program.addCommand(newCommand(ctx));
  program.addCommand(completionCommand(ctx));
  program.addCommand(completeCommand(ctx), { hidden: true });
  program.addCommand(previewCommand(ctx));
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
 * Remember, as commander parses them, the options that decide what a failure prints on stdout: the command's
 * `--format` (and which command it belongs to), `--target`, `--dry-run`. A bad value never reaches the listener
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
}

/**
 * The one exit point for errors: the message on stderr, then (for a command given `--format json`, `markdown`,
 * `github` or `codeclimate`) the failure as the one document stdout promises (`github`: annotations); the exit code.
 */
/** The formats whose stdout is one document (or annotations) a failure still owes. */
const DOCUMENT_FORMATS = new Set(['json', 'markdown', 'github', 'codeclimate']);

async function reportError(error: unknown, ctx: CommandContext, verbose: boolean): Promise<number> {
  const exitCode = await reportErrorText(error, ctx, verbose);
  const format = ctx.invocation?.format;
  if (exitCode !== ExitCode.Ok && format !== undefined && DOCUMENT_FORMATS.has(format)) {
    // Loaded only then: the renderers are no part of start-up.
    const { writeFailureDocument } = await import('./failure.js');
    await writeFailureDocument(ctx, error, exitCode);
  }
  return exitCode;
}

async function reportErrorText(error: unknown, ctx: CommandContext, verbose: boolean): Promise<number> {
  if (error instanceof CommanderError) {
    // --help and --version also end in a CommanderError, with exit code 0.
    return error.exitCode === 0 ? ExitCode.Ok : ExitCode.Usage;
  }
  if (error instanceof WfsyncError) {
    await writeWfsyncError(ctx, error);
    if (verbose && error.stack) await writeOutput(ctx.stderr, `${error.stack}\n`);
    return error.exitCode;
  }
  await writeOutput(ctx.stderr, `wfsync: unexpected error: ${messageOf(error)}\n`);
  if (verbose && error instanceof Error && error.stack) await writeOutput(ctx.stderr, `${error.stack}\n`);
  else
    await writeOutput(ctx.stderr, 'Run again with --verbose for details; this is a bug, please report it.\n');
  return ExitCode.Failure;
}
