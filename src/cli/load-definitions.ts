import path from 'node:path';
import { scanDefinitionFiles } from '../definitions/find.js';
import { type IncludedText, includedTextsFor, includesOf } from '../definitions/includes.js';
import { resolveLoadLimits } from '../definitions/limits.js';
import { scanDiagnostics } from '../definitions/read.js';
import { readDefinitionFileFast } from '../definitions/read-fast.js';
import type { LoadedDefinition, ParseResult } from '../definitions/types.js';
import { type Diagnostic, sortDiagnostics } from '../diagnostic.js';
import { buildFileValidation, buildProjectValidation } from '../validate/index.js';
import type { RuleOptions } from '../validate/rules/index.js';

export interface ValidatedDefinitions {
  files: string[];
  definitions: LoadedDefinition[];
  /** Reading, YAML, schema and rule findings, sorted. */
  diagnostics: Diagnostic[];
  sources: Map<string, string>;
}

/**
 * Read and validate every definition the way `wfsync validate` does on one thread: the fast path first, and any file
 * with a finding redone with `yaml`, so findings and positions are exactly validate's. For plan, sync, pull, state.
 */
export async function readValidatedDefinitions(input: {
  cwd: string;
  defaultDir: string;
  options: RuleOptions;
}): Promise<ValidatedDefinitions> {
  const { cwd, options } = input;
  const scan = await scanDefinitionFiles([], { cwd, defaultDir: input.defaultDir });
  const limits = resolveLoadLimits();
  const definitions: LoadedDefinition[] = [];
  const diagnostics: Diagnostic[] = [...scanDiagnostics(scan)];
  const sources = new Map<string, string>();
  const included: IncludedText[] = [];
  for (const file of scan.files) {
    const read = readDefinitionFileFast(path.resolve(cwd, file), file, limits);
    let result: ParseResult;
    if ('definition' in read) {
      if (buildFileValidation({ definitions: [read.definition], options }).length === 0) {
        definitions.push(read.definition);
        sources.set(file, read.definition.text);
        continue;
      }
      result = read.slow();
    } else {
      result = read.result;
    }
    if (result.text !== undefined) sources.set(file, result.text);
    diagnostics.push(...result.diagnostics);
    if (result.definition) {
      const definition = result.definition;
      definitions.push(definition);
      const found = buildFileValidation({ definitions: [definition], options });
      diagnostics.push(...found);
      // Findings inside an included file are framed from its text (validate's outcomes carry the same).
      included.push(...includedTextsFor(definition.file, found, includesOf(definition)));
    }
  }
  // After every definition's own text, which wins over a reference to the same file (as in validate).
  for (const { file, text } of included) if (!sources.has(file)) sources.set(file, text);
  diagnostics.push(...buildProjectValidation({ definitions, options }));
  return { files: scan.files, definitions, diagnostics: sortDiagnostics(diagnostics), sources };
}
