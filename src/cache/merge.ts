/** What the validate cache holds after a run: this run's entries, and the stored ones it had no reason to drop. */
import path from 'node:path';
import { type CacheEntry, readCacheEntry } from './entry.js';

/** Entries kept at most (this run's files are always kept, however many): bounds the file and its load time. */
export const MAX_CACHE_ENTRIES = 50_000;

/** One file of this run: its entry, reused (a hit) or new; none when its outcome may not be cached. */
export type SeenFile = { entry: CacheEntry; hit: boolean } | undefined;

export interface CacheMergeInput {
  /** Absolute directory the entry paths are relative to (the project root). */
  root: string;
  /** The stored entries (unchecked values), by path relative to `root`, `/` separators. */
  stored: ReadonlyMap<string, unknown>;
  /** Every file of this run, by the same kind of path. */
  seen: ReadonlyMap<string, SeenFile>;
  /**
   * Absolute directories this run searched. A stored file inside one of them that the run did not see was deleted,
   * renamed or is no longer a definition: its entry goes. Stored files elsewhere (a run over one file or one
   * directory) keep theirs.
   */
  searched: readonly string[];
  max?: number;
}

export interface CacheMerge {
  entries: Map<string, CacheEntry>;
  /** False when `entries` holds exactly what was stored: nothing to write. */
  changed: boolean;
}

export function buildCacheMerge(input: CacheMergeInput): CacheMerge {
  const entries = new Map<string, CacheEntry>();
  let changed = false;
  for (const [file, seen] of input.seen) {
    if (seen === undefined) {
      changed ||= input.stored.has(file);
      continue;
    }
    entries.set(file, seen.entry);
    changed ||= !seen.hit;
  }
  const max = Math.max(input.max ?? MAX_CACHE_ENTRIES, entries.size);
  for (const [file, value] of input.stored) {
    if (input.seen.has(file)) continue;
    const keep = entries.size < max && !isSearched(path.resolve(input.root, file), input.searched);
    const entry = keep ? readCacheEntry(value, file) : undefined;
    if (entry === undefined) changed = true;
    else entries.set(file, entry);
  }
  return { entries, changed };
}

function isSearched(file: string, searched: readonly string[]): boolean {
  return searched.some((dir) => {
    const relative = path.relative(dir, file);
    const up = relative === '..' || relative.startsWith(`..${path.sep}`);
    return relative !== '' && !up && !path.isAbsolute(relative);
  });
}
