import { resolve } from 'node:path';
import { ConfigError, UsageError, WfsyncError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import type { TargetConfig, WriteAction } from '../generated/config.js';
import type { ProjectFlags, ProjectOptions } from './project.js';

const LOCAL_TARGET = 'local';
const DEFAULT_API_KEY_ENV = 'WFSYNC_API_KEY';

/**
 * What picks the project, the target and the definitions of a run: the one shape of these options for every command
 * that talks to a target. The CLI parses argv into it once (cli/run-options.ts), the API's options are it
 * (api/options.ts), and readProject, resolveTarget and the run context read it as it is. Flags override the
 * environment, which overrides wfsync.config.yaml.
 */
export interface TargetOptions extends ProjectFlags {
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
  /**
   * `--allow` (plan and sync): writes this run may make besides the target's `allow` list: added to it, never taking
   * any away.
   */
  allow?: WriteAction[];
  /** `--only`: identifiers, or globs over identifiers or file paths (`order-*`, `workflows/billing/**`). */
  only?: string[];
  /**
   * plan and sync's `[paths...]`: only the definitions in these files or folders (relative to `cwd`), as `only`
   * does; each must be a definition of the project (else a `usage` error).
   */
  paths?: string[];
  /**
   * `--report-unused-disable`: a `wfsync-disable` comment that silences no finding (`suppression-unused`) stops the
   * run before any request, as an invalid definition does, unless that rule is configured `info` or `off`.
   */
  reportUnusedDisable?: boolean;
}

/** One target, every option resolved: flags > environment > wfsync.config.yaml > defaults. No secrets inside. */
export interface ResolvedTarget {
  name: string;
  /** The target a run given no `--target` and no WFSYNC_TARGET uses: a suggested command need not name it. */
  isDefault: boolean;
  /** `local`: the embedded emulator, started in-process; `remote`: a real service at baseUrl. */
  kind: 'local' | 'remote';
  /** Remote only. */
  baseUrl?: string;
  /** Where baseUrl came from when not from wfsync.config.yaml, for messages: `--base-url` or `WFSYNC_BASE_URL`. */
  baseUrlFrom?: string;
  /** The environment variable the API key is read from (its name, never its value). */
  apiKeyEnv: string;
  notificationGroupId?: string;
  notificationGroups: Record<string, string>;
  /** Absolute path of the state file. */
  statePath: string;
  /** Local only: where the embedded service persists its workflows. */
  dataFile?: string;
  concurrency: number;
  /** Client-side cap in requests per second. */
  rateLimit?: number;
  timeouts: { connectMs?: number; headersMs?: number; bodyMs?: number; commandMs?: number };
  retries: { maxAttempts?: number; budget?: number };
  allowInsecureHttp: boolean;
  /** What sync may write: the target's `allow` (default `[create]`; `local`: all three) plus `--allow`. */
  allow: ReadonlySet<WriteAction>;
}

export type { WriteAction };

/** The writes sync can make, in the order they are listed. */
export const WRITE_ACTIONS: readonly WriteAction[] = ['create', 'update', 'delete'];

export function resolveTarget(
  project: ProjectOptions,
  flags: TargetOptions,
  env: NodeJS.ProcessEnv,
): ResolvedTarget {
  const configured = project.config?.config.targets ?? {};
  const baseUrlOverride = nonEmpty(flags.baseUrl) ?? nonEmpty(env.WFSYNC_BASE_URL);
  const defaultName = defaultTargetName(project, baseUrlOverride);
  const name = nonEmpty(flags.target) ?? nonEmpty(env.WFSYNC_TARGET) ?? defaultName;
  const config: TargetConfig | undefined = configured[name];
  const root = project.config?.dir ?? project.cwd;
  const known = [LOCAL_TARGET, ...Object.keys(configured).filter((t) => t !== LOCAL_TARGET)];

  if (name === LOCAL_TARGET) {
    if (baseUrlOverride) {
      throw new UsageError(
        'the local target is the embedded emulator and has no base URL; pass --target NAME with --base-url ' +
          '(or unset WFSYNC_BASE_URL) to use a real service',
      );
    }
  } else if (!config && !baseUrlOverride) {
    throw new UsageError(
      `unknown target "${name}" (configured: ${known.join(', ')}); add it to wfsync.config.yaml`,
    );
  }
  const kind = name === LOCAL_TARGET ? 'local' : 'remote';
  const baseUrl = kind === 'remote' ? (baseUrlOverride ?? config?.baseUrl) : undefined;
  if (kind === 'remote' && !baseUrl) {
    throw new ConfigError(
      `target "${name}" has no baseUrl: set it in wfsync.config.yaml, --base-url or WFSYNC_BASE_URL`,
    );
  }
  const resolved: ResolvedTarget = {
    name,
    isDefault: name === defaultName,
    kind,
    apiKeyEnv: config?.apiKeyEnv ?? DEFAULT_API_KEY_ENV,
    notificationGroups: Object.fromEntries(
      Object.entries(config?.notificationGroups ?? {}).filter(
        (e): e is [string, string] => e[1] !== undefined,
      ),
    ),
    statePath: resolve(
      project.cwd,
      flags.state ?? resolve(root, config?.state ?? `.wfsync/state/${name}.json`),
    ),
    concurrency: flags.concurrency ?? config?.concurrency ?? (kind === 'local' ? 8 : 4),
    timeouts: { ...config?.timeouts },
    retries: { ...config?.retries },
    allowInsecureHttp: flags.allowInsecureHttp ?? config?.allowInsecureHttp ?? false,
    allow: allowedWrites(name, kind, config?.allow, flags.allow),
  };
  if (baseUrl) resolved.baseUrl = baseUrl;
  if (kind === 'remote' && baseUrlOverride)
    resolved.baseUrlFrom = nonEmpty(flags.baseUrl) ? '--base-url' : 'WFSYNC_BASE_URL';
  const groupId = nonEmpty(env.WFSYNC_NOTIFICATION_GROUP_ID) ?? config?.notificationGroupId;
  if (groupId) resolved.notificationGroupId = groupId.trim();
  if (config?.rateLimit !== undefined) resolved.rateLimit = config.rateLimit;
  if (kind === 'local') resolved.dataFile = resolve(root, '.wfsync/local-service.json');
  return resolved;
}

/**
 * What sync may write on a target: its `allow` list (default `[create]`, and all three on the embedded `local`
 * sandbox), plus `--allow`. Creating is what wfsync always did, so a list without it is a mistake, not a wish.
 */
function allowedWrites(
  name: string,
  kind: ResolvedTarget['kind'],
  configured: readonly WriteAction[] | undefined,
  flags: readonly WriteAction[] | undefined,
): ReadonlySet<WriteAction> {
  const listed = configured ?? (kind === 'local' ? WRITE_ACTIONS : ['create']);
  if (!listed.includes('create')) {
    throw new ConfigError(
      `targets.${name}.allow must include create (wfsync always creates missing workflows): allow: [create, ${listed.join(', ')}]`,
    );
  }
  for (const action of flags ?? []) {
    if (!WRITE_ACTIONS.includes(action))
      throw new UsageError(`--allow takes ${WRITE_ACTIONS.join(', ')} (got "${String(action)}")`);
  }
  const allowed = new Set([...listed, ...(flags ?? [])]);
  return new Set(WRITE_ACTIONS.filter((action) => allowed.has(action)));
}

/**
 * The target a command given no `--target` and no WFSYNC_TARGET uses: the config's `defaultTarget`, else `default`
 * when a base URL is given, else the built-in `local`. A suggested command names any other one.
 */
function defaultTargetName(project: ProjectOptions, baseUrlOverride: string | undefined): string {
  return project.config?.config.defaultTarget ?? (baseUrlOverride ? 'default' : LOCAL_TARGET);
}

/**
 * The API key for a remote target: the variable the target names, else WFSYNC_API_KEY. Never read from a file,
 * never printed. Missing → exit 4 naming the variable (not its value).
 */
export function readApiKey(target: ResolvedTarget, env: NodeJS.ProcessEnv): string {
  const key = nonEmpty(env[target.apiKeyEnv]) ?? nonEmpty(env[DEFAULT_API_KEY_ENV]);
  if (key) return key.trim();
  const names =
    target.apiKeyEnv === DEFAULT_API_KEY_ENV
      ? DEFAULT_API_KEY_ENV
      : `${target.apiKeyEnv} (or ${DEFAULT_API_KEY_ENV})`;
  throw new WfsyncError(`no API key for target "${target.name}": set the environment variable ${names}`, {
    exitCode: ExitCode.Auth,
  });
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
