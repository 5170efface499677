/** What a freshly checked file's outcome depended on, for its cache entry. */
import type { IncludeProblemCode } from '../definitions/include-file.js';
import { includesOf } from '../definitions/include-references.js';
import type { LoadedDefinition } from '../definitions/types.js';
import type { Diagnostic } from '../diagnostic.js';
import type { FileFingerprint, IncludeFingerprint } from './entry.js';
import { hashContent } from './hash.js';

/**
 * A reference that did not resolve depends on more than bytes (whether a file exists, the names next to it for a
 * did-you-mean, where the project root is): such an outcome is not cached. The Record keeps this list in step with
 * the type: a new include problem code fails to compile until it is listed here.
 */
const INCLUDE_PROBLEMS: Record<IncludeProblemCode, true> = {
  'include-path-invalid': true,
  'include-outside-project': true,
  'include-not-found': true,
  'include-unreadable': true,
  'include-too-large': true,
  'include-encoding': true,
};

/**
 * The fingerprint of an outcome computed from `bytes`, or undefined when it may not be cached: a reference did not
 * resolve, or more bytes were read than the limit allows (the file grew while read: parseDefinition then reports it
 * without decoding, which a hit could not tell apart). `definition` is the one the outcome was validated from.
 */
export function buildFingerprint(input: {
  bytes: Uint8Array;
  maxBytes: number;
  definition: LoadedDefinition | undefined;
  diagnostics: readonly Diagnostic[];
  /** hashContent(bytes), when the caller has it already. */
  hash?: string | undefined;
}): FileFingerprint | undefined {
  if (input.bytes.length > input.maxBytes) return undefined;
  if (input.diagnostics.some((d) => Object.hasOwn(INCLUDE_PROBLEMS, d.code))) return undefined;
  const resolved = input.definition === undefined ? [] : includesOf(input.definition);
  const includes: IncludeFingerprint[] = [];
  if (resolved.length > 0) {
    const seen = new Set<string>();
    for (const include of resolved) {
      if (seen.has(include.path)) continue;
      seen.add(include.path);
      includes.push({ path: include.path, hash: hashContent(include.text) });
    }
  }
  return { hash: input.hash ?? hashContent(input.bytes), includes };
}
