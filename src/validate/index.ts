import type { LoadedDefinition } from '../definitions/types.js';
import type { Diagnostic } from '../diagnostic.js';
import { sortDiagnostics } from '../diagnostic.js';
import { buildRuleDiagnostics, type RuleOptions } from './rules/index.js';
import { validateDefinitionSchema } from './schema.js';

export interface ValidationInput {
  definitions: readonly LoadedDefinition[];
  options: RuleOptions;
}

/**
 * Schema first, then the named rules on every definition the schema accepted (their types hold there), plus the
 * project-wide rules on all. Pure: the same definitions and options always give the same sorted diagnostics.
 */
export function buildValidation({ definitions, options }: ValidationInput): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const valid: LoadedDefinition[] = [];
  for (const definition of definitions) {
    const schemaDiagnostics = validateDefinitionSchema(definition);
    diagnostics.push(...schemaDiagnostics);
    if (schemaDiagnostics.length === 0) valid.push(definition);
  }
  diagnostics.push(...buildRuleDiagnostics({ valid, all: [...definitions], options }));
  return sortDiagnostics(diagnostics);
}
