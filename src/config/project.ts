import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { DefinitionSources } from '../definitions/find.js';
import { CONFIG_FILE_NAMES } from '../fs-boundary.js';
import type { RuleOptions, SeverityOverride } from '../validate/rules/index.js';
import { type LoadedConfig, readConfig } from './read.js';
import { buildDefinitionSources, DEFAULT_WORKFLOWS_DIR, firstFolder } from './sources.js';

export { DEFAULT_WORKFLOWS_DIR };

/** What every command needs to know about the project, whatever the target. */
export interface ProjectOptions {
  cwd: string;
  config?: LoadedConfig;
  /**
   * The config was named (`--config`) and is not the file discovery finds from `cwd`: a command the run suggests must
   * name it too.
   */
  configNamed: boolean;
  /**
   * Absolute path of the folder new definitions go to (`new`, `pull`): config `workflowsDir` (relative to the
   * config file), its first plain folder when it lists several, else its first pattern's fixed part.
   */
  workflowsDir: string;
  /** Every folder and pattern `workflowsDir` lists, less `exclude` and the config file: where definitions are. */
  sources: DefinitionSources;
  severities: Record<string, SeverityOverride>;
  /** The config's `overrides:`, each entry's `files` as a list; empty without. */
  overrides: NonNullable<RuleOptions['overrides']>;
  /**
   * Group names a `group:<name>` reference may use: those every configured target defines. Undefined when no target
   * defines `notificationGroups` (references then cannot be resolved offline).
   */
  notificationGroups?: string[];
}

export interface ProjectFlags {
  /** `--config FILE`; otherwise wfsync.config.yaml is looked up from cwd upwards. */
  config?: string;
}

export function readProject(flags: ProjectFlags, cwd: string): ProjectOptions {
  const configPath = flags.config ?? findConfigFile(cwd);
  const config = configPath === undefined ? undefined : readConfig(configPath, cwd);
  const base = config?.dir ?? cwd;
  const sources = buildDefinitionSources({
    base,
    workflowsDir: config?.config.workflowsDir,
    exclude: config?.config.exclude,
    // Whatever it is called (--config), and the names discovery looks for beside it.
    configFiles: config ? [config.path, ...CONFIG_FILE_NAMES.map((name) => join(config.dir, name))] : [],
    configFile: config?.file,
  });
  return {
    cwd,
    config,
    // Discovery is asked once either way: for the file to read, or whether it finds the one named.
    configNamed: config !== undefined && flags.config !== undefined && config.path !== findConfigFile(cwd),
    workflowsDir: firstFolder(base, config?.config.workflowsDir),
    sources,
    severities: { ...config?.config.rules } as Record<string, SeverityOverride>,
    overrides: (config?.config.overrides ?? []).map((o) => ({
      files: typeof o.files === 'string' ? [o.files] : [...o.files],
      rules: { ...o.rules } as Record<string, SeverityOverride>,
    })),
    notificationGroups: buildKnownGroups(config),
  };
}

/**
 * The rule options a project's definitions are checked with: `rules:`, `overrides:` (globs relative to the config's
 * folder) and the known notification groups; `--report-unused-disable` from the command.
 */
export function projectRuleOptions(project: ProjectOptions, reportUnusedDisable = false): RuleOptions {
  const options: RuleOptions = {
    severities: project.severities,
    notificationGroups: project.notificationGroups,
  };
  if (project.overrides.length > 0) {
    options.overrides = project.overrides;
    options.overridesBase = project.config?.dir ?? project.cwd;
  }
  if (reportUnusedDisable) options.reportUnusedDisable = true;
  return options;
}

function buildKnownGroups(config: LoadedConfig | undefined): string[] | undefined {
  const targets = Object.values(config?.config.targets ?? {}).filter((t) => t?.notificationGroups);
  if (targets.length === 0) return undefined;
  const [first, ...rest] = targets.map((t) => new Set(Object.keys(t?.notificationGroups ?? {})));
  return [...first!].filter((name) => rest.every((set) => set.has(name))).sort();
}

/** The config file's name in `dir`: the one there, else the default (wfsync.config.yaml). */
export function configFileNameIn(dir: string): string {
  return CONFIG_FILE_NAMES.find((name) => existsSync(join(dir, name))) ?? CONFIG_FILE_NAMES[0];
}

/** Walk up from `cwd` to the filesystem root; the first wfsync.config.yaml found wins. */
export function findConfigFile(cwd: string): string | undefined {
  return findUp(cwd, CONFIG_FILE_NAMES);
}

/** The first of `names` (relative paths) found in `from` or the nearest directory above it, as an absolute path. */
export function findUp(from: string, names: readonly string[]): string | undefined {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    for (const name of names) {
      const candidate = join(dir, name);
      if (existsSync(candidate)) return candidate;
    }
    if (dirname(dir) === dir) return undefined;
  }
}
