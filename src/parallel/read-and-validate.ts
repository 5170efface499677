/**
 * `wfsync validate`'s work: find, read, parse and validate every definition file, with worker threads helping the
 * main thread when there are enough files to pay for starting them, and with `--cache` only the files that changed.
 * Every way does the same per-file work (checkDefinitionFile, fast path first) or reuses its stored outcome, and
 * merges it the same way, so all give the same report, byte for byte (e2e tests hold them to it); that report is the
 * one readDefinitions + buildValidation give, as plan and sync use them (a unit test holds it to that).
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { type FindOptions, type ScanResult, scanDefinitionFiles } from '../definitions/find.js';
import { type LoadLimits, resolveLoadLimits } from '../definitions/limits.js';
import { readDefinitionFile, scanDiagnostics } from '../definitions/read.js';
import type { LoadedDefinition } from '../definitions/types.js';
import { type Diagnostic, sortDiagnostics } from '../diagnostic.js';
import { buildProjectValidation } from '../validate/index.js';
import type { RuleOptions } from '../validate/rules/index.js';
import { type CacheInput, type CacheRun, checkFilesCached } from './cache-check.js';
import { type CheckSetup, checkDefinitionFile, checkParsedFile, type FileOutcome } from './check-file.js';
import { checkFiles } from './pool.js';
import type { WorkerSettings } from './settings.js';

export interface ReadAndValidateOptions extends FindOptions, WorkerSettings {
  rules: RuleOptions;
  limits?: Partial<LoadLimits>;
  /** Reuse the stored outcomes of unchanged files (`--cache`); `searched` is filled in here. */
  cache?: Omit<CacheInput, 'searched'>;
}

export interface DefinitionsValidation {
  /** Every file looked at, sorted (display paths). */
  files: string[];
  /** Every finding: reading, YAML, schema and rules; sorted (sortDiagnostics). */
  diagnostics: Diagnostic[];
  /** file → text, at least for every file with a finding that decoded as UTF-8: for code frames. */
  sources: ReadonlyMap<string, string>;
  /** Worker threads that helped the main thread; 0 when it checked every file alone. */
  workers: number;
  /** With `options.cache`: how many files were unchanged, and the entries the cache should now hold. */
  cache?: CacheRun;
}

/** Only a path that does not exist throws (UsageError); every other problem is a diagnostic. */
export async function readAndValidateDefinitions(
  paths: readonly string[],
  options: ReadAndValidateOptions,
): Promise<DefinitionsValidation> {
  const scan = await scanDefinitionFiles(paths, options);
  const setup: CheckSetup = {
    cwd: options.cwd,
    limits: resolveLoadLimits(options.limits),
    rules: options.rules,
  };
  if (options.cache) {
    const searched = searchedDirectories(paths.length > 0 ? paths : [options.defaultDir], options.cwd);
    const run = await checkFilesCached(scan.files, setup, { ...options.cache, searched }, options);
    return { ...mergeOutcomes(scan, run.outcomes, setup), workers: run.workers, cache: run.cache };
  }
  // The same per-file work on this thread and in workers: one code path, one fast path (check-file.ts).
  const run = await checkFiles(scan.files, setup, options, {
    check: (file) => checkDefinitionFile(file, setup),
    checkParsed: (file, parsed) => checkParsedFile(file, parsed, setup),
  });
  return { ...mergeOutcomes(scan, run.outcomes, setup), workers: run.workers };
}

/** The given paths that are directories, absolute (one that cannot be inspected counts as none). */
function searchedDirectories(paths: readonly string[], cwd: string): string[] {
  return paths
    .map((given) => path.resolve(cwd, given))
    .filter((absolute) => {
      try {
        return statSync(absolute).isDirectory();
      } catch {
        return false;
      }
    });
}

/**
 * The per-file outcomes of a scan's files (in its order, from any thread) put together with the scan's own
 * problems and the project-wide rule: the same findings, in the same order, as the single-thread path.
 */
export function mergeOutcomes(
  scan: ScanResult,
  outcomes: readonly FileOutcome[],
  setup: CheckSetup,
): Omit<DefinitionsValidation, 'workers'> {
  const diagnostics = scanDiagnostics(scan);
  const sources = new Map<string, string>();
  outcomes.forEach((outcome, i) => {
    diagnostics.push(...outcome.diagnostics);
    if (outcome.text !== undefined) sources.set(scan.files[i]!, outcome.text);
  });
  addIncludedTexts(sources, outcomes);
  // After every per-file finding of a file, as in buildValidation, so ties sort the same way.
  diagnostics.push(...duplicateDiagnostics(scan.files, outcomes, setup, sources));
  return { files: scan.files, diagnostics: sortDiagnostics(diagnostics), sources };
}

/**
 * The included files' texts the outcomes carry, where no definition's own text is (a definition named by a
 * reference keeps its own: the order the outcomes arrive in must not matter).
 */
function addIncludedTexts(sources: Map<string, string>, outcomes: readonly FileOutcome[]): void {
  for (const outcome of outcomes) {
    for (const { file, text } of outcome.includedTexts ?? []) if (!sources.has(file)) sources.set(file, text);
  }
}

/**
 * The project-wide rule, on the files whose identifier another file shares (rare), read again on this thread:
 * the rule needs their positions, which workers do not keep. Run over those files in file order, it reports
 * exactly what it reports over all of them.
 */
function duplicateDiagnostics(
  files: readonly string[],
  outcomes: readonly FileOutcome[],
  setup: CheckSetup,
  sources: Map<string, string>,
): Diagnostic[] {
  const byIdentifier = new Map<string, number[]>();
  outcomes.forEach((outcome, i) => {
    if (outcome.identifier === undefined) return;
    const group = byIdentifier.get(outcome.identifier);
    if (group) group.push(i);
    else byIdentifier.set(outcome.identifier, [i]);
  });
  const shared = [...byIdentifier.values()]
    .filter((group) => group.length > 1)
    .flat()
    .sort((a, b) => a - b);
  if (shared.length === 0) return [];
  const definitions: LoadedDefinition[] = [];
  for (const i of shared) {
    const file = files[i]!;
    const loaded = readDefinitionFile(path.resolve(setup.cwd, file), file, setup.limits);
    if (loaded.definition) definitions.push(loaded.definition);
    if (loaded.text !== undefined) sources.set(file, loaded.text);
  }
  return buildProjectValidation({ definitions, options: setup.rules });
}
