import path from 'node:path';
import { type FindOptions, scanDefinitionFiles } from '../../src/definitions/find.js';
import { type LoadLimits, resolveLoadLimits } from '../../src/definitions/limits.js';
import { readDefinition, scanDiagnostics } from '../../src/definitions/read.js';
import type { LoadedDefinition } from '../../src/definitions/types.js';
import { type Diagnostic, sortDiagnostics } from '../../src/diagnostic.js';
import { createFsBoundary } from '../../src/fs-boundary.js';

export interface ReadResult {
  definitions: LoadedDefinition[];
  /** Problems with files and their YAML (not schema or rule findings). */
  diagnostics: Diagnostic[];
  /** Every file that was looked at, in sorted order (also those that failed to parse). */
  files: string[];
  /** file → text of every file that decoded as UTF-8, parsed or not: what code frames are drawn from. */
  sources: Map<string, string>;
}

/**
 * Finds and parses every definition file, without validating them (src/check/ does both), as check/ reads them:
 * every broken file is reported in the same run. Only a path that does not exist throws (UsageError).
 */
export async function readDefinitions(
  paths: readonly string[],
  options: FindOptions & { limits?: Partial<LoadLimits> },
): Promise<ReadResult> {
  const boundary = options.boundary ?? createFsBoundary(options.cwd);
  const scan = await scanDefinitionFiles(paths, { ...options, boundary });
  const limits = resolveLoadLimits(options.limits);
  const definitions: LoadedDefinition[] = [];
  const diagnostics = scanDiagnostics(scan);
  const sources = new Map<string, string>();
  for (const file of scan.files) {
    const loaded = readDefinition({ absolute: path.resolve(options.cwd, file), file, limits, boundary });
    if (loaded.definition) definitions.push(loaded.definition);
    if (loaded.text !== undefined) sources.set(file, loaded.text);
    diagnostics.push(...loaded.diagnostics);
  }
  return { definitions, diagnostics: sortDiagnostics(diagnostics), files: scan.files, sources };
}
