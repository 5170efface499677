import { existsSync } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { parse } from 'yaml';
import { configFileNameIn, DEFAULT_WORKFLOWS_DIR, findUp } from '../../config/project.js';
import { scanDefinitionFiles } from '../../definitions/find.js';
import { readProjectText } from '../../definitions/read-capped.js';
import { UsageError } from '../../errors.js';
import { ExitCode } from '../../exit-codes.js';
import { createFsBoundary } from '../../fs-boundary.js';
import { jsonText } from '../../report/channel.js';
import { writeOutput } from '../../report/write-output.js';
import { EXAMPLE_FILE_NAME } from '../../scaffold/example-workflow.js';
import {
  detectSchemaPath,
  findSchemaFiles,
  readExistingFiles,
  toPosix,
  writeScaffoldFile,
} from '../../scaffold/files.js';
import { buildInitActions, type CiProvider, type InitAction, initPaths } from '../../scaffold/init-plan.js';
import { buildInitDocument, renderInitLine, renderInitSummary } from '../../scaffold/init-report.js';
import { normalizeSchemaPath } from '../../scaffold/schema-ref.js';
import type { CommandContext } from '../context.js';

export interface InitFlags {
  ci: CiProvider;
  /** Global `--verbose`: why a file was written without a schema modeline. */
  verbose?: boolean;
  dir?: string;
  schemaPath?: string;
  force?: boolean;
  format?: 'human' | 'json';
}

export async function runInit(ctx: CommandContext, flags: InitFlags): Promise<number> {
  const root = ctx.cwd;
  // 1. Where things go: flags, else what an existing config says, else the defaults.
  const configPath = configFileNameIn(root);
  const configured = readConfiguredWorkflowsDir(root, configPath);
  const workflowsDir =
    flags.dir !== undefined
      ? projectSubdirectory(root, flags.dir, '--dir')
      : configured === undefined
        ? DEFAULT_WORKFLOWS_DIR
        : projectSubdirectory(root, configured, `workflowsDir in ${configPath}`);
  const schemaPath =
    flags.schemaPath === undefined ? detectSchemaPath(root) : normalizeSchemaPath(flags.schemaPath);
  // 2. A snapshot of what exists, then every decision, before the first write.
  const layout = { configPath, workflowsDir, ci: flags.ci };
  const actions = buildInitActions({
    ...layout,
    schemaPath,
    schemaPathGiven: flags.schemaPath !== undefined,
    exampleSchemas: findSchemaFiles(root, join(root, workflowsDir, EXAMPLE_FILE_NAME)),
    configSchemas: findSchemaFiles(root, join(root, configPath)),
    force: flags.force === true,
    existing: await readExistingFiles(root, initPaths(layout)),
    otherDefinitions: await hasOtherDefinitions(root, workflowsDir),
  });
  // 3. Write, saying what happened to each file as it happens (and, with --verbose, why one has no modeline).
  for (const action of actions) {
    if (action.text !== undefined) {
      await writeScaffoldFile(
        root,
        action.path,
        action.text,
        action.status === 'created' ? 'create' : 'replace',
      );
    }
    if (flags.format !== 'json') await writeOutput(ctx.stdout, renderInitLine(action));
    if (flags.verbose && action.noModeline !== undefined)
      await writeOutput(ctx.stderr, `wfsync: ${action.noModeline}\n`);
  }
  // 4. What to add by hand, what is missing, what to do next.
  const notes = [
    ...workflowsDirNote({ actions, configPath, configured, workflowsDir }),
    ...dependencyNotes(root, { ci: flags.ci === 'gitlab', schemaPath }),
    ...(flags.ci === 'none' ? [] : repositoryRootNote(root, flags.ci)),
  ];
  if (flags.format === 'json')
    await writeOutput(ctx.stdout, `${jsonText(buildInitDocument(actions, notes))}\n`);
  else
    await writeOutput(
      ctx.stdout,
      renderInitSummary(actions, { notes, ci: flags.ci !== 'none', provider: flags.ci }),
    );
  return ExitCode.Ok;
}

/** A directory inside the project, as a relative path with `/` separators. */
function projectSubdirectory(root: string, given: string, what: string): string {
  const path = toPosix(relative(root, resolve(root, given)));
  if (path === '') {
    throw new UsageError(`${what} must be a subdirectory: the config file would be read as a definition`);
  }
  if (path === '..' || path.startsWith('../') || isAbsolute(path)) {
    throw new UsageError(`${what} must be inside the current directory (got ${given})`);
  }
  return path;
}

