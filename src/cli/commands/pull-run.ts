import { lstatSync } from 'node:fs';
import { dirname, posix, resolve } from 'node:path';
import { loadRun, STATE_LOCK_WAIT, withLockedState } from '../../api/pipeline.js';
import { hashBody } from '../../cache/hash.js';
import type { ProjectOptions } from '../../config/project.js';
import { toDisplayPath } from '../../definitions/find.js';
import { readProjectText } from '../../definitions/read-capped.js';
import { UsageError, WfsyncError } from '../../errors.js';
import { ExitCode } from '../../exit-codes.js';
import { createFsBoundary, type FsBoundary, isInside } from '../../fs-boundary.js';
import { referencedGroups } from '../../plan/desired.js';
import { applyPullPlan } from '../../pull/apply.js';
import { buildPullPlan, type PullFiles } from '../../pull/build-plan.js';
import { endsCommand, openTargetSession, RemoteError, type ServiceClient } from '../../remote/index.js';
import { type PullFormat, pullRenderers } from '../../report/pull.js';
import { writeOutput } from '../../report/write-output.js';
import { readModelineInput } from '../../scaffold/files.js';
import { decideModeline } from '../../scaffold/schema-ref.js';
import { writeFileAtomically } from '../../state/atomic-write.js';
import type { CommandContext } from '../context.js';
import { clientListener } from '../run-helpers.js';
import { parseTargetArguments, type TargetValues } from '../run-options.js';

/** Commander's values of pull's own options (cli/commands/pull.ts). */
export interface PullValues extends TargetValues {
  dir?: string;
  force?: boolean;
  /** Template text of more lines than this goes to a file of its own (`content: {file: …}`). */
  splitContent?: number;
  format: PullFormat;
}

export async function runPull(ctx: CommandContext, ids: string[], values: PullValues): Promise<number> {
  const { options, verbose } = parseTargetArguments(values);
  // 1. Config, target and the existing definitions (to find the file each identifier lives in).
  const loaded = await loadRun(options, { cwd: ctx.cwd, env: ctx.env });
  const session = await openTargetSession(loaded.target, {
    env: ctx.env,
    onClientEvent: clientListener(ctx, verbose),
  });
  if (verbose) await writeOutput(ctx.stderr, `wfsync: ${session.route}\n`);
  try {
    // 2. State is written: take the target's lock.
    return await withLockedState(loaded.target, STATE_LOCK_WAIT, async (store) => {
      // 3. What the service holds.
      const fetched = [];
      for (const id of ids) fetched.push(await fetchForPull(session.client, id));
      // 4. The plan (pure). Every group the definitions name resolves, so a file's `group:<name>` can stay.
      const boundary = createFsBoundary(ctx.cwd);
      const hints: string[] = [];
      const plan = buildPullPlan({
        target: loaded.target.name,
        fetched,
        definitions: loaded.definitions,
        groups: session.groups([
          ...new Set([
            ...Object.keys(loaded.target.notificationGroups),
            ...referencedGroups(loaded.definitions),
          ]),
        ]),
        files: diskFor(boundary, {
          project: loaded.project,
          dir: values.dir,
          hints,
          definitions: loaded.definitions,
        }),
        force: values.force === true,
        splitContent: values.splitContent,
      });
      // 5. Apply: included files, definitions, state entries; every file written never through a link.
      const writeFile = (path: string, text: string) => writeFileAtomically(path, text, { boundary });
      await applyPullPlan(plan, { writeFile, store, hash: hashBody, now: () => new Date() });
      // 6. Report.
      const output = pullRenderers[values.format](plan);
      await writeOutput(ctx.stdout, output.stdout);
      await writeOutput(ctx.stderr, output.stderr);
      if (verbose) for (const hint of new Set(hints)) await writeOutput(ctx.stderr, `wfsync: ${hint}\n`);
      return plan.items.some((item) => 'failed' in item) ? ExitCode.Failure : ExitCode.Ok;
    });
  } finally {
    await session.close();
  }
}

/**
 * What the service holds for one workflow asked for. An answer that fails this workflow alone (a 5xx after the
 * retries, a body nested too deep or of the wrong shape) is its item's failure, as plan reports it, and the others
 * are pulled; one that ends the command (auth, rate limit, cancellation, deadline) ends it.
 */
async function fetchForPull(client: ServiceClient, requested: string) {
  try {
    return { requested, workflow: await client.getWorkflow(requested) };
  } catch (error) {
    if (!(error instanceof RemoteError) || endsCommand(error)) throw error;
    return { requested, workflow: undefined, failed: error.message };
  }
}

/**
 * The disk as the pull plan sees it: paths from the working directory, `--dir` for new files, files read through the
 * project boundary. A new file is `<identifier>.yaml` right in the folder new files go to (the plan has checked the
 * identifier is a slug; a path anywhere else is a bug, refused here too).
 */
function diskFor(
  boundary: FsBoundary,
  options: {
    project: ProjectOptions;
    dir: string | undefined;
    hints: string[];
    definitions: readonly { file: string }[];
  },
): PullFiles {
  const { project, dir, hints } = options;
  const { cwd } = boundary;
  const newFiles = resolve(cwd, dir ?? project.workflowsDir);
  const inDir = dir === undefined ? undefined : resolve(cwd, dir);
  return {
    pathOf: (identifier, known) => {
      if (known) return resolve(cwd, known.file);
      const path = resolve(newFiles, `${identifier}.yaml`);
      if (dirname(path) !== newFiles)
        throw new WfsyncError(`refusing to write outside ${toDisplayPath(cwd, newFiles)}`);
      // Without --dir, a new file must be one of the project's definitions: a `workflowsDir` of patterns only has
      // no folder of its own (its fixed part, `services` of `services/*/workflows`, is not matched by it).
      if (dir === undefined && project.sources.classify(path) !== 'definition')
        throw notListed(toDisplayPath(cwd, path), project, options.definitions);
      return path;
    },
    beside: (path, file) => resolve(dirname(path), file),
    // A link counts as there (dangling or not): the writer refuses it rather than replacing what it names.
    exists: (path) => {
      try {
        lstatSync(path);
        return true;
      } catch {
        return false;
      }
    },
    read: (path) => readProjectText(path, MAX_DEFINITION_READ, boundary),
    display: (path) => toDisplayPath(cwd, path),
    modeline: (path) => {
      // The modeline that resolves from where the file lands (or none: see decideModeline).
      const decision = decideModeline(readModelineInput(project.config?.dir ?? project.cwd, path));
      if (decision.source === 'none') hints.push(decision.hint);
      return 'schemaRef' in decision ? { source: decision.source, schema: decision.schemaRef } : undefined;
    },
    outsideDir: (path) => inDir !== undefined && !isInside(inDir, path),
  };
}

/** Nothing is written: the usage error names the folders that hold the project's definitions, for --dir. */
function notListed(
  file: string,
  project: ProjectOptions,
  definitions: readonly { file: string }[],
): UsageError {
  const folders = [...new Set(definitions.map((d) => posix.dirname(d.file)))].sort();
  const choose =
    folders.length > 0
      ? `choose a folder with --dir: ${folders.join(', ')}`
      : 'pass --dir with a folder it matches';
  return new UsageError(
    `pull would write a new file to ${file}, which ${project.sources.describe} does not list, so no command would ` +
      `read it again; ${choose}`,
  );
}

/** The definition a pull merges into was read whole by the load, under the same cap. */
const MAX_DEFINITION_READ = 16 * 1024 * 1024;
