import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { toDisplayPath } from '../../config/read.js';
import { WfsyncError } from '../../errors.js';
import { ExitCode } from '../../exit-codes.js';
import type { WorkflowDefinition } from '../../generated/workflow.js';
import { buildCreateBody, buildDefinitionFromRemote, SCHEMA_MODELINE } from '../../plan/index.js';
import { writeFileText, writeOutput } from '../../report/write-output.js';
import { acquireLock, StateStore } from '../../state/index.js';
import type { CommandContext } from '../context.js';
import { hashBody } from '../desired.js';
import { loadRun, stateIdentity } from '../pipeline.js';
import { openTargetSession } from '../target-session.js';
import { verboseClientLog } from '../verbose.js';
import type { PullFlags } from './pull.js';

export async function runPull(
  ctx: CommandContext,
  ids: string[],
  flags: PullFlags & { config?: string },
): Promise<number> {
  // 1. Config, target and the existing definitions (to find the file each identifier lives in).
  const loaded = await loadRun(flags, ctx.cwd, ctx.env);
  const byIdentifier = new Map(
    loaded.definitions.map((d) => [
      (d.value as WorkflowDefinition).triggers[0].identifier,
      resolve(ctx.cwd, d.file),
    ]),
  );
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
      const groups = session.groups(Object.keys(loaded.target.notificationGroups));
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
        await writeFileText(path, withModeline(pulled.yaml, path, loaded.project));
        const built = buildCreateBody(pulled.definition, groups);
        const file = toDisplayPath(ctx.cwd, path);
        if ('body' in built) {
          await store.recordWorkflow(identifier, {
            id: actual._id,
            hash: hashBody(built.body),
            origin: 'adopted',
            file,
            recordedAt: new Date().toISOString(),
          });
        }
        await writeOutput(
          ctx.stdout,
          `pulled ${identifier} (id ${actual._id}) → ${file}${'body' in built ? '' : ` (not recorded in state: ${built.problem})`}\n`,
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
