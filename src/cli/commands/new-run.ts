import { existsSync } from 'node:fs';
import { join, posix, relative, resolve } from 'node:path';
import { checkDefinitions } from '../../check/check-definitions.js';
import { type ProjectOptions, readProject } from '../../config/project.js';
import { plainFolders } from '../../config/sources.js';
import { isWithin, toDisplayPath } from '../../definitions/find.js';
import { UsageError } from '../../errors.js';
import { ExitCode } from '../../exit-codes.js';
import { SCHEMA_VERSION } from '../../plan/schema-version.js';
import { jsonText } from '../../report/channel.js';
import { writeOutput } from '../../report/write-output.js';
import { type Channel, DEFAULT_CHANNEL } from '../../scaffold/channels.js';
import { readModelineInput, writeScaffoldFile } from '../../scaffold/files.js';
import { buildNewDefinition, parseTimeWindow, type TimeWindow } from '../../scaffold/new-definition.js';
import { decideModeline, withModeline } from '../../scaffold/schema-ref.js';
import type { CommandContext } from '../context.js';

export interface NewFlags {
  /** Absent: one in-app step. */
  channel?: Channel[];
  digest?: string;
  delay?: string;
  dir?: string;
  force?: boolean;
  format?: 'human' | 'json';
}

export async function runNew(
  ctx: CommandContext,
  name: string,
  flags: NewFlags & { config?: string; verbose?: boolean },
): Promise<number> {
  // 1. The project: where definitions live, and where the schema is for the modeline.
  const project = readProject(flags, ctx.cwd);
  const root = project.config?.dir ?? ctx.cwd;
  // The whole project's definitions, valid or not: every one claims its identifier (and names the folders to offer).
  const existing = await readProjectDefinitions(ctx.cwd, project);
  const dir =
    flags.dir === undefined ? defaultFolder(ctx.cwd, project, existing.files) : resolve(ctx.cwd, flags.dir);
  // 2. The definition, with the identifier the service will derive from the name.
  const built = buildNewDefinition({
    name,
    channels: flags.channel ?? [DEFAULT_CHANNEL],
    digest: windowOf('--digest', flags.digest),
    delay: windowOf('--delay', flags.delay),
  });
  if ('problem' in built) throw new UsageError(built.problem);
  const path = join(dir, built.fileName);
  // The modeline that resolves from where the file lands (or none: see decideModeline).
  const modeline = decideModeline(readModelineInput(root, path));
  const file = toDisplayPath(ctx.cwd, path);
  // 3. Never two definitions of one identifier; never an existing file without --force.
  const owners = await readOtherOwners(ctx.cwd, project, dir, existing.identifiers);
  const others = (owners.get(built.identifier) ?? []).filter((owner) => owner !== file);
  if (others.length > 0) {
    throw new UsageError(
      `the identifier "${built.identifier}" is already used by ${others.join(', ')}: choose another name`,
    );
  }
  const exists = existsSync(path);
  if (exists && flags.force !== true)
    throw new UsageError(`${file} already exists; use --force to overwrite it`);
  // 4. Write, then say what to know.
  await writeScaffoldFile(ctx.cwd, file, withModeline(built.text, modeline), exists ? 'replace' : 'create');
  if (flags.verbose && modeline.source === 'none')
    await writeOutput(ctx.stderr, `wfsync: ${modeline.hint}\n`);
  for (const warning of built.warnings) await writeOutput(ctx.stderr, `wfsync: warning: ${warning}\n`);
  const action = exists ? 'replaced' : 'created';
  const steps = built.definition.steps.map((step) => step.template.type);
  if (flags.format === 'json') {
    const document = {
      schemaVersion: SCHEMA_VERSION,
      action,
      file,
      identifier: built.identifier,
      name: built.definition.name,
      steps,
      modeline: 'schemaRef' in modeline ? { source: modeline.source, schema: modeline.schemaRef } : null,
      warnings: built.warnings,
    };
    await writeOutput(ctx.stdout, `${jsonText(document)}\n`);
  } else {
    const phrase = steps.length === 1 ? `one ${steps[0]} step` : `${steps.length} steps: ${steps.join(', ')}`;
    await writeOutput(ctx.stdout, `${action} ${file} (identifier ${built.identifier}, ${phrase})\n`);
  }
  return ExitCode.Ok;
}

function windowOf(flag: string, value: string | undefined): TimeWindow | undefined {
  if (value === undefined) return undefined;
  const window = parseTimeWindow(value);
  if (window === undefined)
    throw new UsageError(`${flag} takes an amount and a unit (30s, 10m, 1h, 2d, 1w, 1mo), not "${value}"`);
  return window;
}

/**
 * Every definition of the project (each folder and pattern of `workflowsDir`, less `exclude`) that parses, valid or
 * not: the files, and identifier → the files that declare it (one with an error still claims its identifier).
 */
async function readProjectDefinitions(
  cwd: string,
  project: ProjectOptions,
): Promise<{ files: readonly string[]; identifiers: ReadonlyMap<string, string[]> }> {
  if (!project.sources.roots.some((root) => existsSync(root))) return { files: [], identifiers: new Map() };
  // Severities change the findings, never the identifiers: the defaults do.
  const defaultDir = relative(cwd, project.workflowsDir) || '.';
  const checked = await checkDefinitions([], { cwd, defaultDir, sources: project.sources, rules: {} });
  return { files: checked.files, identifiers: checked.identifiers };
}

/**
 * The project's owners, and those of the folder the file goes to when `--dir` names one outside the project's
 * definitions (a file there must not repeat an identifier either: it may be listed later).
 */
async function readOtherOwners(
  cwd: string,
  project: ProjectOptions,
  dir: string,
  owners: ReadonlyMap<string, string[]>,
): Promise<ReadonlyMap<string, string[]>> {
  if (!existsSync(dir) || project.sources.roots.some((root) => isWithin(dir, root))) return owners;
  const extra = (await checkDefinitions([dir], { cwd, defaultDir: dir, rules: {} })).identifiers;
  const merged = new Map(owners);
  for (const [identifier, files] of extra)
    merged.set(identifier, [...new Set([...(merged.get(identifier) ?? []), ...files])]);
  return merged;
}

/**
 * Where a new definition goes without `--dir`: the first plain folder `workflowsDir` lists. A list of patterns only
 * names no one folder: a usage error offers the folders that hold the project's definitions.
 */
function defaultFolder(cwd: string, project: ProjectOptions, files: readonly string[]): string {
  const root = project.config?.dir ?? cwd;
  if (plainFolders(root, project.config?.config.workflowsDir).length > 0) return project.workflowsDir;
  const folders = [...new Set(files.map((file) => posix.dirname(file)))].sort();
  const choose =
    folders.length > 0
      ? `choose one with --dir: ${folders.join(', ')}`
      : 'no definition matches it yet: pass --dir with a folder it matches';
  throw new UsageError(
    `${project.sources.describe} lists only patterns, so new does not know where the definition goes: ${choose}`,
  );
}
