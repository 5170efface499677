/**
 * The definitions pipeline, the one every command uses (validate and its watch mode and `--cache`, plan, sync, pull,
 * state): find every definition file, read and parse it (definitions/read.ts, the fast path hidden there), check it
 * against the schema and the per-file rules, then the project-wide rule over all of them. With `--cache` the stored
 * outcome of an unchanged file is reused instead (cache/check-cached.ts): the report is the same, byte for byte.
 */
import path from 'node:path';
import {
  type CacheInput,
  type CacheRun,
  type CheckBytes,
  checkFilesCached,
  type FileOutcome,
} from '../cache/check-cached.js';
import {
  type FindOptions,
  type OutsidePath,
  type ScanResult,
  scanDefinitionFiles,
} from '../definitions/find.js';
import { includesOf } from '../definitions/include-references.js';
import { includedTextsFor } from '../definitions/includes.js';
import { type LoadLimits, resolveLoadLimits } from '../definitions/limits.js';
import {
  type DefinitionSource,
  parseDefinitionBytes,
  readDefinition,
  scanDiagnostics,
} from '../definitions/read.js';
import type { LoadedDefinition, ParseResult } from '../definitions/types.js';
import { type Diagnostic, sortDiagnostics } from '../diagnostic.js';
import { createFsBoundary } from '../fs-boundary.js';
import type { WorkflowDefinition } from '../generated/workflow.js';
import { compareText } from '../text.js';
import { buildFileChecks, buildProjectChecks } from '../validate/index.js';
import { IDENTIFIER_DUPLICATE, identifierOf } from '../validate/rules/identifier-duplicate.js';
import { type RuleOptions, ruleSeverity } from '../validate/rules/index.js';
import type { SuppressedDiagnostic } from '../validate/suppressions.js';
import { notADefinition } from './not-a-definition.js';
import { createFileRuleOptions } from './rule-overrides.js';

export interface CheckOptions extends FindOptions {
  rules: RuleOptions;
  limits?: Partial<LoadLimits>;
  /** Reuse the stored outcomes of unchanged files (`validate --cache`); `searched` is filled in here. */
  cache?: Omit<CacheInput, 'searched'>;
  /**
   * Return the definitions too (plan, sync, pull, state). Validate needs the report alone: keeping every definition
   * to the end of the run cost it ~15% more time (garbage collection) at 2,000 files. Not with `cache`, whose reused
   * outcomes have none.
   */
  keepDefinitions?: boolean;
}

/**
 * With paths and `sources`, the project's other definitions are read too, for their identifiers alone: a duplicate
 * of a checked file's identifier anywhere in the project is reported (in the checked file, naming the other), but
 * nothing else of theirs is. With `cache`, they go through it like the checked files (a warm cache reads each once
 * and parses none); without, the fast parse reads each for its identifier, with no schema or rule.
 */

/** A definition without an error of its own, so one the schema accepted: typed, with its identifier. */
export interface CheckedDefinition extends LoadedDefinition {
  /** `triggers[0].identifier`. */
  identifier: string;
  /** The value, as the schema accepted it. */
  workflow: WorkflowDefinition;
}

export interface CheckResult {
  /** Every file looked at, sorted (display paths). */
  files: string[];
  /**
   * With `options.keepDefinitions`: every definition without an error of its own (reading, YAML, schema or per-file
   * rule), in file order. Empty otherwise.
   */
  definitions: CheckedDefinition[];
  /**
   * identifier → the files that declare it (in file order), among every file that parsed, with errors or not: one
   * with an error still claims its identifier (`new` refuses it).
   */
  identifiers: ReadonlyMap<string, string[]>;
  /** Every finding: reading, YAML, schema and rules; sorted (sortDiagnostics). */
  diagnostics: Diagnostic[];
  /** The findings a `wfsync-disable` comment silenced, with its reason (shown with `--verbose`); sorted. */
  suppressed: SuppressedDiagnostic[];
  /**
   * file → text for every file with a finding that decoded as UTF-8, and for included files that findings point
   * into: what code frames are drawn from.
   */
  sources: ReadonlyMap<string, string>;
  /** With `options.cache`: how many files were unchanged, and the entries the cache should now hold. */
  cache?: CacheRun;
  /** With `options.sources`: the given paths that are not the project's definitions, so not read (scan's). */
  outside: OutsidePath[];
  /** How many other definitions of the project were read for their identifiers (CheckOptions). */
  others: number;
}

