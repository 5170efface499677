import { parseDefinitionFast } from './fast-parse.js';
import { readDefinitionIncludes } from './includes.js';
import type { LoadLimits } from './limits.js';
import { type DefinitionSource, includeOptions, loadDefinitionBytes, readDefinitionBytes } from './read.js';
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
  const definition = parseDefinitionBytesFast(read.bytes, source);
  const slow = () => loadDefinitionBytes(read.bytes, source);
  return definition === undefined ? { result: slow() } : { definition, slow };
}

/**
 * The fast path for bytes already read: the definition as js-yaml reads it, includes resolved; undefined when the fast
 * path cannot vouch for the file or an include does not resolve (loadDefinitionBytes then says why).
 */
export function parseDefinitionBytesFast(
  bytes: Uint8Array,
  source: DefinitionSource,
): LoadedDefinition | undefined {
  const definition = parseDefinitionFast(source.file, bytes, source.limits);
  if (definition === undefined) return undefined;
  const resolved = readDefinitionIncludes({ definition, diagnostics: [] }, includeOptions(source));
  return resolved.diagnostics.length === 0 ? resolved.definition : undefined;
}
