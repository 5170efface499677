import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { Command } from 'commander';
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
import { addTargetOptions, type TargetCommandFlags } from '../run-options.js';
import { openTargetSession } from '../target-session.js';
import { verboseClientLog } from '../verbose.js';

interface PullFlags extends TargetCommandFlags {
  dir?: string;
  force?: boolean;
}

export function pullCommand(ctx: CommandContext): Command {
  const command = new Command('pull')
    .summary("write the service's workflow as a definition file and record it in state")
    .description(
      'Fetch workflows from the service and write each as a definition file (declarable fields only, server\n' +
        'defaults left out, stable key order, schema modeline), then record it in state. Use it to adopt a workflow\n' +
        "made in the dashboard, or to accept drift: the file of the same identifier is overwritten with the service's version.",
    )
    .argument('<workflow...>', 'workflow ids (24 hex) or trigger identifiers')
    .option('--dir <dir>', 'where new definition files go (default: the workflows directory)')
    .option('--force', 'overwrite a file at the destination that holds another workflow');
  addTargetOptions(command);
  return command
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  wfsync pull order-shipped --target production     # accept the dashboard version into the file\n' +
        '  wfsync pull 6650f0c0ffee00000000a0b1 --dir workflows/imported',
    )
    .action(async (workflows: string[], flags: PullFlags, cmd: Command) => {
      ctx.exitCode = await runPull(ctx, workflows, { ...cmd.optsWithGlobals(), ...flags });
    });
}

async function runPull(
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