/** Only a path that does not exist throws (UsageError); every other problem is a diagnostic. */
export async function checkDefinitions(
  paths: readonly string[],
  options: CheckOptions,
): Promise<CheckResult> {
  // One boundary for the run: the project root and each directory resolved once (fs-boundary.ts).
  const boundary = options.boundary ?? createFsBoundary(options.cwd);
  const scan = await scanDefinitionFiles(paths, { ...options, boundary });
  const { cwd, rules } = options;
  const limits = resolveLoadLimits(options.limits);
  const source = (file: string): DefinitionSource => ({
    absolute: path.resolve(cwd, file),
    file,
    limits,
    boundary,
  });
  const findings = fileFindings(rules, cwd);
  // The project's other definitions, for the identifiers the checked files must not share (see CheckOptions).
  const others = paths.length > 0 && options.sources ? await otherFiles(scan, options) : [];
  if (options.cache) {
    const check: CheckBytes = (file, bytes) => {
      const parsed = parseDefinitionBytes(bytes, source(file), findings.vouch);
      return { outcome: checkParsed(parsed, findings, false), definition: parsed.definition };
    };
    const run = checkFilesCached(
      [...scan.files, ...others],
      { cwd, limits, boundary },
      { ...options.cache, searched: scan.directories },
      check,
    );
    const outcomes = run.outcomes.slice(0, scan.files.length);
    const context = { files: others, outcomes: run.outcomes.slice(scan.files.length) };
    return { ...mergeOutcomes(scan, outcomes, { source, rules, cwd, context }), cache: run.cache };
  }
  const keep = options.keepDefinitions === true;
  const outcomes = scan.files.map((file) =>
    checkParsed(readDefinition(source(file), findings.vouch), findings, keep),
  );
  const context = {
    files: others,
    outcomes: others.map((file) => identifierOutcome(readDefinition(source(file)))),
  };
  return mergeOutcomes(scan, outcomes, { source, rules, cwd, context });
}

/** Every definition of the project the scan did not find (display paths, sorted). */
async function otherFiles(scan: ScanResult, options: CheckOptions): Promise<string[]> {
  const given = new Set(scan.files);
  const project = await scanDefinitionFiles([], options);
  return project.files.filter((file) => !given.has(file));
}

/** Another definition, read for its identifier alone. */
function identifierOutcome(parsed: ParseResult): FileOutcome {
  const identifier = parsed.definition ? identifierOf(parsed.definition.value) : undefined;
  return identifier === undefined
    ? { diagnostics: [] }
    : { diagnostics: [], identifier: detached(identifier) };
}

/**
 * The same checks over definitions read and parsed elsewhere (`plan --base`: the texts of a git commit), in the
 * order of `files`, every definition kept: what checkDefinitions returns for files read from disk.
 */
export function checkReadDefinitions(
  files: readonly string[],
  parsed: readonly ParseResult[],
  rules: RuleOptions,
  cwd: string,
): CheckResult {
  const findings = fileFindings(rules, cwd);
  const outcomes = parsed.map((result) => checkParsed(result, findings, true));
  const scan: ScanResult = { files: [...files], unreadable: [], directories: [], refused: [], outside: [] };
  // Every definition is kept, so the project rule never reads a file again.
  const source = (): DefinitionSource => {
    throw new Error('a definition read elsewhere was not kept (a wfsync bug)');
  };
  return mergeOutcomes(scan, outcomes, { source, rules, cwd });
}

/** A file's own findings (schema and per-file rules), worked out once per definition. */
interface FileFindings {
  /** For the fast path: its definition is kept only when nothing is found (else the reference path reads it). */
  vouch: (definition: LoadedDefinition) => boolean;
  of: (definition: LoadedDefinition) => Diagnostic[];
}

/**
 * In a file's outcome (and its cache entry) the findings a comment silenced stay among the others, marked by
 * `suppressedBy`; mergeOutcomes takes them apart.
 */
