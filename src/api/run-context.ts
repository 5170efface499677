import { relative, resolve } from 'node:path';
import type { ProjectOptions } from '../config/project.js';
import { type ResolvedTarget, type TargetOptions, WRITE_ACTIONS } from '../config/target.js';
import type { RunContext } from '../plan/command-line.js';

/**
 * What the commands a run suggests must repeat of it (plan/command-line.ts): the target unless it is the default one,
 * the config file when one was given that discovery would not find, a base URL and a state file given on the command
 * line (or WFSYNC_BASE_URL), the writes `--allow` added, the base. Read from what the run resolved once: nothing is looked up again.
 * Paths as the working directory sees them, so a command copied there runs as this one did.
 */
export function buildRunContext(input: {
  project: ProjectOptions;
  target: ResolvedTarget;
  options: Pick<TargetOptions, 'state' | 'allow'>;
  base?: string;
}): RunContext {
  const { project, target, options } = input;
  const cwd = project.cwd;
  const run: RunContext = { target: target.name, targetIsDefault: target.isDefault };
  if (project.configNamed && project.config) run.configPath = shown(cwd, project.config.path);
  if (target.baseUrlFrom !== undefined && target.baseUrl !== undefined) run.baseUrl = target.baseUrl;
  if (options.state !== undefined) run.statePath = shown(cwd, resolve(cwd, options.state));
  if (options.allow !== undefined && options.allow.length > 0)
    run.allow = WRITE_ACTIONS.filter((action) => options.allow?.includes(action));
  if (input.base !== undefined) run.base = input.base;
  return run;
}

/** `path` relative to `cwd` (`./` when that is nothing), the way a person in `cwd` would type it. */
function shown(cwd: string, path: string): string {
  return relative(cwd, path) || '.';
}
