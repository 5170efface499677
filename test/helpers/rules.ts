import { expect } from 'vitest';
import { type Diagnostic, sortDiagnostics } from '../../src/diagnostic.js';
import { buildFileChecks, buildProjectChecks, type ValidationInput } from '../../src/validate/index.js';
import { buildRuleDiagnostics, type RuleOptions } from '../../src/validate/rules/index.js';
import { validateDefinitionSchema } from '../../src/validate/schema.js';
import { loadYaml } from './load-yaml.js';

export { loadYaml, yaml } from './load-yaml.js';

/** The trigger every test definition needs to pass the schema, as a last top-level line. */
export const TRIGGER = 'triggers: [{type: event, identifier: order-shipped}]\n';

/**
 * Run every rule on one definition and keep the findings of the given codes (all when none given). The definition
 * must pass the JSON Schema, as in `wfsync validate`: rules only ever see schema-valid definitions.
 */
export function check(text: string, options: RuleOptions = {}, ...codes: string[]): Diagnostic[] {
  const definition = loadYaml(text);
  expect(validateDefinitionSchema(definition).map((d) => d.message)).toEqual([]);
  return checkUnvalidated(text, options, ...codes);
}

/** Like check, for the few inputs the schema rejects too (rules must not rely on the schema for them). */
export function checkUnvalidated(text: string, options: RuleOptions = {}, ...codes: string[]): Diagnostic[] {
  const definition = loadYaml(text);
  const diagnostics = buildRuleDiagnostics({ valid: [definition], all: [definition], options });
  return codes.length === 0 ? diagnostics : diagnostics.filter((d) => codes.includes(d.code));
}

/**
 * Schema first, then the per-file rules, plus the project-wide rule on all, sorted: what `wfsync validate` reports of
 * these definitions (check/ gets it file by file, then the project rule).
 */
export function validation(input: ValidationInput): Diagnostic[] {
  return sortDiagnostics([...buildFileChecks(input).diagnostics, ...buildProjectChecks(input).diagnostics]);
}

/** The fields a rule test asserts. */
export function brief(d: Diagnostic): Pick<Diagnostic, 'code' | 'severity' | 'line' | 'column' | 'message'> {
  return { code: d.code, severity: d.severity, line: d.line, column: d.column, message: d.message };
}
