import { resolve } from 'node:path';
import { Command } from 'commander';
import { NoDefinitionFolders } from '../../api/outside.js';
import { describeOutside, runValidation } from '../../api/validate.js';
import { DEFAULT_CACHE_PATH, describeCacheUse, type ValidateCache } from '../../cache/validate-cache.js';
import type { CheckResult } from '../../check/check-definitions.js';
import { readProject } from '../../config/project.js';
import { countDiagnostics } from '../../diagnostic.js';
import { UsageError } from '../../errors.js';
import { ExitCode } from '../../exit-codes.js';
import { renderHuman } from '../../report/human.js';
import { formatSuppressedLines } from '../../report/suppressed.js';
import type { ValidateFormat, ValidateRenderer, ValidateReport } from '../../report/validate-report.js';
import { appendFileText, writeOutput } from '../../report/write-output.js';
import { plural } from '../../text.js';
import { ruleInfos } from '../../validate/rules/index.js';
import type { RuleInfo } from '../../validate/rules/types.js';
import { configWatchFiles, isEditorArtefact } from '../config-watch.js';
import { type CommandContext, fileText, useColor, writeWfsyncError } from '../context.js';
import { checkOutputFile, writeCodeQualityFile, writeOutputFile } from '../output-file.js';
import { formatOption, parseNonNegativeInt } from '../run-options.js';

interface ValidateFlags {
  format: ValidateFormat;
  cache?: boolean;
  cacheLocation?: string;
  maxWarnings?: number;
  output?: string;
  /** Also write the Code Quality report (`--format codeclimate`'s document) to this file, from the same run. */
  codequality?: string;
  quiet?: boolean;
  reportUnusedDisable?: boolean;
  listRules?: boolean;
  watch?: boolean;
}

export function validateCommand(ctx: CommandContext): Command {
  return new Command('validate')
    .summary('check workflow definitions offline (schema + rules)')
    .description(
      'Check workflow definitions offline against the JSON Schema and the semantic rules. Every problem of every ' +
        'file is reported in one run, with file:line:col and a JSON pointer. Needs no API key and no network.',
    )
    .argument(
      '[paths...]',
      'files or directories to check (default: every definition of the project); identifiers are still checked ' +
        'against every definition, and paths that are not definitions of the project are named and skipped',
    )
    .addOption(formatOption(['human', 'json', 'github', 'junit', 'sarif', 'codeclimate']))
    .option('--max-warnings <n>', 'fail (exit 3) when there are more than n warnings', parseNonNegativeInt)
    .option('-o, --output <file>', 'write the report to a file instead of stdout')
    .option(
      '--codequality <file>',
      "also write the Code Quality report --format codeclimate prints (GitLab's artifacts:reports:codequality) " +
        'into <file>, from the same run (a run that fails as a whole writes its failure there)',
    )
    .option('-q, --quiet', 'report errors only')
    .option(
      '--report-unused-disable',
      'report every wfsync-disable comment that silences no finding (suppression-unused, a warning)',
    )
    .option('--list-rules', 'list every rule with its code and default severity, then exit')
    .option('-w, --watch', 'validate again on every change (Ctrl-C to stop); invalid files never end it')
    .option(
      '--cache',
      'check only the files that changed since the last --cache run; reuse the other results',
    )
    .option(
      '--cache-location <file>',
      `where --cache keeps results (default: ${DEFAULT_CACHE_PATH.split('\\').join('/')} in the project root)`,
    )
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  wfsync validate                          # everything under workflows/\n' +
        '  wfsync validate workflows/order.yaml     # one file\n' +
        '  wfsync validate --format github          # annotations in GitHub Actions\n' +
        '  wfsync validate --format sarif -o wfsync.sarif\n' +
        '  wfsync validate --codequality gl-code-quality.json   # GitLab: the log and the Code Quality report\n' +
        '  wfsync validate --watch                  # again on every save, until Ctrl-C\n' +
        '  wfsync validate --cache                  # unchanged files are not checked again\n' +
        '\nThe --cache file never changes the report and is safe to delete; --cache cannot be combined\n' +
        'with --watch.\n' +
        '\nExit codes: 0 valid, 3 errors (or more warnings than --max-warnings), 64 usage error.',
    )
    .action(async (paths: string[], flags: ValidateFlags, command: Command) => {
      const globals = command.optsWithGlobals();
      // --list-rules checks nothing, so a report file would stay unwritten: said, not silently skipped.
      const reportFile =
        flags.codequality !== undefined ? '--codequality' : flags.output !== undefined ? '--output' : '';
      if (flags.listRules && reportFile !== '') {
        throw new UsageError(
          `--list-rules lists the rules and checks no file, so ${reportFile} would have nothing to write: ` +
            `run "wfsync validate ${reportFile} <file>" without --list-rules`,
        );
      }
      if (flags.cacheLocation !== undefined && !flags.cache) {
        throw new UsageError('--cache-location needs --cache');
      }
      if (flags.watch && flags.cache && !flags.listRules) {
        // A watch run checks again what changed anyway; a cache file rewritten on every save would only cost.
        throw new UsageError('--cache cannot be combined with --watch');
      }
      if (flags.watch && !flags.listRules) {
        ctx.exitCode = await watchValidate(ctx, paths, flags, globals);
      } else {
        ctx.exitCode = await runValidate(ctx, paths, flags, globals);
      }
    });
}

