/**
 * The commands wfsync suggests to a person, made exact for the run that suggests them: the same target, config file
 * and state file, so that a command copied from the output (or a pull request comment) acts on what the run looked
 * at. Pure: the CLI reads argv, the environment and the config; this gets the facts as data.
 */
import type { WriteAction } from '../generated/config.js';

/** What a suggested command must repeat of the run that suggests it. */
export interface RunContext {
  /** The target the run used. */
  target: string;
  /** It is the one a command given no `--target` (and no WFSYNC_TARGET) would use: the command need not name it. */
  targetIsDefault: boolean;
  /** `--config`, as given (relative to the working directory): the config file is not the one found by default. */
  configPath?: string;
  /** `--state`, as given: the state file is not the target's. */
  statePath?: string;
  /** The base URL given by `--base-url` or WFSYNC_BASE_URL (not the config's): without it the target is another. */
  baseUrl?: string;
  /** The base ref the plan compared with (`--base`, or GITHUB_BASE_REF): repeated only where it changes a plan. */
  base?: string;
  /**
   * `--allow` as given (not the target's `allow` list), each write once, in WRITE_ACTIONS order: what it allows
   * changes what plan and sync do (an update, not changed-locally), so their commands repeat it.
   */
  allow?: readonly WriteAction[];
}

/** The commands that take `--allow` (cli/run-options.ts: allowOption): the others would refuse it. */
const TAKES_ALLOW: ReadonlySet<string> = new Set(['plan', 'sync']);

/** Characters a POSIX shell reads as themselves in an unquoted word (`=`, `:`, `@`, `%`, `+`, `,` included). */
const PLAIN_WORD = /^[A-Za-z0-9_./:=@%+,-]+$/;

/**
 * `value` as one word a POSIX shell reads back as exactly `value`: as it is when it holds only plain characters, else
 * in single quotes (where nothing expands), each `'` written `'\''`. The empty string is `''`.
 */
export function shellWord(value: string): string {
  if (PLAIN_WORD.test(value)) return value;
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

export interface CommandLineOptions {
  /** Values after the command (identifiers…), each quoted as one word. */
  args?: readonly string[];
  /** Literal text after the arguments, not quoted: a placeholder for the reader (`--base <branch>`). */
  tail?: string;
  /** Repeat the run's `--base`: the command is a plan whose result depends on it. */
  withBase?: boolean;
}

/**
 * `wfsync [-c <config>] <command> [args…] [--target <name>] [--base-url <url>] [--state <file>] [--allow <writes>] [--base <ref>]`: the
 * command as this run would have to be repeated. With no context, or the default target and files, it is the bare `wfsync <command>`.
 */
export function commandLine(
  run: RunContext | undefined,
  command: string,
  options: CommandLineOptions = {},
): string {
  const words = ['wfsync'];
  if (run?.configPath !== undefined) words.push('-c', shellWord(run.configPath));
  words.push(command, ...(options.args ?? []).map(shellWord));
  if (options.tail !== undefined) words.push(options.tail);
  if (run !== undefined && !run.targetIsDefault) words.push('--target', shellWord(run.target));
  if (run?.baseUrl !== undefined) words.push('--base-url', shellWord(run.baseUrl));
  if (run?.statePath !== undefined) words.push('--state', shellWord(run.statePath));
  if (run?.allow !== undefined && run.allow.length > 0 && TAKES_ALLOW.has(command))
    words.push('--allow', run.allow.join(','));
  if (options.withBase && run?.base !== undefined) words.push('--base', shellWord(run.base));
  return words.join(' ');
}

/**
 * The run of a promoted target's source (`promoteFrom`, Development), for the commands it suggests there: named by its
 * target, with this run's config and base URL but not its state file (the source's is another).
 */
export function sourceRunOf(run: RunContext | undefined, source: string): RunContext {
  return {
    target: source,
    targetIsDefault: false,
    ...(run?.configPath === undefined ? {} : { configPath: run.configPath }),
    ...(run?.baseUrl === undefined ? {} : { baseUrl: run.baseUrl }),
  };
}

/** Whether suggested commands need more than `wfsync <command>`: where prose can say just "sync" otherwise. */
export function needsExactCommand(run: RunContext | undefined): boolean {
  return (
    run !== undefined &&
    (!run.targetIsDefault ||
      run.configPath !== undefined ||
      run.statePath !== undefined ||
      run.baseUrl !== undefined ||
      (run.allow !== undefined && run.allow.length > 0))
  );
}
