import { Command, CommanderError } from 'commander';
import { WfsyncError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { VERSION } from '../version.js';

/**
 * argv → command → exit code. The only place that turns errors into exit codes; bin/wfsync.js sets
 * process.exitCode from the result. Commands return an exit code and never call process.exit.
 */
export async function main(argv: readonly string[]): Promise<number> {
  const verbose = argv.includes('--verbose');
  let exitCode: number = ExitCode.Ok;
  const program = new Command('wfsync')
    .description('Workflow-as-code for the notification service: validate, plan and sync YAML definitions.')
    .version(VERSION, '-V, --version')
    .option('--verbose', 'print debugging detail and stack traces')
    .exitOverride()
    .configureOutput({
      writeOut: (s) => process.stdout.write(s),
      writeErr: (s) => process.stderr.write(s),
    });
  program.showHelpAfterError('(run "wfsync --help" for usage)');
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return exitCode;
  } catch (error) {
    exitCode = toExitCode(error, verbose);
    return exitCode;
  }
}

function toExitCode(error: unknown, verbose: boolean): number {
  if (error instanceof CommanderError) {
    // --help and --version end with a CommanderError too; their exit code is 0.
    if (error.exitCode === 0) return ExitCode.Ok;
    return ExitCode.Usage;
  }
  if (error instanceof WfsyncError) {
    process.stderr.write(`wfsync: ${error.message}\n`);
    if (verbose && error.stack) process.stderr.write(`${error.stack}\n`);
    return error.exitCode;
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`wfsync: unexpected error: ${message}\n`);
  if (verbose && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  else process.stderr.write('Run again with --verbose for details, and please report this as a bug.\n');
  return ExitCode.Failure;
}
