// Frozen copy of src/validate/rules/index.ts before the allocation work (commit 8e3e79f): the oracle for the differential
// tests. Change it only along with a deliberate change of behaviour in src.
import type { LoadedDefinition } from '../../../../src/definitions/types.js';
import {
  findDuplicateIdentifiers,
  IDENTIFIER_DUPLICATE,
} from '../../../../src/validate/rules/identifier-duplicate.js';
import {
  notificationGroupUnknown,
  notificationGroupUnresolved,
} from '../../../../src/validate/rules/notification-group.js';
import type { Rule, RuleContext, RuleInfo, RuleOptions } from '../../../../src/validate/rules/types.js';
import type { WorkflowDefinition } from '../../../../src/validate/rules/workflow.js';
import { ctaActionEmpty, emailSubjectMissing, pushTitleMissing, stepContentMissing } from './content.js';
import type { Diagnostic, Severity } from './diagnostic.js';
import { sortDiagnostics } from './diagnostic.js';
import { filterPartFields, variantFilterMissing } from './filters.js';
import { identifierFormat, identifierNameMismatch, nameSlugEmpty } from './identifier.js';
import { metadataStepType } from './metadata.js';
import { stepNameDuplicate, stepUuidDuplicate } from './steps.js';
import { templateSyntax } from './template-syntax.js';
import { variableTypeMismatch, variableUndeclared, variableUnused } from './variables.js';

export type {
  ReportOptions,
  Rule,
  RuleContext,
  RuleInfo,
  RuleOptions,
  SeverityOverride,
} from '../../../../src/validate/rules/types.js';

/** The per-file rules, in the order the docs list them. */
export const RULES: readonly Rule[] = [
  identifierFormat,
  identifierNameMismatch,
  nameSlugEmpty,
  templateSyntax,
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
];

/** Every rule code, the project-wide one included: what a config's `rules:` map may name. */
export const KNOWN_RULE_CODES: readonly string[] = [
  IDENTIFIER_DUPLICATE.code,
  ...RULES.map((rule) => rule.code),
];

/** Code, description and default severity of every rule, for `--list-rules`, SARIF and the docs. */
export function ruleInfos(): RuleInfo[] {
  return [IDENTIFIER_DUPLICATE, ...RULES].map(({ code, description, defaultSeverity }) => ({
    code,
    description,
    defaultSeverity,
  }));
}

function severityOf(info: RuleInfo, options: RuleOptions): Severity | undefined {
  const override = options.severities?.[info.code];
  if (override === 'off') return undefined;
  return override ?? info.defaultSeverity;
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
  for (const definition of valid) {
    runRules(definition, options, (rule) => rule.stage !== 'before-schema', diagnostics);
  }
  const duplicateSeverity = severityOf(IDENTIFIER_DUPLICATE, options);
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
 * report are superseded by them (see buildFileValidation). Pure; sorted.
 */
export function buildBeforeSchemaDiagnostics(
  definition: LoadedDefinition,
  options: RuleOptions,
): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  runRules(definition, options, (rule) => rule.stage === 'before-schema', diagnostics);
  return sortDiagnostics(diagnostics);
}

/** Run the selected rules not turned off on one definition; findings go to `out` with the configured severity. */
function runRules(
  definition: LoadedDefinition,
  options: RuleOptions,
  selected: (rule: Rule) => boolean,
  out: Diagnostic[],
): void {
  for (const rule of RULES) {
    if (!selected(rule)) continue;
    const severity = severityOf(rule, options);
    if (severity === undefined) continue;
    const ctx: RuleContext = {
      definition,
      workflow: definition.value as WorkflowDefinition,
      options,
      report(pointer, message, opts = {}) {
        const span = opts.span ?? definition.locate(pointer, opts.target ?? 'value');
        out.push({ code: rule.code, severity, message, file: definition.file, pointer, ...span });
      },
    };
    rule.check(ctx);
  }
}
