import { type Command, InvalidArgumentError, Option } from 'commander';
import { type TargetOptions, WRITE_ACTIONS, type WriteAction } from '../config/target.js';
import type { CommandContext } from './context.js';

/**
 * What every command that talks to a target reads from argv, parsed once (parseTargetArguments): the target options,
 * handed to the API as they are, and how the run reports.
 */
export interface TargetArguments {
  /** `--config`, the target flags, `--only` and the `[paths...]`: what picks the project, target and definitions. */
  options: TargetOptions;
  /** `-q, --quiet`: no progress output. */
  quiet: boolean;
  /** Global `--verbose`. */
  verbose: boolean;
}

/** Commander's values of the options addTargetOptions and addOnlyOption declare, with the global ones. */
export interface TargetValues extends Omit<TargetOptions, 'paths'> {
  quiet?: boolean;
  verbose?: boolean;
}

/** The one step from commander's values (and a command's `[paths...]`) to the typed target arguments. */
export function parseTargetArguments(values: TargetValues, paths?: string[]): TargetArguments {
  const options: TargetOptions = {};
  if (values.config !== undefined) options.config = values.config;
  if (values.target !== undefined) options.target = values.target;
  if (values.baseUrl !== undefined) options.baseUrl = values.baseUrl;
  if (values.state !== undefined) options.state = values.state;
  if (values.concurrency !== undefined) options.concurrency = values.concurrency;
  if (values.allowInsecureHttp !== undefined) options.allowInsecureHttp = values.allowInsecureHttp;
  if (values.allow !== undefined) options.allow = values.allow;
  if (values.only !== undefined) options.only = values.only;
  if (paths !== undefined) options.paths = paths;
  if (values.reportUnusedDisable === true) options.reportUnusedDisable = true;
  return { options, quiet: values.quiet === true, verbose: values.verbose === true };
}

export function addTargetOptions(command: Command): Command {
  return command
    .option(
      '-t, --target <name>',
      'target from wfsync.config.yaml (default: defaultTarget, else the built-in "local")',
    )
    .option('--base-url <url>', 'service base URL (overrides the target; env WFSYNC_BASE_URL)')
    .option('--state <file>', "state file (default: the target's, .wfsync/state/<target>.json)")
    .option('--concurrency <n>', "requests in parallel (default: the target's, else 4)", parsePositiveInt)
    .option(
      '--allow-insecure-http',
      'allow http:// to a non-loopback host (the API key travels in clear text)',
    )
    .option('-q, --quiet', 'no progress output');
}

/**
 * plan and sync's `--report-unused-disable`: the definitions are checked for comments that silence nothing, and one
 * found stops the run before any request (validate reports it as a warning; these commands report no warnings).
 */
export function addReportUnusedDisableOption(command: Command): Command {
  return command.option(
    '--report-unused-disable',
    'stop (exit 3, nothing sent) at a wfsync-disable comment that silences no finding (suppression-unused), ' +
      'as "wfsync validate --report-unused-disable --max-warnings 0" fails on it',
  );
}

export function addOnlyOption(command: Command): Command {
  return command.option(
    '--only <pattern...>',
    'only these workflows: identifiers or globs over identifiers or file paths (order-*, workflows/billing/**)',
  );
}

/** plan and sync's `--allow`: repeatable or comma-separated, added to the target's `allow` list for this run. */
export function addAllowOption(command: Command): Command {
  return command.option(
    '--allow <action>',
    `also allow these writes this run: ${WRITE_ACTIONS.join(', ')} (repeatable or comma-separated; adds to the target's allow list)`,
    collectWriteActions,
  );
}

function collectWriteActions(value: string, previous: WriteAction[] | undefined): WriteAction[] {
  const actions = value.split(',').map((action) => action.trim());
  for (const action of actions) {
    if (!(WRITE_ACTIONS as readonly string[]).includes(action))
      throw new InvalidArgumentError(`expected ${WRITE_ACTIONS.join(', ')} (got "${action}")`);
  }
  return [...(previous ?? []), ...(actions as WriteAction[])];
}

export function formatOption(formats: string[]): Option {
  return new Option('-f, --format <format>', 'output format').choices(formats).default('human');
}

/** A command's run function: the context, the command's arguments, then its option values (global ones included). */
type RunFunction = (ctx: CommandContext, ...args: never[]) => Promise<number>;

/**
 * The action of a command whose work lives in its run module, loaded only when the command runs (start-up loads
 * no command's dependencies). The run function gets the command's arguments, then its option values over the global
 * ones; a command that talks to a target parses them once into its typed arguments (parseTargetArguments).
 */
export function lazyAction(
  ctx: CommandContext,
  load: () => Promise<RunFunction>,
): (...args: unknown[]) => Promise<void> {
  return async (...args) => {
    const command = args.pop() as Command;
    args.pop(); // commander's values of the command's own options: in `values` below
    // The one merge: the program's (and a parent command's) options, then the command's own over them.
    const values = { ...command.parent?.optsWithGlobals(), ...command.opts() };
    const run = await load();
    ctx.exitCode = await run(ctx, ...(args as never[]), values as never);
  };
}

/** Commander argument parsers: a bad value becomes a usage error (exit 64) naming the flag. */
export function parseNonNegativeInt(value: string): number {
  if (!/^\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number ≥ 0');
  return Number(value);
}

export function parsePositiveInt(value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new InvalidArgumentError('expected a whole number ≥ 1');
  return Number(value);
}
