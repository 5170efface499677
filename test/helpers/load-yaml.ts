import { parseDefinition } from '../../src/definitions/parse.js';
import type { LoadedDefinition } from '../../src/definitions/types.js';

/** A definition read by the real loader, as `wfsync validate` reads it. */
export function loadYaml(text: string, file = 'workflows/test.yaml'): LoadedDefinition {
  const result = parseDefinition(file, new TextEncoder().encode(text));
  if (!result.definition) {
    throw new Error(`test YAML does not load: ${result.diagnostics.map((d) => d.message).join('; ')}`);
  }
  return result.definition;
}

/** Strip the indentation common to all lines, so tests can indent their YAML. */
export function yaml(strings: TemplateStringsArray, ...values: unknown[]): string {
  const raw = strings.reduce((out, s, i) => out + s + (i < values.length ? String(values[i]) : ''), '');
  const lines = raw
    .replace(/^\n/, '')
    .replace(/\n[ \t]*$/, '\n')
    .split('\n');
  const indent = Math.min(...lines.filter((l) => l.trim() !== '').map((l) => /^ */.exec(l)![0].length));
  return lines.map((l) => l.slice(indent)).join('\n');
}
