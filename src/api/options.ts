import { resolve } from 'node:path';
import type { ApplyEvent } from '../apply/events.js';
import type { TargetOptions } from '../config/target.js';
import type { ClientEvent } from '../remote/index.js';

/** What every API function takes: where the project is, its config file, and the environment it reads. */
export interface ProjectApiOptions {
  /** The working directory, as the CLI's: wfsync.config.yaml is looked up from it upwards, paths resolve from it. Default: `process.cwd()`. */
  cwd?: string;
  /** `--config`: the config file (default: wfsync.config.yaml, looked up from `cwd`). */
  config?: string;
  /**
   * The environment wfsync reads instead of the CLI's: the API key (`WFSYNC_API_KEY` or the target's `apiKeyEnv`),
   * `WFSYNC_TARGET`, `WFSYNC_BASE_URL`, the proxy variables, and for `plan` `GITHUB_BASE_REF`. Default:
   * `process.env`. Nothing else of `process.env` is read.
   */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * The options of every function that talks to a target: the CLI's target flags, camelCase (config/target.ts's
 * TargetOptions, the one shape the CLI's flags are parsed into too).
 */
export interface TargetApiOptions extends ProjectApiOptions, TargetOptions {}

/** What a run reports as it goes, instead of printing: nothing is written to stdout or stderr. */
export interface RunHooks {
  /** Cancels the run: requests in flight are aborted and the call rejects with an `AbortError`. */
  signal?: AbortSignal;
  /** Progress: phases, one event per workflow, notices (what the CLI's progress display shows). */
  onEvent?: (event: ApplyEvent) => void;
  /** Every request, response, retry and wait (method, path, status, timings; never headers, never the key). */
  onClientEvent?: (event: ClientEvent) => void;
  /**
   * Notes a person may want (a check that could not be made), and with `verbose` the details the CLI's `--verbose`
   * prints (the route, the base, what preflight checked): one line each, raw text (from the service included).
   */
  onLog?: (line: string) => void;
  /** Send the details `--verbose` prints to `onLog` too. */
  verbose?: boolean;
}

/** The target options among the API's, paths resolved from `cwd` (the CLI's are from its own): built once per call. */
export function targetOptions(options: TargetApiOptions, cwd: string): TargetOptions {
  const picked: TargetOptions = {};
  if (options.config !== undefined) picked.config = resolve(cwd, options.config);
  if (options.target !== undefined) picked.target = options.target;
  if (options.baseUrl !== undefined) picked.baseUrl = options.baseUrl;
  if (options.state !== undefined) picked.state = resolve(cwd, options.state);
  if (options.concurrency !== undefined) picked.concurrency = options.concurrency;
  if (options.allowInsecureHttp !== undefined) picked.allowInsecureHttp = options.allowInsecureHttp;
  if (options.allow !== undefined) picked.allow = options.allow;
  if (options.only !== undefined) picked.only = options.only;
  if (options.paths !== undefined) picked.paths = options.paths;
  if (options.reportUnusedDisable !== undefined) picked.reportUnusedDisable = options.reportUnusedDisable;
  return picked;
}

/** `cwd` and `env`, defaulted: the only places the API reads the process's own. */
export function processDefaults(options: ProjectApiOptions): { cwd: string; env: NodeJS.ProcessEnv } {
  return { cwd: options.cwd ?? process.cwd(), env: { ...(options.env ?? process.env) } };
}