/** A config or package.json init reads holds far less. */
const MAX_READ_BYTES = 1024 * 1024;

/** A project file's text, through the project boundary (fs-boundary.ts): never through a link leading out. */
function readText(root: string, file: string): string {
  return readProjectText(join(root, file), MAX_READ_BYTES, createFsBoundary(root));
}

/** The workflowsDir an existing config names; undefined when there is no config or it does not say. */
function readConfiguredWorkflowsDir(root: string, file: string): string | undefined {
  try {
    const config: unknown = parse(readText(root, file));
    const dir = (config as { workflowsDir?: unknown } | null)?.workflowsDir;
    return typeof dir === 'string' && dir !== '' ? dir : undefined;
  } catch {
    // Absent or broken: `wfsync validate` reports a broken config with positions; init only needs a default.
    return undefined;
  }
}

async function hasOtherDefinitions(root: string, workflowsDir: string): Promise<boolean> {
  if (!existsSync(join(root, workflowsDir))) return false;
  const scan = await scanDefinitionFiles([workflowsDir], { cwd: root, defaultDir: workflowsDir });
  return scan.files.some((file) => file !== `${workflowsDir}/${EXAMPLE_FILE_NAME}`);
}

function workflowsDirNote(input: {
  actions: readonly InitAction[];
  configPath: string;
  configured: string | undefined;
  workflowsDir: string;
}): string[] {
  const config = input.actions.find((a) => a.path === input.configPath);
  const named = input.configured ?? DEFAULT_WORKFLOWS_DIR;
  if (config?.status !== 'kept' || named === input.workflowsDir) return [];
  return [
    `${input.configPath} was kept and names workflowsDir "${named}", so wfsync looks for definitions there, ` +
      `not in ${input.workflowsDir}/: change it there (or run again with --force to replace the config)`,
  ];
}

/** The GitLab jobs run `npm ci` and `npx wfsync` (the GitHub recipes use the action, which runs its own pinned version), and editors read the schema from node_modules/wfsync. */
function dependencyNotes(root: string, options: { ci: boolean; schemaPath: string }): string[] {
  if (!options.ci && !options.schemaPath.includes('node_modules/')) return [];
  const install = '`npm install --save-dev wfsync`';
  let manifest: { name?: unknown; dependencies?: object; devDependencies?: object };
  try {
    manifest = JSON.parse(readText(root, 'package.json')) as typeof manifest;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') return [];
    const users = options.ci
      ? 'the GitLab jobs run `npm ci` and `npx wfsync`, and editors read the schema from node_modules/wfsync'
      : 'editors read the schema from node_modules/wfsync';
    return [`there is no package.json here: ${users}. Create one (\`npm init -y\`), then ${install}.`];
  }
  if (manifest.name === 'wfsync') return [];
  const listed = [manifest.dependencies, manifest.devDependencies].some(
    (deps) => typeof deps === 'object' && deps !== null && Object.hasOwn(deps, 'wfsync'),
  );
  if (listed) return [];
  return [
    `wfsync is not a dependency in package.json: ${install} so ${options.ci ? 'CI (`npm ci`, `npx wfsync`) and editors use' : 'editors use'} ` +
      'the same version as you.',
  ];
}

/** GitHub and GitLab read the pipeline only from the repository root. */
function repositoryRootNote(root: string, ci: 'github' | 'gitlab'): string[] {
  const git = findUp(root, ['.git']);
  const dir = git === undefined ? undefined : dirname(git);
  if (dir === undefined || dir === resolve(root)) return [];
  const sub = toPosix(relative(dir, root));
  if (ci === 'gitlab') {
    return [
      `GitLab reads .gitlab-ci.yml only at the repository root (${dir}): include ${sub}/.gitlab/wfsync.gitlab-ci.yml ` +
        `from there and run its jobs in ${sub} (\`cd ${sub}\` first in each script).`,
    ];
  }
  return [
    `GitHub reads workflow files only from .github/workflows at the repository root (${dir}): move the ` +
      `three wfsync-*.yml files there and give their jobs \`defaults: { run: { working-directory: ${sub} } }\`.`,
  ];
}
