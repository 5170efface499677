import { relative } from 'node:path';
import { openValidateCache, saveValidateCache, type ValidateCache } from '../cache/validate-cache.js';
import { type CheckResult, checkDefinitions } from '../check/check-definitions.js';
import { type ProjectOptions, projectRuleOptions, readProject } from '../config/project.js';
import { resolveLoadLimits } from '../definitions/limits.js';
import { UsageError } from '../errors.js';
import { ExitCode } from '../exit-codes.js';
import { buildValidateJson } from '../report/json.js';
import { summarizeReport } from '../report/summary.js';
import type { ValidateReport } from '../report/validate-report.js';
import { ruleInfos } from '../validate/rules/index.js';
import { VERSION } from '../version.js';
import type { ValidateDocument } from './documents.js';
import { type ProjectApiOptions, processDefaults } from './options.js';
import { assertDefinitionFolders, outsidePath } from './outside.js';

/** `wfsync validate`'s options, camelCase. */
export interface ValidateOptions extends ProjectApiOptions {
  /** Files or directories to check (default: the workflows directory of the config). */
  paths?: string[];
  /** `--cache`: check only the files that changed since the last cached run; reuse the other results. */
  cache?: boolean;
  /** `--cache-location`: where the cache is kept (default: .wfsync/validate-cache.json in the project root). */
  cacheLocation?: string;
  /** `--max-warnings`: more warnings than this make the result invalid (exit 3). */
  maxWarnings?: number;
  /** `--quiet`: report errors only. */
  quiet?: boolean;
  /** `--report-unused-disable`: a `wfsync-disable` comment that silences no finding is reported (a warning). */
  reportUnusedDisable?: boolean;
  /** `--verbose`: the report lists the findings `wfsync-disable` comments silenced, with their reasons. */
  showSuppressed?: boolean;
  /** A note that does not change the result (a cache that could not be written), one line. */
  onLog?: (line: string) => void;
}

/** What validate found: the `--format json` document, and what the CLI's exit code would be (0 or 3). */
export interface ValidateResult {
  document: ValidateDocument;
  /** No error, and no more warnings than `maxWarnings`. */
  valid: boolean;
  exitCode: typeof ExitCode.Ok | typeof ExitCode.Invalid;
}

/** One validate run, for the CLI: the report every format renders, and the cache save it starts after writing. */
export interface Validation {
  report: ValidateReport;
  checked: CheckResult;
  /** The project the run read (its config, its definition folders). */
  project: ProjectOptions;
  cache: ValidateCache | undefined;
  /** Write the `--cache` file; a warning (not an error) when it cannot be written. */
  saveCache(): Promise<string | undefined>;
  exitCode: ValidateResult['exitCode'];
}

/**
 * `wfsync validate` as a function: every file read, parsed and checked (schema and rules), every problem reported in
 * one document. Offline: no key, no network. Throws a `usage` WfsyncError when there is nothing to check.
 */
export async function validate(options: ValidateOptions = {}): Promise<ValidateResult> {
  const { cwd } = processDefaults(options);
  const run = await runValidation({ ...options, cwd });
  if (run.checked.outside.length > 0)
    options.onLog?.(describeOutside(run.checked.outside, run.project).trimEnd());
  const warning = await run.saveCache();
  if (warning) options.onLog?.(warning.trimEnd());
  return validationResult(run);
}

export function validationResult(run: Pick<Validation, 'report' | 'exitCode'>): ValidateResult {
  return {
    document: buildValidateJson(run.report) as unknown as ValidateDocument,
    valid: run.exitCode === ExitCode.Ok,
    exitCode: run.exitCode,
  };
}

export async function runValidation(options: ValidateOptions & { cwd: string }): Promise<Validation> {
  const { cwd } = options;
  const paths = options.paths ?? [];
  if (options.cacheLocation !== undefined && !options.cache) {
    throw new UsageError('--cache-location needs --cache');
  }
  // 1. Project config (optional): workflows directory, rule severities, known notification groups.
  const project = readProject(options.config === undefined ? {} : { config: options.config }, cwd);
  // 2. Read, parse and check every file (with --cache, those that changed); broken files become diagnostics, not
  //    exceptions.
  const defaultDir = relative(cwd, project.workflowsDir) || '.';
  if (paths.length === 0) assertDefinitionFolders(project, cwd);
  const ruleOptions = projectRuleOptions(project, options.reportUnusedDisable === true);
  const limits = resolveLoadLimits();
  // --cache: the stored results of unchanged files are reused (cache/), and only the others checked.
  const cache = options.cache
    ? openValidateCache({
        cwd,
        root: project.config?.dir ?? cwd,
        location: options.cacheLocation,
        rules: ruleOptions,
        limits,
      })
    : undefined;
  const checked = await checkDefinitions(paths, {
    cwd,
    defaultDir,
    sources: project.sources,
    rules: ruleOptions,
    limits,
    cache: cache && { root: cache.root, stored: cache.entries },
  });
  // A search that found nothing it could read but refused something (a FIFO, a link leading out) reports that.
  if (checked.files.length === 0 && checked.diagnostics.length === 0 && checked.outside.length === 0) {
    const where = paths.length > 0 ? paths.join(', ') : `${defaultDir}/`;
    throw new UsageError(`no workflow definitions (*.yaml, *.yml) found in ${where}`);
  }
  // 3. The report every format renders, and the exit code.
  const report: ValidateReport = {
    tool: { name: 'wfsync', version: VERSION },
    files: checked.files,
    diagnostics: options.quiet
      ? checked.diagnostics.filter((d) => d.severity === 'error')
      : checked.diagnostics,
    sources: checked.sources,
    rules: ruleInfos(),
    ...(options.showSuppressed && checked.suppressed.length > 0 ? { suppressed: checked.suppressed } : {}),
    maxWarnings: options.maxWarnings,
  };
  return {
    report,
    checked,
    project,
    cache,
    // After the report, which does not wait for it; a cache that cannot be written costs a warning, not the run.
    saveCache: async () =>
      cache && checked.cache ? await saveValidateCache(cache, checked.cache, cwd) : undefined,
    exitCode: validateExitCode(report),
  };
}

/** 0 valid; 3 with an error, or with more warnings than --max-warnings. */
function validateExitCode(report: ValidateReport): ValidateResult['exitCode'] {
  const summary = summarizeReport(report);
  return summary.errors > 0 || summary.maxWarningsExceeded ? ExitCode.Invalid : ExitCode.Ok;
}

/** `wfsync: not a workflow definition, not checked: k8s/deploy.yaml (outside workflowsDir (…) in wfsync.config.yaml)`. */
export function describeOutside(outside: CheckResult['outside'], project: ProjectOptions): string {
  const lines = outside.map((o) => `  ${outsidePath(o, project)}\n`);
  return `wfsync: not checked, not workflow definitions of this project:\n${lines.join('')}`;
}
