import { CommanderError } from 'commander';
import { configFileNameIn } from '../config/project.js';
import { messageOf, WfsyncError } from '../errors.js';
import { RemoteError } from '../remote/errors.js';
import { renderFailureCodeClimate } from '../report/codeclimate.js';
import type { CommandFailure, FailureCode } from '../report/failure.js';
import { renderFailureGithub, renderFailureJson } from '../report/failure.js';
import { planCommentMarkers, syncCommentMarkers } from '../report/plan/markdown.js';
import { renderFailureMarkdown } from '../report/plan/markdown-failure.js';
import { appendFileText, writeOutput } from '../report/write-output.js';
import { type CommandContext, fileText } from './context.js';
import { writeOutputFile } from './output-file.js';
import { readStamp } from './stamp.js';

/**
 * A command that failed as a whole, as the document formats report it (report/failure.ts): the code by what the
 * user can do, the message as stderr says it, the exit code main returns, and what the error knows of the request.
 */
export function describeFailure(error: unknown, exitCode: number): CommandFailure {
  if (error instanceof CommanderError) {
    return { code: 'usage', message: error.message.replace(/^error: /, ''), exitCode, diagnostics: [] };
  }
  if (error instanceof RemoteError) {
    const code: FailureCode =
      error.kind === 'auth' || error.kind === 'rate-limited' ? error.kind : `service-${error.kind}`;
    return {
      code,
      message: error.message,
      exitCode,
      diagnostics: error.diagnostics,
      endpoint: { method: error.method, path: error.path },
      ...(error.status === undefined ? {} : { status: error.status }),
    };
  }
  if (error instanceof WfsyncError) {
    return {
      // The error's own code (errors.ts tells it by the exit code); `service` and `aborted` are `failed` here.
      code: error.code === 'service' || error.code === 'aborted' ? 'failed' : error.code,
      message: error.message,
      exitCode,
      diagnostics: error.diagnostics,
    };
  }
  return { code: 'internal', message: `unexpected error: ${messageOf(error)}`, exitCode, diagnostics: [] };
}

/**
 * The failure as the one document on stdout the command's `--format` promises: the error document for `json`, a
 * failed-plan comment (with the comment's markers) for `markdown` (plan and sync), and for `github` (plan and sync)
 * the failure as `::error` annotations, each diagnostic on its line, with the failed-plan Markdown (no markers) in
 * `$GITHUB_STEP_SUMMARY` when set; for `codeclimate` (validate and plan) a Code Quality report holding the failure.
 * Nothing when the command already wrote to stdout (one document, never two) or its
 * format is not a document.
 */
export async function writeFailureDocument(
  ctx: CommandContext,
  error: unknown,
  exitCode: number,
): Promise<void> {
  const invocation = ctx.invocation;
  if (invocation === undefined || invocation.stdoutUsed) return;
  const { format, command } = invocation;
  if (format === 'json') {
    await writeOutput(ctx.stdout, renderFailureJson(describeFailure(error, exitCode)));
    return;
  }
  if (format === 'codeclimate' && command !== undefined) {
    // GitLab reads the artifact as the Code Quality report: a failed run still leaves one, saying it failed.
    await writeOutput(ctx.stdout, failureCodeQuality(ctx, error, exitCode, command));
    return;
  }
  if ((format !== 'markdown' && format !== 'github') || (command !== 'plan' && command !== 'sync')) return;
  const failure = describeFailure(error, exitCode);
  const summaryFile = format === 'github' ? ctx.env.GITHUB_STEP_SUMMARY : undefined;
  if (format === 'github') {
    await writeOutput(ctx.stdout, renderFailureGithub(failure, { command, mark: ctx.commandMark.get() }));
    if (summaryFile === undefined || summaryFile === '') return;
  }
  const target = nonEmpty(invocation.target) ?? nonEmpty(ctx.env.WFSYNC_TARGET);
  const asPlan = command === 'plan' || invocation.dryRun === true;
  const markers = asPlan ? planCommentMarkers(target) : syncCommentMarkers(target);
  const text = renderFailureMarkdown(failure, {
    command,
    markers: format === 'github' ? [] : markers,
    stamp: await readStamp(ctx.env, ctx.cwd),
    // Named in the commands it suggests whether given by flag or by WFSYNC_TARGET: a reader's shell has neither.
    ...(target === undefined ? {} : { target, targetFlag: target }),
  });
  if (summaryFile) await appendFileText(summaryFile, fileText(ctx, text));
  else await writeOutput(ctx.stdout, text);
}

/**
 * `plan --codequality <file>` in a run that failed before writing the plan's report there: the failure's report in
 * the file instead (the same document `--format codeclimate` prints), so the job's Code Quality artifact says why
 * rather than going missing or keeping an older run's findings. Never through a link: a refusal here is said once
 * (a second time only if it is not the refusal the run already failed with).
 */
export async function writeFailureCodeQualityFile(
  ctx: CommandContext,
  error: unknown,
  exitCode: number,
): Promise<void> {
  const report = ctx.invocation?.codequality;
  if (report === undefined || report.written) return;
  const text = fileText(ctx, failureCodeQuality(ctx, error, exitCode, report.command));
  try {
    await writeOutputFile(ctx.cwd, '--codequality', report.file, text);
  } catch (refused) {
    if (refused instanceof WfsyncError && error instanceof WfsyncError && refused.message === error.message)
      return;
    await writeOutput(
      ctx.stderr,
      `wfsync: warning: the failure's Code Quality report: ${messageOf(refused)}\n`,
    );
  }
}

function failureCodeQuality(ctx: CommandContext, error: unknown, exitCode: number, command: string): string {
  const failure = describeFailure(error, exitCode);
  return renderFailureCodeClimate(failure, { command, configPath: configFileNameIn(ctx.cwd) });
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === '' ? undefined : value;
}