function fileFindings(rules: RuleOptions, cwd: string): FileFindings {
  const rulesFor = createFileRuleOptions(rules, cwd);
  // The findings `vouch` worked out, for `of` on the same definition right after: one slot, not a WeakMap (an
  // identity hash and an ephemeron entry per file, for a value only ever asked for once, next).
  let vouched: LoadedDefinition | undefined;
  let vouchedFindings: Diagnostic[] = [];
  const of = (definition: LoadedDefinition): Diagnostic[] => {
    const known = definition === vouched;
    vouched = undefined;
    if (known) return vouchedFindings;
    const checks = buildFileChecks({ definitions: [definition], options: rulesFor(definition.file) });
    return checks.suppressed.length === 0
      ? checks.diagnostics
      : [...checks.diagnostics, ...checks.suppressed];
  };
  return {
    vouch: (definition) => {
      const diagnostics = of(definition);
      vouched = definition;
      vouchedFindings = diagnostics;
      return diagnostics.length === 0;
    },
    of,
  };
}

/**
 * One file read and parsed, checked on its own: its findings in order (reading and YAML, schema, rules). The
 * definition stays in the outcome only if asked (`keep`).
 */
function checkParsed(parsed: ParseResult, findings: FileFindings, keep: boolean): FileOutcome {
  const { diagnostics } = parsed;
  const unrelated = notADefinition(parsed, parsed.definition?.file ?? diagnostics[0]?.file ?? '');
  // Plainly something else (a Kubernetes manifest): one finding, not a schema error per key, and no definition.
  if (unrelated !== undefined) {
    const outcome: FileOutcome = { diagnostics: [unrelated] };
    if (parsed.text !== undefined) outcome.text = parsed.text;
    return outcome;
  }
  const { definition } = parsed;
  if (definition !== undefined) diagnostics.push(...findings.of(definition));
  // Built property by property, not spread: this runs for every file.
  const outcome: FileOutcome = { diagnostics };
  if (diagnostics.length > 0 && parsed.text !== undefined) outcome.text = parsed.text;
  if (definition === undefined) return outcome;
  if (keep) outcome.definition = definition;
  if (diagnostics.length > 0) {
    const included = includedTextsFor(definition.file, diagnostics, includesOf(definition));
    if (included.length > 0) outcome.includedTexts = included;
  }
  const identifier = identifierOf(definition.value);
  if (identifier !== undefined) outcome.identifier = detached(identifier);
  return outcome;
}

/**
 * A copy of `text` that keeps no reference to the string it was cut from. js-yaml slices scalars out of the file's
 * text, and V8 keeps the whole text alive as long as a slice of it lives; an outcome lives to the end of the run, so
 * at 10,000 files the identifiers kept ~9 MB of texts alive, which every young-generation GC copied until promoted.
 */
