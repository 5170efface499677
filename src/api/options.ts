import { resolve } from 'node:path';
import type { ApplyEvent } from '../apply/events.js';
import type { ClientEvent } from '../remote/index.js';
import type { RunFlags } from './pipeline.js';

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

/** The options of every function that talks to a target: the CLI's target flags, camelCase. */
export interface TargetApiOptions extends ProjectApiOptions {
  /** `--target`: a target of wfsync.config.yaml (default: `defaultTarget`, else the built-in `local`). */
  target?: string;
  /** `--base-url`: the service's base URL, overriding the target's. */
  baseUrl?: string;
  /** `--state`: the state file (default: the target's, `.wfsync/state/<target>.json`). */
  state?: string;
  /** `--concurrency`: requests in parallel (default: the target's, else 4). */
  concurrency?: number;
  /** `--allow-insecure-http`: allow `http://` to a host other than loopback (the key travels in clear text). */
  allowInsecureHttp?: boolean;
  /** `--only`: identifiers, or globs over identifiers or file paths (`order-*`, `workflows/billing/**`). */
  only?: string[];
  /**
   * plan and sync's `[paths...]`: only the definitions in these files or folders (relative to `cwd`), as `only`
   * does; each must be a definition of the project (else a `usage` error).
   */
  paths?: string[];
}

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

/** The API's options as the flags the pipeline reads; the paths resolved from `cwd` (the CLI's are from its own). */
export function runFlags(options: TargetApiOptions, cwd: string): RunFlags {
  const flags: RunFlags = {};
  if (options.config !== undefined) flags.config = resolve(cwd, options.config);
  if (options.target !== undefined) flags.target = options.target;
  if (options.baseUrl !== undefined) flags.baseUrl = options.baseUrl;
  if (options.state !== undefined) flags.state = resolve(cwd, options.state);
  if (options.concurrency !== undefined) flags.concurrency = options.concurrency;
  if (options.allowInsecureHttp !== undefined) flags.allowInsecureHttp = options.allowInsecureHttp;
  if (options.only !== undefined) flags.only = options.only;
  if (options.paths !== undefined) flags.paths = options.paths;
  return flags;
}

/** `cwd` and `env`, defaulted: the only places the API reads the process's own. */
export function processDefaults(options: ProjectApiOptions): { cwd: string; env: NodeJS.ProcessEnv } {
  return { cwd: options.cwd ?? process.cwd(), env: { ...(options.env ?? process.env) } };
}
