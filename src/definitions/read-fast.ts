import { parseDefinitionFast } from './fast-parse.js';
import { readDefinitionIncludes } from './includes.js';
import type { LoadLimits } from './limits.js';
import { includeOptions, loadDefinitionBytes, readDefinitionBytes } from './read.js';
import type { LoadedDefinition, ParseResult } from './types.js';

/**
 * A file read once, for a caller that validates it and can redo it: either a definition from the fast path, with
 * `slow` to get exactly readDefinitionFile's result from the same bytes should the definition have any finding, or
 * readDefinitionFile's result already (the fast path could not vouch for the file, or it could not be read).
 */
export type FastRead = { definition: LoadedDefinition; slow: () => ParseResult } | { result: ParseResult };

/** readDefinitionFile with the fast path (fast-parse.ts) tried first; includes are resolved either way. */
export function readDefinitionFileFast(absolute: string, file: string, limits: LoadLimits): FastRead {
  const read = readDefinitionBytes(absolute, file, limits);
  if (!('bytes' in read)) return { result: read };
  const source = { absolute, file, limits };
  const slow = () => loadDefinitionBytes(read.bytes, source);
  const definition = parseDefinitionFast(file, read.bytes, limits);
  if (definition !== undefined) {
    const resolved = readDefinitionIncludes({ definition, diagnostics: [] }, includeOptions(source));
    if (resolved.definition !== undefined && resolved.diagnostics.length === 0) {
      return { definition: resolved.definition, slow };
    }
  }
  return { result: slow() };
}
