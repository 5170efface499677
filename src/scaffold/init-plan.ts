/**
 * What `wfsync init` does to each file, decided from a snapshot of the files that exist, before anything is
 * written. Files wfsync owns are created, left alone when identical, kept when they differ (replaced with
 * --force); files the user owns (.vscode/settings.json, .gitignore) get entries merged in, never replaced.
 * Pure: the same snapshot always gives the same actions.
 */
import { buildGitlabFiles, buildGitlabRoot, checkGitlabRoot, GITLAB_ROOT_PATH } from './ci/gitlab.js';
import { buildGithubWorkflows } from './ci/index.js';
import { buildConfigFile } from './config-file.js';
import { buildExampleWorkflow, EXAMPLE_FILE_NAME } from './example-workflow.js';
import { buildGitignoreMerge } from './gitignore.js';
import {
  configSchemaOf,
  decideModeline,
  type ModelineDecision,
  type ModelineInput,
  modelineOf,
  PACKAGE_SCHEMA_PATH,
} from './schema-ref.js';
import { buildSettingsMerge, SETTINGS_PATH, workflowSchemaGlobs } from './vscode-settings.js';

export const GITIGNORE_PATH = '.gitignore';

/** The CI provider whose pipeline init writes. */
export type CiProvider = 'github' | 'gitlab' | 'none';

export type InitStatus = 'created' | 'updated' | 'replaced' | 'unchanged' | 'kept' | 'skipped';

export interface InitAction {
  /** Relative to the project root, `/` separators. */
  path: string;
  status: InitStatus;
  /** The new content, for created, updated and replaced. */
  text?: string;
  note?: string;
  /** What to add by hand when a file could not be merged safely. */
  manual?: string;
  /** A file written without a schema modeline: why (`--verbose` says it). */
  noModeline?: string;
}

export interface InitInput {
  /** The config file: `wfsync.config.yaml`, or the `.yml` one that exists. */
  configPath: string;
  /** Relative to the project root, `/` separators, no trailing slash. */
  workflowsDir: string;
  /** The workflow schema as editor settings name it (see schema-ref.ts). */
  schemaPath: string;
  /** `--schema-path` named it: the example's modeline names it too. */
  schemaPathGiven?: boolean;
  /** The schema files the example could name (files.ts findSchemaFiles); its modeline is decided with them. */
  exampleSchemas: SchemaFiles;
  /** The same for the config file: its modeline names the config schema beside the workflow schema it finds. */
  configSchemas: SchemaFiles;
  ci: CiProvider;
  force: boolean;
  /** Current text of every path above that exists. */
  existing: ReadonlyMap<string, string>;
  /** The workflows directory already holds definitions other than the example. */
  otherDefinitions: boolean;
}

type SchemaFiles = Pick<ModelineInput, 'path' | 'root' | 'vendored' | 'installed'>;

export function buildInitActions(input: InitInput): InitAction[] {
  const { workflowsDir } = input;
  const examplePath = `${workflowsDir}/${EXAMPLE_FILE_NAME}`;
  const owned = (path: string, text: string) => ownedFileAction(path, text, input);
  // The config's modeline as the example's is decided (decideModeline), naming the config schema beside the
  // workflow schema found; editor settings map definitions only, so they never stand in for it.
  const configDecision = decide(input, input.configSchemas, []);
  const configSchemaRef =
    'schemaRef' in configDecision ? configSchemaOf(configDecision.schemaRef) : undefined;
  const config = owned(input.configPath, buildConfigFile({ workflowsDir, configSchemaRef, ci: input.ci }));
  const actions: InitAction[] = [
    configSchemaRef === undefined && config.text !== undefined
      ? { ...config, noModeline: configWithoutModeline(input.configPath) }
      : config,
  ];
  const settings = settingsAction(input);
  if (input.otherDefinitions && !input.existing.has(examplePath)) {
    actions.push({ path: examplePath, status: 'skipped', note: `${workflowsDir}/ already has definitions` });
  } else {
    // Decided with the settings as this run leaves them.
    const globs = workflowSchemaGlobs(settings.text ?? input.existing.get(SETTINGS_PATH));
    const decision = decide(input, input.exampleSchemas, globs);
    actions.push(withReason(owned(examplePath, buildExampleWorkflow(modelineOf(decision))), decision));
  }
  actions.push(settings, gitignoreAction(input.existing.get(GITIGNORE_PATH)));
  if (input.ci === 'github') {
    for (const { path, text } of buildGithubWorkflows()) actions.push(owned(path, text));
  } else if (input.ci === 'gitlab') {
    for (const { path, text } of buildGitlabFiles()) actions.push(owned(path, text));
    actions.push(gitlabRootAction(input.existing.get(GITLAB_ROOT_PATH)));
  }
  return actions;
}

