import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { toDisplayPath } from '../../config/read.js';
import { replaceIncludes } from '../../definitions/includes.js';
import type { LoadedDefinition } from '../../definitions/types.js';
import { WfsyncError } from '../../errors.js';
import { ExitCode } from '../../exit-codes.js';
import type { WorkflowDefinition } from '../../generated/workflow.js';
import type { WorkflowResponse } from '../../generated/workflow-response.js';
import type { Json } from '../../json.js';
import {
  buildCreateBody,
  buildDefinitionFromRemote,
  resolveGroup,
  SCHEMA_MODELINE,
  type TargetGroups,
} from '../../plan/index.js';
import { buildDefinitionYaml } from '../../plan/pull.js';
import { mergePulledDefinition } from '../../plan/pull-merge.js';
import { readRemote, WORKFLOW_SHAPE } from '../../plan/shape.js';
import { openTargetSession } from '../../remote/index.js';
import { writeFileText, writeOutput } from '../../report/write-output.js';
import { acquireLock, StateStore } from '../../state/index.js';
import type { CommandContext } from '../context.js';
import { hashBody, referencedGroups } from '../desired.js';
import { loadRun, stateIdentity } from '../pipeline.js';
import { verboseClientLog } from '../verbose.js';
import type { PullFlags } from './pull.js';
import {
  changedIncludeFields,
  inlinedNotes,
  type PullIncludes,
  planPullIncludes,
  writePullIncludes,
} from './pull-includes.js';

export async function runPull(
  ctx: CommandContext,
  ids: string[],
  flags: PullFlags & { config?: string },
): Promise<number> {
  // 1. Config, target and the existing definitions (to find the file each identifier lives in).
  const loaded = await loadRun(flags, ctx.cwd, ctx.env);
  const existing = new Map(
    loaded.definitions.map((d) => [(d.value as WorkflowDefinition).triggers[0].identifier, d]),
  );
  const byIdentifier = new Map([...existing].map(([id, d]) => [id, resolve(ctx.cwd, d.file)]));
  const session = await openTargetSession(loaded.target, {
    env: ctx.env,
    ...(flags.verbose ? { onClientEvent: verboseClientLog(ctx.stderr) } : {}),
  });
  let failures = 0;
  try {
    // 2. State is written: take the target's lock like sync does.
    const lock = await acquireLock(loaded.target.statePath, { timeoutMs: 60_000 });
    try {
      const store = await StateStore.open(loaded.target.statePath, stateIdentity(session));
      // Every reference the definitions use, so an existing `group:<name>` resolves (locally: to the emulator's group)
      // and the merge can keep it.
      const groups = session.groups([
        ...new Set([
          ...Object.keys(loaded.target.notificationGroups),
          ...referencedGroups(loaded.definitions),
        ]),
      ]);
      for (const id of ids) {
        const actual = await session.client.getWorkflow(id);
        if (!actual) {
          failures++;
          await writeOutput(ctx.stderr, `wfsync: ${id}: not found on target "${loaded.target.name}"\n`);
          continue;
        }
        // 3. Convert, decide where it goes, write, record.
        const pulled = buildDefinitionFromRemote(actual, { groups });
        const identifier = pulled.definition.triggers[0]?.identifier;
        if (!identifier) {
          failures++;
          await writeOutput(
            ctx.stderr,
            `wfsync: ${id}: the service's workflow has no trigger identifier; nothing written\n`,
          );
          continue;
        }
        const path =
          byIdentifier.get(identifier) ??
          join(resolve(ctx.cwd, flags.dir ?? loaded.project.workflowsDir), `${identifier}.yaml`);
        guardOverwrite(path, identifier, byIdentifier, flags.force === true);
        const file = toDisplayPath(ctx.cwd, path);
        const known = existing.get(identifier);
        // Text the file keeps in files of its own (or --split-content moves out) goes there, not inline.
        const includes = planPullIncludes({
          pulled: pulled.definition as unknown as Json,
          path,
          known,
          definitions: loaded.definitions,
          splitContent: flags.splitContent,
        });
        const target = includes.definition as unknown as WorkflowDefinition;
        const fresh = withModeline(buildDefinitionYaml(includes.definition), path, loaded.project);
        const files = await writePullIncludes(includes, ctx.cwd);
        // A workflow that has a file is merged into it; a new one gets the generated text.
        const written = known
          ? await writeMerged({ path, file, known, actual, pulled: target, fresh, groups, includes, files })
          : await writeNew(path, fresh, {
              definition: target,
              summary: ` (id ${actual._id}) → ${[file, ...files].join(', ')}`,
            });
        // What the definition says once its references are read: what plan will hash.
        const kept = includes.kept.map(({ pointer, text }) => ({ pointer, value: text }));
        const built = buildCreateBody(
          replaceIncludes(written.definition, kept) as WorkflowDefinition,
          groups,
        );
        if ('body' in built) {
          await store.recordWorkflow(identifier, {
            id: actual._id,
            hash: hashBody(built.body),
            origin: 'adopted',
            file,
            recordedAt: new Date().toISOString(),
          });
        }
        const elsewhere = known && flags.dir !== undefined && !isInside(path, resolve(ctx.cwd, flags.dir));
        await writeOutput(
          ctx.stdout,
          `pulled ${identifier}${written.summary}` +
            (elsewhere ? ' (its existing file; --dir only places new files)' : '') +
            ('body' in built ? '' : ` (not recorded in state: ${built.problem})`) +
            inlinedNotes(includes) +
            '\n',
        );
      }
    } finally {
      await lock.release();
    }
  } finally {
    await session.close();
  }
  return failures > 0 ? ExitCode.Failure : ExitCode.Ok;
}

