import type { LoadedDefinition } from '../../definitions/types.js';
import type { Diagnostic, Severity, Span } from '../../diagnostic.js';
import { sortDiagnostics } from '../../diagnostic.js';
import type { WorkflowDefinition } from '../../generated/workflow.js';
import { SUPPRESSION_RULES } from '../suppressions.js';
import { ctaActionEmpty, emailSubjectMissing, pushTitleMissing, stepContentMissing } from './content.js';
import { credentialInDefinition } from './credential.js';
import { filterPartFields, variantFilterMissing } from './filters.js';
import { identifierFormat, identifierNameMismatch, nameSlugEmpty } from './identifier.js';
import { findDuplicateIdentifiers, IDENTIFIER_DUPLICATE } from './identifier-duplicate.js';
import { memoizeLast } from './last-memo.js';
import { metadataStepType } from './metadata.js';
import { notificationGroupUnknown, notificationGroupUnresolved } from './notification-group.js';
import {
  renderDateFormat,
  renderEmpty,
  renderHelperArity,
  renderHelperUnknown,
  renderSurprise,
} from './render.js';
import { stepNameDuplicate, stepUuidDuplicate } from './steps.js';
import { templateSyntax } from './template-syntax.js';
import type { IncludedSpan, Rule, RuleContext, RuleInfo, RuleOptions } from './types.js';
import { variableTypo } from './variable-typo.js';
import { variableTypeMismatch, variableUndeclared, variableUnused } from './variables.js';
import { displayPath } from './walk.js';

export { renderFindingsToDiagnostics } from './render-diagnostics.js';
export type { RuleOptions, SeverityOverride } from './types.js';

/** The per-file rules, in the order the docs list them. */
export const RULES: readonly Rule[] = [
  identifierFormat,
  identifierNameMismatch,
  nameSlugEmpty,
  templateSyntax,
  variableTypo,
  variableUndeclared,
  variableUnused,
  variableTypeMismatch,
  metadataStepType,
  filterPartFields,
  stepContentMissing,
  emailSubjectMissing,
  pushTitleMissing,
  ctaActionEmpty,
  stepNameDuplicate,
  variantFilterMissing,
  notificationGroupUnknown,
  notificationGroupUnresolved,
  stepUuidDuplicate,
  renderHelperUnknown,
  renderHelperArity,
  renderDateFormat,
  renderEmpty,
  renderSurprise,
  credentialInDefinition,
];

/** The rules a `wfsync-disable` comment may name: every rule that runs on definitions. */
export const SUPPRESSIBLE_RULE_CODES: readonly string[] = [
  IDENTIFIER_DUPLICATE.code,
  ...RULES.map((rule) => rule.code),
];

/**
 * Every rule code, the project-wide one and the findings about `wfsync-disable` comments included: what a config's
 * `rules:` map may name.
 */
export const KNOWN_RULE_CODES: readonly string[] = [
  ...SUPPRESSIBLE_RULE_CODES,
  ...SUPPRESSION_RULES.map((rule) => rule.code),
];

/** Code, description and default severity of every rule, for `--list-rules`, SARIF and the docs. */
export function ruleInfos(): RuleInfo[] {
  return [IDENTIFIER_DUPLICATE, ...RULES, ...SUPPRESSION_RULES].map(
    ({ code, description, defaultSeverity }) => ({ code, description, defaultSeverity }),
  );
}

const SUPPRESSION_INFOS = new Map<string, RuleInfo>(SUPPRESSION_RULES.map((rule) => [rule.code, rule]));

/** The severity of a finding about a `wfsync-disable` comment under `options`; undefined when turned off. */
export function suppressionSeverity(code: string, options: RuleOptions): Severity | undefined {
  const info = SUPPRESSION_INFOS.get(code);
  return info === undefined ? undefined : ruleSeverity(info, options);
}

/** A rule's severity under `options` (`rules:`, a file's overrides merged in); undefined when turned off. */
export function ruleSeverity(info: RuleInfo, options: RuleOptions): Severity | undefined {
  const override = options.severities?.[info.code];
  if (override === 'off') return undefined;
  return override ?? info.defaultSeverity;
}

const BEFORE_SCHEMA = RULES.filter((rule) => rule.stage === 'before-schema');
const AFTER_SCHEMA = RULES.filter((rule) => rule.stage !== 'before-schema');