function detached(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

/** The project's other definitions, read for their identifiers alone (CheckOptions), beside a scan's outcomes. */
interface Context {
  files: readonly string[];
  outcomes: readonly FileOutcome[];
}

interface MergeSetup {
  source: (file: string) => DefinitionSource;
  rules: RuleOptions;
  /** The working directory the display paths are relative to (for the overrides' globs). */
  cwd: string;
  context?: Context;
}

/**
 * The per-file outcomes of a scan's files (in its order) put together with the scan's problems and the project rule
 * (over the context's files too, whose own findings are not reported).
 */
function mergeOutcomes(scan: ScanResult, outcomes: readonly FileOutcome[], setup: MergeSetup): CheckResult {
  const diagnostics = scanDiagnostics(scan);
  const suppressed: SuppressedDiagnostic[] = [];
  const sources = new Map<string, string>();
  const definitions: CheckedDefinition[] = [];
  const identifiers = new Map<string, string[]>();
  const claim = (identifier: string, file: string) => {
    const owners = identifiers.get(identifier);
    if (owners) owners.push(file);
    else identifiers.set(identifier, [file]);
  };
  outcomes.forEach((outcome, i) => {
    const file = scan.files[i]!;
    const own = outcome.diagnostics.filter((d) => {
      if (!isSuppressed(d)) return true;
      suppressed.push(d);
      return false;
    });
    diagnostics.push(...own);
    if (outcome.text !== undefined) sources.set(file, outcome.text);
    const { definition, identifier } = outcome;
    if (identifier === undefined) return;
    claim(identifier, file);
    if (definition && !own.some((d) => d.severity === 'error')) {
      definitions.push({ ...definition, identifier, workflow: definition.value as WorkflowDefinition });
    }
  });
  // The included files' texts where no definition's own text is (a definition named by a reference keeps its own).
  for (const outcome of outcomes) {
    for (const { file, text } of outcome.includedTexts ?? []) if (!sources.has(file)) sources.set(file, text);
  }
  const context = setup.context ?? { files: [], outcomes: [] };
  context.outcomes.forEach(({ identifier }, i) => {
    if (identifier !== undefined) claim(identifier, context.files[i]!);
  });
  // In file order, the checked files and the others together: the messages name the others as a whole run would.
  const all = [...scan.files, ...context.files].map((file, i) => ({
    file,
    outcome: i < outcomes.length ? outcomes[i]! : context.outcomes[i - outcomes.length]!,
  }));
  if (context.files.length > 0) all.sort((a, b) => compareText(a.file, b.file));
  const checked = new Set(scan.files);
  // After every per-file finding of a file, as validate reports them, so ties sort the same way.
  for (const finding of duplicateDiagnostics(all, identifiers, setup)) {
    if (!checked.has(finding.diagnostic.file)) continue;
    if (isSuppressed(finding.diagnostic)) suppressed.push(finding.diagnostic);
    else diagnostics.push(finding.diagnostic);
    sources.set(finding.diagnostic.file, finding.text);
  }
  if (context.files.length > 0) for (const owners of identifiers.values()) owners.sort(compareText);
  return {
    files: scan.files,
    definitions,
    identifiers,
    diagnostics: sortDiagnostics(diagnostics),
    suppressed: sortDiagnostics(suppressed) as SuppressedDiagnostic[],
    sources,
    outside: scan.outside,
    others: context.files.length,
  };
}

function isSuppressed(diagnostic: Diagnostic): diagnostic is SuppressedDiagnostic {
  return (diagnostic as Partial<SuppressedDiagnostic>).suppressedBy !== undefined;
}

/**
 * The project-wide rule, on the files whose identifier another file shares (rare); a file whose stored outcome was
 * reused, or that was read for its identifier alone, is read again, since the rule needs positions. Run over those
 * files in file order, it reports exactly what it reports over all of them. Each finding with its file's text.
 */
function duplicateDiagnostics(
  all: ReadonlyArray<{ file: string; outcome: FileOutcome }>,
  identifiers: ReadonlyMap<string, string[]>,
  setup: MergeSetup,
): Array<{ diagnostic: Diagnostic; text: string }> {
  const shared = new Set(
    [...identifiers].filter(([, owners]) => owners.length > 1).map(([identifier]) => identifier),
  );
  if (shared.size === 0) return [];
  const definitions: LoadedDefinition[] = [];
  const texts = new Map<string, string>();
  for (const { file, outcome } of all) {
    if (outcome.identifier === undefined || !shared.has(outcome.identifier)) continue;
    const definition = outcome.definition ?? readDefinition(setup.source(file)).definition;
    if (definition === undefined) continue;
    definitions.push(definition);
    texts.set(file, definition.text);
  }
  // Each file's severity of the project rule, overrides included: run it on, then keep each finding as its file says.
  const rulesFor = createFileRuleOptions(setup.rules, setup.cwd);
  const on = {
    ...setup.rules,
    severities: { ...setup.rules.severities, [IDENTIFIER_DUPLICATE.code]: 'error' as const },
  };
  const checks = buildProjectChecks({ definitions, options: on });
  const found: Diagnostic[] = [];
  for (const diagnostic of [...checks.diagnostics, ...checks.suppressed]) {
    const severity = ruleSeverity(IDENTIFIER_DUPLICATE, rulesFor(diagnostic.file));
    if (severity !== undefined) found.push({ ...diagnostic, severity });
  }
  return found.map((diagnostic) => ({ diagnostic, text: texts.get(diagnostic.file) ?? '' }));
}