/** `--watch`: the given paths (or the workflows directory) and the config file; exit 0 on Ctrl-C. */
async function watchValidate(
  ctx: CommandContext,
  paths: string[],
  flags: ValidateFlags,
  globals: { config?: string; verbose?: boolean },
): Promise<number> {
  // Loaded only for --watch: the watcher is no part of a one-off run's start-up.
  const { runWatching } = await import('../watch.js');
  const given = paths.map((path) => resolve(ctx.cwd, path));
  await runWatching(ctx, {
    // The config is read again on each run, so rule severities edited there apply at once; one that comes, goes or
    // moves workflowsDir or exclude changes what is watched too.
    watched: () => {
      const project = readProject(globals, ctx.cwd);
      const roots = given.length > 0 ? [...given] : [...project.sources.roots];
      if (project.config) roots.push(project.config.path);
      return {
        roots,
        configFiles: configWatchFiles(ctx.cwd, globals.config, project.config?.path),
        filter: (file) => !isEditorArtefact(file) && !project.sources.excludes(file),
        skipDirectory: (dir) => project.sources.excludes(dir),
      };
    },
    // No folder to read yet (nothing created, no config): said, and watched for, as a later run's error would be.
    run: () =>
      runValidate(ctx, paths, flags, globals).catch(async (error: unknown) => {
        if (!(error instanceof NoDefinitionFolders)) throw error;
        await writeWfsyncError(ctx, error);
      }),
  });
  return ExitCode.Ok;
}

