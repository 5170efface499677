import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { checkDefinitions } from '../../check/check-definitions.js';
import { readProject } from '../../config/project.js';
import { ExitCode } from '../../exit-codes.js';
import { writeOutput } from '../../report/write-output.js';
import { buildCompletionScript, type Shell } from '../../scaffold/completion.js';
import { buildCompletionAnswer, type CompletionAnswer, type ProjectValues } from '../completion-answer.js';
import type { CommandContext } from '../context.js';

/** The script for `shell`, for `program`. */
export async function runCompletion(ctx: CommandContext, shell: Shell, program: Command): Promise<number> {
  await writeOutput(ctx.stdout, buildCompletionScript(shell, program.name()));
  return ExitCode.Ok;
}

/**
 * What Tab offers after `words` (the last one the word at the cursor): the candidates that start with it, one per
 * line, a tab before a description; then `:files` when file names fit as well, else `:none` (scaffold/completion.ts).
 */
export async function runComplete(ctx: CommandContext, words: string[], program: Command): Promise<number> {
  const answer = buildCompletionAnswer(program, words);
  const current = words.at(-1) ?? '';
  const values = answer.project === undefined ? [] : await readValues(ctx, answer.project, answer.config);
  const candidates: CompletionAnswer['candidates'] = [
    ...answer.candidates,
    ...values.map((value) => ({ value })),
  ];
  const lines = candidates
    .filter(({ value }) => value.startsWith(current))
    .map(({ value, description }) => (description ? `${value}\t${oneLine(description)}` : value));
  lines.push(answer.files ? ':files' : ':none');
  await writeOutput(ctx.stdout, lines.map((line) => `${line}\n`).join(''));
  return ExitCode.Ok;
}

/** The built-in target every project has. */
const LOCAL_TARGET = 'local';

/**
 * Sorted: the targets the config names (and `local`), or the trigger identifiers of the definitions (read and
 * checked offline, as validate reads them). A value holding a control character or a line break is left out: it
 * could not be one line, nor typed.
 */
async function readValues(
  ctx: CommandContext,
  kind: ProjectValues,
  config: string | undefined,
): Promise<string[]> {
  const project = readProject(config === undefined ? {} : { config }, ctx.cwd);
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
  return [...new Set(values)].filter(isTypable).sort();
}

/** No C0/C1 control character, DEL or Unicode line separator, and not empty. */
function isTypable(value: string): boolean {
  return value !== '' && !/[\p{Cc}\u2028\u2029]/u.test(value);
}

/** A description on one line, without control characters (a tab would end it). */
function oneLine(text: string): string {
  return text.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ');
}
