/**
 * `wfsync validate --cache`: every file read and hashed, and its stored outcome reused when nothing it depends on
 * changed (key.ts holds the rest); only the other files are checked (by the check check/ passes in). Per hit: one
 * read, one hash, one Map lookup; no YAML, and no decoding unless there are findings to frame.
 */
import path from 'node:path';
import { readIncludeFile } from '../definitions/include-file.js';
import { type IncludedText, includeDisplayPath, includedTextsFor } from '../definitions/includes.js';
import type { LoadLimits } from '../definitions/limits.js';
import { readDefinitionBytes } from '../definitions/read.js';
import type { LoadedDefinition } from '../definitions/types.js';
import { decodeUtf8 } from '../definitions/utf8.js';
import type { Diagnostic } from '../diagnostic.js';
import type { FsBoundary } from '../fs-boundary.js';
import { buildCacheEntry, type CacheEntry, type IncludeFingerprint, readCacheEntry } from './entry.js';
import { buildFingerprint } from './fingerprint.js';
import { hashContent } from './hash.js';
import { buildCacheMerge, type CacheMerge, type CacheMergeInput, type SeenFile } from './merge.js';

/** One definition file checked (check/), or its stored outcome reused. */
export interface FileOutcome {
  /**
   * Reading, YAML, schema and per-file rule findings, in that order (each group sorted); those a `wfsync-disable`
   * comment silenced among them, marked by `suppressedBy` (check/ takes them apart).
   */
  diagnostics: Diagnostic[];
  /** The text, only when there are findings to frame (a file without findings needs none). */
  text?: string;
  /** The texts of included files that findings point into (includedTextsFor), only when there are such findings. */
  includedTexts?: IncludedText[];
  /** `triggers[0].identifier`, for the project-wide duplicate check, when the file parsed and has one. */
  identifier?: string;
  /** The definition, when the file parsed and the caller keeps it (check/: `keepDefinitions`; never with a cache). */
  definition?: LoadedDefinition;
}

/** Checks one file (display path) from the bytes read of it; `definition`: the one parsed, which it was checked on. */
export type CheckBytes = (
  file: string,
  bytes: Uint8Array,
) => { outcome: FileOutcome; definition: LoadedDefinition | undefined };

/**
 * The project root (entry paths are relative to it, so a cache outlives a moved checkout), the stored entries, and
 * the directories the run searches (merge.ts).
 */
export type CacheInput = Pick<CacheMergeInput, 'root' | 'stored' | 'searched'>;

export interface CacheRun extends CacheMerge {
  /** Files whose stored outcome was reused. */
  unchanged: number;
}

/** The outcome of every file, in the order of `files` (display paths relative to `cwd`), and the cache's new entries. */
export function checkFilesCached(
  files: readonly string[],
  setup: { cwd: string; limits: LoadLimits; boundary: FsBoundary },
  cache: CacheInput,
  check: CheckBytes,
): { outcomes: FileOutcome[]; cache: CacheRun } {
  const { cwd, limits, boundary } = setup;
  const { maxBytes } = limits;
  const lookUp = createLookup(maxBytes, cache, boundary);
  const seen = new Map<string, SeenFile>();
  let unchanged = 0;
  const outcomes = files.map((file): FileOutcome => {
    const key = entryKey(file, cwd, cache.root);
    const absolute = path.resolve(cwd, file);
    const read = readDefinitionBytes({ absolute, file, limits, boundary });
    // Unreadable, too large, not a regular file, outside the project: nothing worth caching (no bytes were read).
    if (!('bytes' in read)) {
      seen.set(key, undefined);
      return { diagnostics: read.diagnostics };
    }
    const { bytes } = read;
    const found = lookUp(bytes, file, absolute, key);
    if ('hit' in found) {
      unchanged++;
      seen.set(key, { entry: found.hit, hit: true });
      return outcomeOf(found.hit, bytes, found.included);
    }
    const { outcome, definition } = check(file, bytes);
    const { diagnostics } = outcome;
    const fingerprint = buildFingerprint({ bytes, maxBytes, definition, diagnostics, hash: found.hash });
    seen.set(key, fingerprint && { entry: buildCacheEntry(file, fingerprint, outcome), hit: false });
    return outcome;
  });
  const merged = buildCacheMerge({ root: cache.root, stored: cache.stored, seen, searched: cache.searched });
  return { outcomes, cache: { ...merged, unchanged } };
}

/**
 * The hit check of one file's bytes (display path, absolute path, key): the stored entry and the texts it included, or the hash
 * the bytes were found to have (none when nothing is stored, or the file is too large). Included files are read
 * through the run's boundary, as the load reads them.
 */
function createLookup(
  maxBytes: number,
  cache: CacheInput,
  boundary: FsBoundary,
): (
  bytes: Uint8Array,
  file: string,
  absolute: string,
  key: string,
) => { hit: CacheEntry; included?: Map<string, string> } | { hash?: string } {
  /** The included texts by path as written, or undefined when one changed (or no longer resolves). */
  const readIncludes = (
    includes: readonly IncludeFingerprint[],
    absolute: string,
  ): Map<string, string> | undefined => {
    const definitionDir = path.dirname(absolute);
    const texts = new Map<string, string>();
    // Resolved the way the load resolves them (definitions/includes.ts), checks of path and root included.
    for (const { path: written, hash } of includes) {
      const read = readIncludeFile({ written, display: written, definitionDir, boundary, maxBytes });
      if (!read.ok || hashContent(read.text) !== hash) return undefined;
      texts.set(written, read.text);
    }
    return texts;
  };
  return (bytes, file, absolute, key) => {
    // Nothing to find: the fingerprint hashes the bytes of the file checked.
    if (cache.stored.size === 0 || bytes.length > maxBytes) return {};
    const hash = hashContent(bytes);
    const stored = cache.stored.get(key);
    const entry = stored === undefined ? undefined : readCacheEntry(stored, key);
    if (entry === undefined || entry.hash !== hash || entry.file !== file) return { hash };
    if (!entry.includes) return { hit: entry };
    const included = readIncludes(entry.includes, absolute);
    return included === undefined ? { hash } : { hit: entry, included };
  };
}

/**
 * A stored outcome as check/ gives it: the text (decoded from the bytes) only when there are findings,
 * and the texts of included files that findings point into (just read and hashed, by path as written).
 */
function outcomeOf(
  entry: CacheEntry,
  bytes: Uint8Array,
  included?: ReadonlyMap<string, string>,
): FileOutcome {
  const outcome: FileOutcome = { diagnostics: entry.diagnostics ? [...entry.diagnostics] : [] };
  if (entry.diagnostics) {
    const decoded = decodeUtf8(bytes);
    if (decoded.ok) outcome.text = decoded.text;
    if (included !== undefined) {
      const named = [...included].map(([written, text]) => ({
        file: includeDisplayPath(entry.file, written),
        text,
      }));
      const texts = includedTextsFor(entry.file, entry.diagnostics, named);
      if (texts.length > 0) outcome.includedTexts = texts;
    }
  }
  if (entry.identifier !== undefined) outcome.identifier = entry.identifier;
  return outcome;
}

/**
 * A file's key in the cache: its path relative to the root, `/` separators. Run from the root (the common case), a
 * display path inside it is that already (find.ts makes display paths relative, normalized, with `/`).
 */
export function entryKey(file: string, cwd: string, root: string): string {
  if (cwd === root && !file.startsWith('../') && file !== '..' && !path.isAbsolute(file)) return file;
  const relative = path.relative(root, path.resolve(cwd, file));
  return path.sep === '/' ? relative : relative.split(path.sep).join('/');
}
