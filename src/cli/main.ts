import { CommanderError } from 'commander';
import { messageOf, WfsyncError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { writeOutput } from '../report/write-output.js';
import { createCommandMark } from './command-mark.js';
import {
  type CliIO,
  type CommandContext,
  type Invocation,
  openChannels,
  processIO,
  wfsyncMessage,
  writeWfsyncError,
} from './context.js';
import { buildProgram } from './program.js';

/** For tests: `wholeProgram` builds every command, as a run naming none does (the output must not differ). */
export interface MainBuild {
  wholeProgram?: boolean;
}

/**
 * argv → command → exit code. The only place that turns errors into exit codes; bin/wfsync.cjs sets
 * process.exitCode from the result. Commands set ctx.exitCode and never call process.exit.
 */
export async function main(
  args: readonly string[],
  given: CliIO = processIO(),
  build: MainBuild = {},
): Promise<number> {
  const { argv, io } = withColorFlags(args, given);
  const verbose = argv.includes('--verbose');
  // Every write from here on, ours or commander's, goes through the streams' channels (context.ts).
  const commandMark = createCommandMark();
  const invocation: Invocation = { stdoutUsed: false };
  const channels = openChannels(io, commandMark.made, () => {
    invocation.stdoutUsed = true;
  });
  const ctx: CommandContext = { ...channels, commandMark, exitCode: ExitCode.Ok, invocation };
  const program = buildProgram(ctx, build.wholeProgram ? 'all' : argv);
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

/** The formats whose stdout is one document (or annotations) a failure still owes. */
const DOCUMENT_FORMATS = new Set(['json', 'markdown', 'github', 'codeclimate']);

/**
 * The one exit point for errors: the message on stderr, then (for a command given `--format json`, `markdown`,
 * `github` or `codeclimate`) the failure as the one document stdout promises (`github`: annotations), and as the
 * Code Quality report `--codequality` names; the exit code.
 */
async function reportError(error: unknown, ctx: CommandContext, verbose: boolean): Promise<number> {
  const exitCode = await reportErrorText(error, ctx, verbose);
  const format = ctx.invocation?.format;
  if (exitCode !== ExitCode.Ok && format !== undefined && DOCUMENT_FORMATS.has(format)) {
    // Loaded only then: the renderers are no part of start-up.
    const { writeFailureDocument } = await import('./failure.js');
    await writeFailureDocument(ctx, error, exitCode);
  }
  if (exitCode !== ExitCode.Ok && ctx.invocation?.codequality !== undefined) {
    const { writeFailureCodeQualityFile } = await import('./failure.js');
    await writeFailureCodeQualityFile(ctx, error, exitCode);
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
  await writeOutput(ctx.stderr, wfsyncMessage(`unexpected error: ${messageOf(error)}`));
  if (verbose && error instanceof Error && error.stack) await writeOutput(ctx.stderr, `${error.stack}\n`);
  else
    await writeOutput(ctx.stderr, 'Run again with --verbose for details; this is a bug, please report it.\n');
  return ExitCode.Failure;
}
