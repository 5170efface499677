import { parseDefinition } from '../../../src/definitions/parse.js';
import type { Diagnostic } from '../../../src/diagnostic.js';
import { validation } from '../../helpers/rules.js';

/** What `wfsync validate` reports for one file's text: the real loader, schema and every rule at default severity. */
export function validateText(text: string, file = 'workflows/new.yaml'): Diagnostic[] {
  const parsed = parseDefinition(file, new TextEncoder().encode(text));
  if (!parsed.definition) return parsed.diagnostics;
  return [...parsed.diagnostics, ...validation({ definitions: [parsed.definition], options: {} })];
}

/** `code message` per finding, for readable assertion failures. */
export function describeAll(diagnostics: readonly Diagnostic[]): string[] {
  return diagnostics.map((d) => `${d.severity} ${d.code} ${d.line}:${d.column} ${d.message}`);
}