async function runValidate(
  ctx: CommandContext,
  paths: string[],
  flags: ValidateFlags,
  globals: { config?: string; verbose?: boolean },
): Promise<number> {
  if (flags.listRules) return writeRuleList(ctx, ruleInfos());
  // The files it will write: neither may be (or lie under) a symbolic link, refused before anything is read.
  if (flags.output !== undefined) checkOutputFile(ctx.cwd, '--output', flags.output);
  if (flags.codequality !== undefined) checkOutputFile(ctx.cwd, '--codequality', flags.codequality);
  // 1. Config, then every file read, parsed and checked (with --cache, those that changed), by the API.
  const run = await runValidation({
    cwd: ctx.cwd,
    paths,
    ...(globals.config === undefined ? {} : { config: globals.config }),
    cache: flags.cache,
    cacheLocation: flags.cacheLocation,
    maxWarnings: flags.maxWarnings,
    quiet: flags.quiet,
    reportUnusedDisable: flags.reportUnusedDisable,
    showSuppressed: globals.verbose === true,
  });
  // Given paths that are not definitions of the project (a pre-commit hook passes every staged YAML file): said
  // on stderr, not read, not a failure.
  if (run.checked.outside.length > 0)
    await writeOutput(ctx.stderr, describeOutside(run.checked.outside, run.project));
  if (globals.verbose) await writeCheckNote(ctx, run.checked, run.cache);
  // A Code Quality report lists open issues only (GitLab shows each in the merge request): what comments silenced
  // goes to stderr there.
  if (flags.format === 'codeclimate' && run.report.suppressed) {
    await writeOutput(ctx.stderr, `${formatSuppressedLines(run.report.suppressed).join('\n')}\n`);
  }
  // 2. Render and write.
  await writeValidateReport(ctx, run.report, flags);
  if (flags.codequality !== undefined) {
    const { renderValidateCodeClimate } = await import('../../report/codeclimate.js');
    await writeCodeQualityFile(ctx, flags.codequality, renderValidateCodeClimate(run.report));
  }
  // After the report, which does not wait for it; a cache that cannot be written costs a warning, not the run.
  const warning = await run.saveCache();
  if (warning) await writeOutput(ctx.stderr, warning);
  const summaryFile = ctx.env.GITHUB_STEP_SUMMARY;
  if (flags.format === 'github' && summaryFile) {
    const { renderGithubStepSummary } = await import('../../report/github-summary.js');
    await appendFileText(summaryFile, fileText(ctx, renderGithubStepSummary(run.report)));
  }
  // 3. Exit code.
  return run.exitCode;
}

/** --verbose: how many files were checked, and what --cache spared. */
async function writeCheckNote(
  ctx: CommandContext,
  checked: CheckResult,
  cache: ValidateCache | undefined,
): Promise<void> {
  await writeOutput(
    ctx.stderr,
    `wfsync: checked ${plural(checked.files.length, 'file')} on the main thread` +
      (checked.others > 0
        ? ` (and read ${plural(checked.others, 'other definition')} for identifiers)\n`
        : '\n'),
  );
  if (cache && checked.cache) {
    await writeOutput(
      ctx.stderr,
      describeCacheUse(cache, checked.cache.unchanged, checked.files.length + checked.others, ctx.cwd),
    );
  }
}

/** `--list-rules`: every rule's code, default severity and description, aligned. */
async function writeRuleList(ctx: CommandContext, rules: readonly RuleInfo[]): Promise<number> {
  const width = Math.max(...rules.map((r) => r.code.length));
  const lines = rules.map((r) => `${r.code.padEnd(width)}  ${r.defaultSeverity.padEnd(7)}  ${r.description}`);
  await writeOutput(ctx.stdout, `${lines.join('\n')}\n`);
  return ExitCode.Ok;
}

/** The report in `--format`, to stdout or to `--output` (then, watching, one line saying so). */
async function writeValidateReport(
  ctx: CommandContext,
  report: ValidateReport,
  flags: ValidateFlags,
): Promise<void> {
  const render = await validateRenderer(flags.format);
  const text = render(report, {
    color: flags.output === undefined && useColor(ctx),
    cwd: ctx.cwd,
    commandMark: ctx.commandMark.get,
  });
  if (!flags.output) return writeOutput(ctx.stdout, text);
  await writeOutputFile(ctx.cwd, '--output', flags.output, fileText(ctx, text));
  // Watching, the terminal would otherwise show nothing but separators.
  if (flags.watch) {
    const counts = countDiagnostics(report.diagnostics);
    await writeOutput(
      ctx.stdout,
      `wrote ${flags.output}: ${plural(counts.errors, 'error')}, ${plural(counts.warnings, 'warning')} in ${plural(report.files.length, 'file')}\n`,
    );
  }
}

/**
 * The renderer of `--format`: the human one (what a pre-commit hook prints on every commit) is loaded with the
 * command, the others (report/validate-renderers.ts, the one table by name) only when one is asked for.
 */
async function validateRenderer(format: ValidateFormat): Promise<ValidateRenderer> {
  if (format === 'human') return renderHuman;
  const { validateRenderers } = await import('../../report/validate-renderers.js');
  return validateRenderers[format];
}