/**
 * Each stage's active rules for the last options asked for: every file of a run without `overrides:` shares one
 * options object, so the list is built once a run rather than twice a file.
 */
const activeBefore = memoizeLast((options: RuleOptions) => activeRules(BEFORE_SCHEMA, options));
const activeAfter = memoizeLast((options: RuleOptions) => activeRules(AFTER_SCHEMA, options));

/** A stage's rules that `options` leaves on, with their severities, in RULES order. */
function activeRules(stage: readonly Rule[], options: RuleOptions): readonly ActiveRule[] {
  // A loop, not flatMap: flatMap's array per rule cost validate ~30 ms at 2,000 files when this ran twice a file.
  const active: ActiveRule[] = [];
  for (const rule of stage) {
    const severity = ruleSeverity(rule, options);
    if (severity !== undefined) active.push({ rule, severity });
  }
  return active;
}

interface ActiveRule {
  rule: Rule;
  severity: Severity;
}

export interface RuleInput {
  /** Definitions that passed the JSON Schema: the per-file rules run on these. */
  valid: readonly LoadedDefinition[];
  /** Every parsed definition: the project-wide rules run on these. */
  all: readonly LoadedDefinition[];
  options: RuleOptions;
}

/** Run every rule not turned off; findings become Diagnostics with the configured severity. Pure; sorted. */
export function buildRuleDiagnostics({ valid, all, options }: RuleInput): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  if (valid.length > 0) {
    const active = activeAfter(options);
    for (const definition of valid) runRules(definition, options, active, diagnostics);
  }
  const duplicateSeverity = ruleSeverity(IDENTIFIER_DUPLICATE, options);
  if (duplicateSeverity !== undefined) {
    for (const { definition, pointer, message } of findDuplicateIdentifiers(all)) {
      diagnostics.push({
        code: IDENTIFIER_DUPLICATE.code,
        severity: duplicateSeverity,
        message,
        file: definition.file,
        pointer,
        ...definition.locate(pointer, 'value'),
      });
    }
  }
  return sortDiagnostics(diagnostics);
}

/**
 * The `before-schema` rules on one parsed definition, whatever its shape. The schema's findings at the pointers these
 * report are superseded by them (see buildFileChecks). Pure; sorted.
 */
export function buildBeforeSchemaDiagnostics(
  definition: LoadedDefinition,
  options: RuleOptions,
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  runRules(definition, options, activeBefore(options), diagnostics);
  return sortDiagnostics(diagnostics);
}

/** Run the given rules on one definition; findings go to `out` with each rule's severity. */
function runRules(
  definition: LoadedDefinition,
  options: RuleOptions,
  active: readonly ActiveRule[],
  out: Diagnostic[],
): void {
  // One context for all the rules of a definition: `report` reads the rule that is running.
  let current: ActiveRule | undefined;
  const ctx: RuleContext = {
    definition,
    workflow: definition.value as WorkflowDefinition,
    options,
    report(pointer, message, opts = {}) {
      const { rule, severity } = current!;
      const span = opts.span ?? definition.locate(pointer, opts.target ?? 'value');
      if (isIncludedSpan(span)) {
        out.push(includedDiagnostic({ code: rule.code, severity, message, pointer }, span, definition.file));
        return;
      }
      out.push({ code: rule.code, severity, message, file: definition.file, pointer, ...span });
    },
  };
  for (const entry of active) {
    current = entry;
    entry.rule.check(ctx);
  }
}

function isIncludedSpan(span: Span | IncludedSpan): span is IncludedSpan {
  return (span as Partial<IncludedSpan>).includedAt !== undefined;
}

/**
 * A finding inside an included file's text: named by that file, at the position in it, with the definition kept
 * (`includedBy`, and in the message, before its closing period) since the pointer points into the definition.
 */
function includedDiagnostic(
  finding: Pick<Diagnostic, 'code' | 'severity' | 'message' | 'pointer'>,
  span: IncludedSpan,
  definitionFile: string,
): Diagnostic {
  const note = ` (included by ${definitionFile} at ${displayPath(span.includedAt)})`;
  const message = finding.message.endsWith('.')
    ? `${finding.message.slice(0, -1)}${note}.`
    : `${finding.message}${note}`;
  const { file, line, column, endLine, endColumn } = span;
  return { ...finding, message, file, line, column, endLine, endColumn, includedBy: definitionFile };
}
