/**
 * The validate cache file: `{"wfsync": "validate-cache", "format", "key", "entries": [{path, hash, …}]}`, paths
 * relative to the project root (a list rather than an object keyed by path: twice as fast to write and read).
 * Reading never fails (a missing, damaged or foreign file is an empty cache); writing replaces the file atomically,
 * and its errors are the caller's to report as a warning.
 */
import { readProjectText } from '../definitions/read-capped.js';
import { type FsBoundary, workingBoundary } from '../fs-boundary.js';
import { isRecord, JsonTooDeepError, parseJson } from '../json.js';
import { describeFsError, writeFileAtomically } from '../state/atomic-write.js';
import { type CacheEntry, storedEntry } from './entry.js';
import { CACHE_FORMAT } from './key.js';

const MARK = 'validate-cache';

/** A cache file past this size is not read (a sane one holds ~150 bytes per file without findings). */
const MAX_CACHE_BYTES = 256 * 1024 * 1024;

export interface StoredCache {
  /** Stored entries by path, unchecked: each is checked (readCacheEntry) when a file asks for it. */
  entries: Map<string, unknown>;
  /** Why a file that was there was not used, to follow "the cache was" (--verbose); absent when used or missing. */
  discarded?: string;
}

/** Pure: the entries of a cache file's text, or none (with why) when it is not a cache of this key. */
export function parseStoredCache(text: string, key: string): StoredCache {
  let value: unknown;
  try {
    value = parseJson(text);
  } catch (error) {
    return {
      entries: new Map(),
      discarded: error instanceof JsonTooDeepError ? error.message : 'not valid JSON',
    };
  }
  if (!isRecord(value) || value.wfsync !== MARK || !Array.isArray(value.entries)) {
    return { entries: new Map(), discarded: 'not a wfsync validate cache' };
  }
  if (value.format !== CACHE_FORMAT || value.key !== key) {
    return { entries: new Map(), discarded: 'written by another wfsync build, Node.js or rule settings' };
  }
  const entries = new Map<string, unknown>();
  for (const item of value.entries as unknown[]) {
    // An item without a path cannot be looked up: left out, like any other malformed entry.
    if (isRecord(item) && typeof item.path === 'string') entries.set(item.path, item);
  }
  return { entries };
}

export function serializeCache(key: string, entries: ReadonlyMap<string, CacheEntry>): string {
  const stored = [...entries].map(([path, entry]) => storedEntry(path, entry));
  return `${JSON.stringify({ wfsync: MARK, format: CACHE_FORMAT, key, entries: stored })}\n`;
}

/**
 * Reads the cache file through the project boundary (never through a link leading outside the project); whatever
 * goes wrong gives an empty cache.
 */
export function readStoredCache(
  file: string,
  key: string,
  boundary: FsBoundary = workingBoundary(),
): StoredCache {
  let text: string;
  try {
    text = readProjectText(file, MAX_CACHE_BYTES, boundary);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries: new Map() };
    return { entries: new Map(), discarded: `unreadable: ${describeFsError(error)}` };
  }
  return parseStoredCache(text, key);
}

/**
 * Replaces the cache file (its directory created as needed) with the one writer (state/atomic-write.ts): never
 * through a link, a temp file in the same directory renamed over it, so a reader sees the old cache or the new one,
 * never a mix. No fsync, unlike state files: a cache lost to a power cut costs one slower run, and a torn file is
 * discarded when read.
 */
export async function writeStoredCache(
  file: string,
  text: string,
  boundary: FsBoundary = workingBoundary(),
): Promise<void> {
  await writeFileAtomically(file, text, { durable: false, boundary });
}
