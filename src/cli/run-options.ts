import { type Command, InvalidArgumentError, Option } from 'commander';
import type { ProjectFlags } from '../config/project.js';
import type { TargetFlags } from '../config/target.js';
import type { CommandContext } from './context.js';

/** Options shared by every command that talks to a target, the global ones included. */
export interface TargetCommandFlags extends TargetFlags, ProjectFlags {
  only?: string[];
  /** plan and sync's `[paths...]`: only the definitions in these files and folders. */
  paths?: string[];
  quiet?: boolean;
  /** Global `--verbose`. */
  verbose?: boolean;
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

export function addOnlyOption(command: Command): Command {
  return command.option(
    '--only <pattern...>',
    'only these workflows: identifiers or globs over identifiers or file paths (order-*, workflows/billing/**)',
  );
}

export function formatOption(formats: string[]): Option {
  return new Option('-f, --format <format>', 'output format').choices(formats).default('human');
}

/** A command's run function: the context, the command's arguments, then its flags (global ones included). */
type RunFunction = (ctx: CommandContext, ...args: never[]) => Promise<number>;

/**
 * The action of a command whose work lives in its run module, loaded only when the command runs (start-up loads
 * no command's dependencies). The run function gets the command's arguments, then its flags over the global ones.
 */
export function lazyAction(
  ctx: CommandContext,
  load: () => Promise<RunFunction>,
): (...args: unknown[]) => Promise<void> {
  return async (...args) => {
    const command = args.pop() as Command;
    const flags = args.pop() as object;
    const merged = { ...command.optsWithGlobals(), ...flags };
    const run = await load();
    ctx.exitCode = await run(ctx, ...(args as never[]), merged as never);
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