/** Never silently replace a file that holds another workflow (or is not a definition at all). */
function guardOverwrite(
  path: string,
  identifier: string,
  known: ReadonlyMap<string, string>,
  force: boolean,
): void {
  if (force || !existsSync(path) || known.get(identifier) === path) return;
  throw new WfsyncError(
    `${path} already exists and is not the definition of ${identifier}; use --force to overwrite it`,
    {
      exitCode: ExitCode.Usage,
    },
  );
}

/** The modeline must point at schemas/ from wherever the file is written. */
function withModeline(
  yaml: string,
  path: string,
  project: { config?: { dir: string }; cwd: string },
): string {
  const schema = join(project.config?.dir ?? project.cwd, 'schemas', 'workflow.schema.json');
  if (!existsSync(schema)) return yaml;
  const rel = relative(dirname(path), schema).split('\\').join('/');
  return yaml.replace(SCHEMA_MODELINE, `# yaml-language-server: $schema=${rel}`);
}

/** The most paths a summary line names before it counts the rest. */
const SHOWN_PATHS = 6;

interface Written {
  /** What the file now holds (what state records the hash of). */
  definition: WorkflowDefinition;
  /** The rest of the output line after `pulled <identifier>`. */
  summary: string;
}

async function writeNew(path: string, text: string, written: Written): Promise<Written> {
  await writeFileText(path, text);
  return written;
}

/**
 * A workflow that already has a file: the file is edited in place (comments, order and style kept), or rewritten
 * whole when that cannot be done safely. Untouched when it already says what the service holds.
 */
async function writeMerged(input: {
  path: string;
  file: string;
  known: LoadedDefinition;
  actual: WorkflowResponse;
  pulled: WorkflowDefinition;
  fresh: string;
  groups: TargetGroups;
  includes: PullIncludes;
  /** Display paths of the included files this pull wrote. */
  files: string[];
}): Promise<Written> {
  const { path, file, known, actual, groups, files } = input;
  const text = await readFile(path, 'utf8');
  // The file's group reference stays when it names the group the service holds.
  const resolved = resolveGroup((known.value as WorkflowDefinition).notificationGroupId, groups);
  const serviceGroupId = readRemote(actual as unknown as Json, 'notificationGroupId', WORKFLOW_SHAPE);
  const merge = mergePulledDefinition(text, input.pulled, {
    freshText: input.fresh,
    ...('id' in resolved ? { existingGroupId: resolved.id } : {}),
    ...(typeof serviceGroupId === 'string' ? { serviceGroupId } : {}),
  });
  if (merge.text !== text) await writeFileText(path, merge.text);
  const { definition, rewritten } = merge;
  if (rewritten !== undefined) {
    return {
      definition,
      summary: `: rewritten whole, comments and layout not kept (${rewritten}) → ${[file, ...files].join(', ')}`,
    };
  }
  const changed = [...new Set([...merge.changed, ...changedIncludeFields(input.includes)])];
  if (changed.length === 0) return { definition, summary: `: ${file} already matches the service` };
  const where = [...(merge.text === text ? [] : [file]), ...files].join(', ');
  const more = changed.length > SHOWN_PATHS ? `, and ${changed.length - SHOWN_PATHS} more` : '';
  const fields = `${changed.length} field${changed.length === 1 ? '' : 's'}`;
  return {
    definition,
    summary: `: ${fields} changed (${changed.slice(0, SHOWN_PATHS).join(', ')}${more}) → ${where}`,
  };
}

function isInside(path: string, dir: string): boolean {
  return path.startsWith(dir.endsWith(sep) ? dir : `${dir}${sep}`);
}
