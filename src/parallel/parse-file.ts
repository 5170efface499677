/**
 * The first half of checking a file, as a worker thread does it for the main thread (the pipeline in pool.ts): read
 * and parse, nothing more. Kept apart from check-file.ts, which brings the schema validators and the rules: a
 * worker that only parses never loads those (~15 ms of start-up per worker, before its first answer).
 */
import path from 'node:path';
import { includesOf, type ResolvedInclude } from '../definitions/includes.js';
import { type DefinitionSource, readDefinitionBytes } from '../definitions/read.js';
import { parseDefinitionBytesFast } from '../definitions/read-fast.js';
import type { CheckSetup, FileOutcome } from './check-file.js';

/**
 * A file as a worker thread reads it for the main thread to validate: what the fast path read, or the file's whole
 * outcome when the fast path could not vouch for it (checked in full where it was read). Plain data: it crosses
 * threads.
 *
 * A chunk of `parsed` entries only crosses as JSON (pool.ts ChunkResult), which costs both threads less than the
 * structured clone (~3% of a 10,000-file run): exact, because a value the fast path vouches for holds nothing JSON
 * would change. No undefined, no -0, NaN or infinity (fast-parse.ts refuses any number not written as JavaScript
 * prints it), only plain objects, arrays, strings, finite numbers, booleans and null; the property tests check it.
 * An outcome's diagnostics are not held to that, so a chunk with any outcome is cloned as it is.
 */
export type ParsedFile =
  | { parsed: { value: unknown; includes?: readonly ResolvedInclude[] } }
  | { outcome: FileOutcome };

/** A file the fast path could not vouch for: its bytes, for check-file.ts to check in full. */
export interface DeclinedFile {
  declined: { bytes: Uint8Array; source: DefinitionSource };
}

/**
 * Read and parse one file (display path relative to `setup.cwd`). Not for the validate cache, whose outcomes need
 * the bytes' fingerprint (`setup.fingerprint` is ignored here).
 */
export function readParsedFile(file: string, setup: CheckSetup): ParsedFile | DeclinedFile {
  const absolute = path.resolve(setup.cwd, file);
  const read = readDefinitionBytes(absolute, file, setup.limits);
  if (!('bytes' in read)) return { outcome: { diagnostics: read.diagnostics } };
  const source: DefinitionSource = { absolute, file, limits: setup.limits };
  const fast = parseDefinitionBytesFast(read.bytes, source);
  if (fast === undefined) return { declined: { bytes: read.bytes, source } };
  const includes = includesOf(fast);
  // No text: it would double what crosses threads, and only findings need it, which are redone from the file.
  return { parsed: includes.length > 0 ? { value: fast.value, includes } : { value: fast.value } };
}
