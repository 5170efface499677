import { includesOf } from '../definitions/include-references.js';
import type { LoadedDefinition } from '../definitions/types.js';
import type { Diagnostic } from '../diagnostic.js';
import { sortDiagnostics } from '../diagnostic.js';
import { IDENTIFIER_DUPLICATE } from './rules/identifier-duplicate.js';
import {
  buildBeforeSchemaDiagnostics,
  buildRuleDiagnostics,
  RULES,
  type RuleOptions,
  SUPPRESSIBLE_RULE_CODES,
  suppressionSeverity,
} from './rules/index.js';
import { validateDefinitionSchema } from './schema.js';
import { applySuppressions, type SuppressionInput, type SuppressionResult } from './suppressions.js';

export interface ValidationInput {
  definitions: readonly LoadedDefinition[];
  options: RuleOptions;
}

/**
 * What each definition alone can tell: the schema, then the per-file rules where the schema passed, with the
 * `wfsync-disable` comments of each definition (and of the files it includes) applied: the findings they silence
 * apart, for `--verbose`. Each file's findings depend on that file only, so the definitions may be split into groups
 * and the results concatenated (check/ checks each file on its own). The project-wide rule's codes are never unused
 * here (its findings come later, from buildProjectChecks). Pure; sorted.
 */
export function buildFileChecks({ definitions, options }: ValidationInput): SuppressionResult {
  const diagnostics: Diagnostic[] = [];
  const suppressed: SuppressionResult['suppressed'] = [];
  for (const definition of definitions) {
    const own = buildOwnFindings(definition, options);
    const result = applyDefinitionSuppressions(definition, own.findings, options);
    diagnostics.push(...result.diagnostics);
    suppressed.push(...result.suppressed);
    // An early rule silenced where it replaced the schema's error: that error stays (the service still rejects the
    // value), as when the rule is turned off.
    for (const d of result.suppressed) {
      if (EARLY_CODES.has(d.code)) diagnostics.push(...own.covered.filter((c) => c.pointer === d.pointer));
    }
  }
  return {
    diagnostics: sortDiagnostics(diagnostics),
    suppressed: sortDiagnostics(suppressed) as typeof suppressed,
  };
}

const EARLY_CODES = new Set(RULES.filter((rule) => rule.stage === 'before-schema').map((rule) => rule.code));

/**
 * One definition's schema and per-file rule findings, before any comment is applied; `covered`, the schema's errors
 * an early rule's finding replaced.
 */
function buildOwnFindings(
  definition: LoadedDefinition,
  options: RuleOptions,
): { findings: Diagnostic[]; covered: Diagnostic[] } {
  const early = buildBeforeSchemaDiagnostics(definition, options);
  const schemaDiagnostics = validateDefinitionSchema(definition);
  // The common case, nothing found before the rules: their findings are all there is.
  if (early.length === 0 && schemaDiagnostics.length === 0) {
    return { findings: buildRuleDiagnostics({ valid: [definition], all: [], options }), covered: [] };
  }
  const pointers = new Set(early.map((d) => d.pointer));
  // An early rule's precise message replaces the schema's generic one at the same place (when the rule is
  // turned off, the schema's error stays: the service still rejects the value).
  const kept =
    early.length === 0 ? schemaDiagnostics : schemaDiagnostics.filter((d) => !pointers.has(d.pointer));
  const covered = early.length === 0 ? [] : schemaDiagnostics.filter((d) => pointers.has(d.pointer));
  const valid = kept.length === 0 ? [definition] : [];
  return { findings: [...early, ...kept, ...buildRuleDiagnostics({ valid, all: [], options })], covered };
}

/**
 * Findings filtered by the `wfsync-disable` comments of `definition` and its included files. With `options`, as
 * validate checks a file: the comments' own problems reported and, with `--report-unused-disable`, the unused ones.
 * Without, for findings made outside validate (the preview's, from rendering each step): what is wrong with a comment
 * is validate's to report (the definition was checked with it), not repeated. Pure.
 */
export function applyDefinitionSuppressions(
  definition: LoadedDefinition,
  diagnostics: readonly Diagnostic[],
  options?: RuleOptions,
): SuppressionResult {
  return applySuppressions({
    texts: textsOf(definition),
    diagnostics,
    knownCodes: SUPPRESSIBLE_RULE_CODES,
    severityOf: (code) => (options ? suppressionSeverity(code, options) : undefined),
    reportUnused: options?.reportUnusedDisable === true,
    laterCodes: [IDENTIFIER_DUPLICATE.code],
  });
}

/** A definition's text, then each included file's (naming the definition, as their findings do). */
function textsOf(definition: LoadedDefinition): SuppressionInput['texts'] {
  return [
    definition,
    ...includesOf(definition).map(({ file, text }) => ({ file, text, includedBy: definition.file })),
  ];
}

/**
 * The rules that compare files with each other (`identifier-duplicate`), on every parsed definition, with each
 * definition's `wfsync-disable` comments for them applied. Only
 * its findings count here (the per-file ones were filtered by buildFileChecks, the findings about the comments
 * reported there). Pure; sorted.
 */
export function buildProjectChecks({ definitions, options }: ValidationInput): SuppressionResult {
  const found = buildRuleDiagnostics({ valid: [], all: definitions, options });
  if (found.length === 0) return { diagnostics: found, suppressed: [] };
  const diagnostics: Diagnostic[] = [];
  const suppressed: SuppressionResult['suppressed'] = [];
  for (const definition of definitions) {
    const own = found.filter((d) => d.file === definition.file);
    if (own.length === 0) continue;
    const result = applyDefinitionSuppressions(definition, own);
    diagnostics.push(...result.diagnostics);
    suppressed.push(...result.suppressed);
  }
  return {
    diagnostics: sortDiagnostics(diagnostics),
    suppressed: sortDiagnostics(suppressed) as typeof suppressed,
  };
}