/** A written file's modeline (decideModeline): the schema `--schema-path` named, the one on disk, or none. */
function decide(input: InitInput, files: SchemaFiles, settingsGlobs: readonly string[]): ModelineDecision {
  return decideModeline({
    ...files,
    given: input.schemaPathGiven === true ? input.schemaPath : undefined,
    settingsGlobs,
  });
}

/** Why the config file has no modeline, and how to add one. */
function configWithoutModeline(path: string): string {
  return (
    `no schema modeline in ${path}: wfsync is not installed here (npm install --save-dev wfsync) and the ` +
    'repository has no schemas/config.schema.json; once installed, make its first line ' +
    `\`# yaml-language-server: $schema=./${PACKAGE_SCHEMA_PATH.replace('workflow.schema.json', 'config.schema.json')}\``
  );
}

/** A file this run writes without a modeline carries why, for `--verbose`. */
function withReason(action: InitAction, decision: ModelineDecision): InitAction {
  if (action.text === undefined || 'schemaRef' in decision) return action;
  const noModeline =
    decision.source === 'none'
      ? decision.hint
      : `no schema modeline in ${action.path}: .vscode/settings.json maps it to the schema (a modeline would override the mapping)`;
  return { ...action, noModeline };
}

/** The globs of definition files under the workflows directory (validate reads both extensions). */
export function definitionGlobs(workflowsDir: string): string[] {
  return [`${workflowsDir}/**/*.yaml`, `${workflowsDir}/**/*.yml`];
}

/** Every path buildInitActions may read: what the snapshot must hold when it exists. */
export function initPaths(input: Pick<InitInput, 'configPath' | 'workflowsDir' | 'ci'>): string[] {
  const paths = [
    input.configPath,
    `${input.workflowsDir}/${EXAMPLE_FILE_NAME}`,
    SETTINGS_PATH,
    GITIGNORE_PATH,
  ];
  if (input.ci === 'github') paths.push(...buildGithubWorkflows().map((w) => w.path));
  if (input.ci === 'gitlab') paths.push(...buildGitlabFiles().map((f) => f.path), GITLAB_ROOT_PATH);
  return paths;
}

function ownedFileAction(path: string, text: string, input: InitInput): InitAction {
  const current = input.existing.get(path);
  if (current === undefined) return { path, status: 'created', text };
  // A checkout with CRLF line endings (git autocrlf) holds the same file.
  if (current.replace(/\r\n/g, '\n') === text) return { path, status: 'unchanged' };
  if (input.force) return { path, status: 'replaced', text };
  return { path, status: 'kept', note: 'exists; --force to replace' };
}

function settingsAction(input: InitInput): InitAction {
  const merge = buildSettingsMerge(input.existing.get(SETTINGS_PATH), {
    schema: input.schemaPath,
    globs: definitionGlobs(input.workflowsDir),
  });
  const path = SETTINGS_PATH;
  if (merge.status === 'unchanged') return { path, status: 'unchanged' };
  if (merge.status === 'manual') {
    return { path, status: 'kept', note: `not merged: ${merge.reason}`, manual: merge.snippet };
  }
  if (merge.status === 'create') return { path, status: 'created', text: merge.text };
  return { path, status: 'updated', text: merge.text, note: `merged: ${merge.note}` };
}

function gitignoreAction(existing: string | undefined): InitAction {
  const merge = buildGitignoreMerge(existing);
  if (merge.status === 'unchanged') {
    return { path: GITIGNORE_PATH, status: 'unchanged', ...(merge.note ? { note: merge.note } : {}) };
  }
  if (existing === undefined) return { path: GITIGNORE_PATH, status: 'created', text: merge.text };
  const count = `${merge.added.length} entr${merge.added.length === 1 ? 'y' : 'ies'}`;
  return { path: GITIGNORE_PATH, status: 'updated', text: merge.text, note: `merged: ${count} added` };
}

/**
 * `.gitlab-ci.yml` is the user's pipeline, never replaced (not even with --force): created when absent, left alone
 * when it includes wfsync's jobs, else kept with the `include:` to add by hand.
 */
function gitlabRootAction(existing: string | undefined): InitAction {
  const path = GITLAB_ROOT_PATH;
  if (existing === undefined) return { path, status: 'created', text: buildGitlabRoot() };
  const check = checkGitlabRoot(existing);
  if (check.status === 'included')
    return { path, status: 'unchanged', ...(check.note ? { note: check.note } : {}) };
  return { path, status: 'kept', note: `not changed: ${check.reason}`, manual: check.snippet };
}
