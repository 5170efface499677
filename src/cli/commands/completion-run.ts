import { existsSync } from 'node:fs';
import type { Command, Option } from 'commander';
import { checkDefinitions } from '../../check/check-definitions.js';
import { readProject } from '../../config/project.js';
import { ExitCode } from '../../exit-codes.js';
import { writeOutput } from '../../report/write-output.js';
import {
  buildCompletionScript,
  type CompletionCommand,
  type CompletionModel,
  type CompletionOption,
  type DynamicKind,
  type Shell,
} from '../../scaffold/completion.js';
import type { CommandContext } from '../context.js';

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

/** Option long names whose values come from the project. */
const DYNAMIC_OPTIONS: Record<string, DynamicKind> = { '--target': 'targets', '--only': 'identifiers' };
/** Positional arguments by name: identifiers, or paths. */
const DYNAMIC_ARGUMENTS: Record<string, DynamicKind | 'files'> = {
  workflow: 'identifiers',
  identifier: 'identifiers',
  paths: 'files',
};
/** Options whose value is a file or directory. */
const FILE_OPTIONS = new Set(['--config', '--state', '--out', '--plan', '--dir', '--data', '--schema-path']);

/** The model the scripts are built from, read off the commander program: it cannot drift from the commands. */
export function buildCompletionModel(program: Command): CompletionModel {
  return {
    program: program.name(),
    options: program.options.map(optionOf),
    commands: program.commands.filter(isShown).map(commandOf),
  };
}

function isShown(command: Command): boolean {
  return !command.name().startsWith('__');
}

function commandOf(command: Command): CompletionCommand {
  const argument = command.registeredArguments[0]?.name();
  const args = argument === undefined ? undefined : DYNAMIC_ARGUMENTS[argument];
  return {
    name: command.name(),
    description: command.summary() || command.description().split('\n')[0] || '',
    options: command.options.filter((o) => !o.hidden).map(optionOf),
    ...(args === undefined ? {} : { args }),
    subcommands: command.commands.filter(isShown).map(commandOf),
  };
}

function optionOf(option: Option): CompletionOption {
  const names = [option.short, option.long].filter((n): n is string => n !== undefined);
  const takesValue = option.required || option.optional;
  const dynamic = option.long === undefined ? undefined : DYNAMIC_OPTIONS[option.long];
  return {
    names,
    description: option.description,
    ...(takesValue
      ? {
          value: {
            ...(dynamic
              ? { dynamic }
              : option.argChoices
                ? { choices: option.argChoices }
                : { files: FILE_OPTIONS.has(option.long ?? '') }),
            ...(option.variadic ? { variadic: true } : {}),
          },
        }
      : {}),
  };
}
