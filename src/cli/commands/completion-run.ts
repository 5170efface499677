import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { checkDefinitions } from '../../check/check-definitions.js';
import { readProject } from '../../config/project.js';
import { ExitCode } from '../../exit-codes.js';
import { writeOutput } from '../../report/write-output.js';
import { buildCompletionScript, type Shell } from '../../scaffold/completion.js';
import type { CommandContext } from '../context.js';
import { buildCompletionModel } from './completion.js';

/** The script for `shell`, for the program `command` belongs to. */
export async function runCompletion(ctx: CommandContext, shell: Shell, program: Command): Promise<number> {
  await writeOutput(ctx.stdout, buildCompletionScript(shell, buildCompletionModel(program)));
  return ExitCode.Ok;
}

/** The built-in target every project has. */
const LOCAL_TARGET = 'local';

/**
 * One value per line, sorted: the targets the config names (and `local`), or the trigger identifiers of the
 * definitions (read and checked offline, as validate reads them). A value holding a control character or a line
 * break is left out: it could not be one line, nor typed.
 */
export async function runComplete(
  ctx: CommandContext,
  kind: 'targets' | 'identifiers',
  flags: { config?: string },
): Promise<number> {
  const project = readProject(flags, ctx.cwd);
  let values: string[];
  if (kind === 'targets') {
    values = [LOCAL_TARGET, ...Object.keys(project.config?.config.targets ?? {})];
  } else if (existsSync(project.workflowsDir)) {
    const checked = await checkDefinitions([project.workflowsDir], {
      cwd: ctx.cwd,
      defaultDir: project.workflowsDir,
      rules: project.severities,
    });
    values = [...checked.identifiers.keys()];
  } else values = [];
  const lines = [...new Set(values)].filter(isTypable).sort();
  await writeOutput(ctx.stdout, lines.map((line) => `${line}\n`).join(''));
  return ExitCode.Ok;
}

/** No C0/C1 control character, DEL or Unicode line separator, and not empty. */
function isTypable(value: string): boolean {
  return value !== '' && !/[\p{Cc}\u2028\u2029]/u.test(value);
}
