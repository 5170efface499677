/**
 * `wfsync validate --cache`: every file read and hashed on this thread, and its stored outcome reused when nothing it
 * depends on changed (cache/key.ts holds the rest); only the misses are checked, on worker threads only when the
 * misses alone are many enough to pay for them. Per hit: one read, one hash, one Map lookup; no YAML, and no
 * decoding unless there are findings to frame.
 */
import path from 'node:path';
import { buildCacheEntry, type CacheEntry, type IncludeFingerprint, readCacheEntry } from '../cache/entry.js';
import { hashContent } from '../cache/hash.js';
import { buildCacheMerge, type CacheMerge, type SeenFile } from '../cache/merge.js';
import { readIncludeFile } from '../definitions/include-file.js';
import {
  findIncludeRoot,
  type IncludeRoot,
  includeDisplayPath,
  includedTextsFor,
} from '../definitions/includes.js';
import { readDefinitionBytes } from '../definitions/read.js';
import { decodeUtf8 } from '../definitions/utf8.js';
import {
  type CheckSetup,
  checkDefinitionBytes,
  checkDefinitionFile,
  type FileOutcome,
} from './check-file.js';
import { checkFiles } from './pool.js';
import type { WorkerSettings } from './settings.js';

export interface CacheInput {
  /** Absolute project root: entry paths are relative to it, so a cache outlives a moved checkout. */
  root: string;
  /** The stored entries by path (cache/store.ts), unchecked. */
  stored: ReadonlyMap<string, unknown>;
  /** Absolute directories the run searches (for dropping the entries of files gone from them: cache/merge.ts). */
  searched: readonly string[];
}

export interface CacheRun extends CacheMerge {
  /** Files whose stored outcome was reused. */
  unchanged: number;
}

/** A file looked up: its outcome (a hit, or a file that could not be read), or the bytes to check it from. */
type Lookup = { outcome: FileOutcome; hit?: CacheEntry } | { bytes: Uint8Array; hash?: string };

export async function checkFilesCached(
  files: readonly string[],
  setup: CheckSetup,
  cache: CacheInput,
  settings: WorkerSettings,
): Promise<{ outcomes: FileOutcome[]; workers: number; cache: CacheRun }> {
  const fingerprinted: CheckSetup = { ...setup, fingerprint: true };
  const outcomes: FileOutcome[] = new Array(files.length);
  const hits: Array<CacheEntry | undefined> = new Array(files.length);
  const misses: number[] = [];
  const held = new Map<string, { bytes: Uint8Array; hash?: string }>();
  const keys = files.map((file) => entryKey(file, setup.cwd, cache.root));
  if (cache.stored.size === 0) {
    // Nothing to find: the checks read the files (on any thread) and hash them there.
    for (let i = 0; i < files.length; i++) misses.push(i);
  } else {
    const lookUp = createLookup(setup, cache);
    files.forEach((file, i) => {
      const found = lookUp(file, path.resolve(setup.cwd, file), keys[i]!);
      if ('outcome' in found) {
        outcomes[i] = found.outcome;
        hits[i] = found.hit;
      } else {
        misses.push(i);
        held.set(file, found);
      }
    });
  }
  const checked = await checkFiles(
    misses.map((i) => files[i]!),
    fingerprinted,
    settings,
    {
      check: (file) => {
        const read = held.get(file);
        if (read === undefined) return checkDefinitionFile(file, fingerprinted);
        const source = { absolute: path.resolve(setup.cwd, file), file, limits: setup.limits };
        return checkDefinitionBytes(read.bytes, source, fingerprinted, read.hash);
      },
    },
  );
  misses.forEach((i, k) => {
    outcomes[i] = checked.outcomes[k]!;
  });

  const seen = new Map<string, SeenFile>();
  let unchanged = 0;
  files.forEach((file, i) => {
    const hit = hits[i];
    const outcome = outcomes[i]!;
    if (hit) unchanged++;
    const fresh = outcome.fingerprint && buildCacheEntry(file, outcome.fingerprint, outcome);
    const entry = hit ?? fresh;
    seen.set(keys[i]!, entry && { entry, hit: hit !== undefined });
  });
  const merged = buildCacheMerge({ root: cache.root, stored: cache.stored, seen, searched: cache.searched });
  return { outcomes, workers: checked.workers, cache: { ...merged, unchanged } };
}

/** The hit check of one file (display path, absolute path, key); include roots are found once per directory. */
function createLookup(
  setup: CheckSetup,
  cache: CacheInput,
): (file: string, absolute: string, key: string) => Lookup {
  const roots = new Map<string, IncludeRoot>();
  /** The included texts by path as written, or undefined when one changed (or no longer resolves). */
  const readIncludes = (
    includes: readonly IncludeFingerprint[],
    absolute: string,
  ): Map<string, string> | undefined => {
    const definitionDir = path.dirname(absolute);
    let root = roots.get(definitionDir);
    if (root === undefined) {
      root = findIncludeRoot(definitionDir);
      roots.set(definitionDir, root);
    }
    const texts = new Map<string, string>();
    // Resolved the way the load resolves them (definitions/includes.ts), checks of path and root included.
    for (const { path: written, hash } of includes) {
      const read = readIncludeFile({
        written,
        display: written,
        definitionDir,
        root,
        maxBytes: setup.limits.maxBytes,
      });
      if (!read.ok || hashContent(read.text) !== hash) return undefined;
      texts.set(written, read.text);
    }
    return texts;
  };
  return (file, absolute, key) => {
    const read = readDefinitionBytes(absolute, file, setup.limits);
    if (!('bytes' in read)) return { outcome: { diagnostics: read.diagnostics } };
    const { bytes } = read;
    if (bytes.length > setup.limits.maxBytes) return { bytes };
    const hash = hashContent(bytes);
    const stored = cache.stored.get(key);
    const entry = stored === undefined ? undefined : readCacheEntry(stored, key);
    if (entry === undefined || entry.hash !== hash || entry.file !== file) return { bytes, hash };
    let included: Map<string, string> | undefined;
    if (entry.includes) {
      included = readIncludes(entry.includes, absolute);
      if (included === undefined) return { bytes, hash };
    }
    return { outcome: outcomeOf(entry, bytes, included), hit: entry };
  };
}

/**
 * A stored outcome as checkDefinitionFile gives it: the text (decoded from the bytes) only when there are findings,
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
