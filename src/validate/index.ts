import type { LoadedDefinition } from '../definitions/types.js';
import type { Diagnostic } from '../diagnostic.js';
import { sortDiagnostics } from '../diagnostic.js';
import { buildBeforeSchemaDiagnostics, buildRuleDiagnostics, type RuleOptions } from './rules/index.js';
import { validateDefinitionSchema } from './schema.js';

export interface ValidationInput {
  definitions: readonly LoadedDefinition[];
  options: RuleOptions;
}

/**
 * Schema first, then the named rules on every definition the schema accepted (their types hold there), plus the
 * project-wide rules on all. Pure: the same definitions and options always give the same sorted diagnostics.
 */
export function buildValidation(input: ValidationInput): Diagnostic[] {
  return sortDiagnostics([...buildFileValidation(input), ...buildProjectValidation(input)]);
}

/**
 * What each definition alone can tell: the schema, then the per-file rules where the schema passed. Each file's
 * findings depend on that file only, so the definitions may be split into groups and the results concatenated
 * (check/ checks each file on its own); sorting the concatenation gives buildValidation's order. Pure; sorted.
 */
export function buildFileValidation({ definitions, options }: ValidationInput): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const valid: LoadedDefinition[] = [];
  for (const definition of definitions) {
    const early = buildBeforeSchemaDiagnostics(definition, options);
    let schemaDiagnostics = validateDefinitionSchema(definition);
    if (early.length > 0) {
      // An early rule's precise message replaces the schema's generic one at the same place (when the rule is
      // turned off, the schema's error stays: the service still rejects the value).
      const covered = new Set(early.map((d) => d.pointer));
      schemaDiagnostics = schemaDiagnostics.filter((d) => !covered.has(d.pointer));
      diagnostics.push(...early);
    }
    diagnostics.push(...schemaDiagnostics);
    if (schemaDiagnostics.length === 0) valid.push(definition);
  }
  diagnostics.push(...buildRuleDiagnostics({ valid, all: [], options }));
  return sortDiagnostics(diagnostics);
}

/** The rules that compare files with each other (`identifier-duplicate`), on every parsed definition. Pure; sorted. */
export function buildProjectValidation({ definitions, options }: ValidationInput): Diagnostic[] {
  return buildRuleDiagnostics({ valid: [], all: definitions, options });
}
