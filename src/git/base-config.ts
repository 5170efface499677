/**
 * Where the API key may go on a pull request. The config on the branch under review is the contributor's: a branch
 * that points a target at another host (`baseUrl`) or at another secret (`apiKeyEnv`) would have CI send a key to a
 * place no maintainer approved. So a plan compared with a base first reads the config as it is at the base and
 * refuses, before any request, when the target it would use is new there or names another host or variable. The
 * change is for a person to merge first; the next pull request then plans with it.
 */
import { relative, sep } from 'node:path';
import { parseDefinition } from '../definitions/parse.js';
import { WfsyncError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { failureReason, type GitContext, runGit } from './git.js';

/** The target fields that decide where the key goes, as the config names them (undefined: not set). */
export interface KeyRoute {
  baseUrl?: string;
  apiKeyEnv?: string;
}

export interface BaseConfigCheck {
  cwd: string;
  /** The run's environment, git's whole environment (GitContext). */
  env: GitContext['env'];
  /** The merge-base the plan compares with. */
  commit: string;
  ref: string;
  /** Absolute path of the config file read today. */
  configPath: string;
  /** The target the run uses, by name, and its fields as today's config sets them. */
  target: string;
  today: KeyRoute;
  /** `--base-url` or WFSYNC_BASE_URL chose the host (the job's own setting, not the branch's): not compared. */
  baseUrlFromJob: boolean;
}

/** Throws (exit 3) when the key would go somewhere the base's config does not send it. */
export async function checkKeyRouteAtBase(check: BaseConfigCheck): Promise<void> {
  const path = relative(check.cwd, check.configPath).split(sep).join('/');
  const shown = path === '' ? check.configPath : path;
  const result = await runGit(check, ['cat-file', 'blob', `${check.commit}:./${path}`]);
  const refuse = (why: string) =>
    new WfsyncError(
      `refusing to plan target "${check.target}" with this branch's ${shown}: ${why} at the base (${check.ref}, ` +
        `${check.commit.slice(0, 12)}), so the API key would go where no one has approved; merge the config ` +
        'change on its own first (a person reviews where the key goes), then plan this change',
      { exitCode: ExitCode.Invalid },
    );
  if (!result.ok) {
    // Not at the base (new on this branch), or not a file git can read there: nothing approved it.
    if (
      /does not exist|exists on disk, but not in|invalid object name|not a valid object/i.test(result.stderr)
    )
      throw refuse('the config does not exist');
    throw new WfsyncError(`cannot read ${shown} at the base: ${failureReason(result)}`, {
      exitCode: ExitCode.Invalid,
    });
  }
  const base = routeOf(result.stdout, shown, check.target);
  if (base === undefined) throw refuse(`target "${check.target}" does not exist`);
  if (!check.baseUrlFromJob && (base.baseUrl ?? '') !== (check.today.baseUrl ?? ''))
    throw refuse(`its baseUrl is ${base.baseUrl === undefined ? 'not set' : `"${base.baseUrl}"`}`);
  if ((base.apiKeyEnv ?? '') !== (check.today.apiKeyEnv ?? ''))
    throw refuse(`its apiKeyEnv is ${base.apiKeyEnv === undefined ? 'not set' : `"${base.apiKeyEnv}"`}`);
}

/** The target's baseUrl and apiKeyEnv in a config's bytes; undefined when the target is not there (or unreadable). */
function routeOf(bytes: Uint8Array, file: string, target: string): KeyRoute | undefined {
  const value = parseDefinition(file, bytes).definition?.value;
  const targets = field(value, 'targets');
  const entry = field(targets, target);
  if (entry === undefined || entry === null || typeof entry !== 'object') return undefined;
  const baseUrl = field(entry, 'baseUrl');
  const apiKeyEnv = field(entry, 'apiKeyEnv');
  return {
    ...(typeof baseUrl === 'string' ? { baseUrl } : {}),
    ...(typeof apiKeyEnv === 'string' ? { apiKeyEnv } : {}),
  };
}

function field(value: unknown, key: string): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  return Object.hasOwn(value, key) ? (value as Record<string, unknown>)[key] : undefined;
}
