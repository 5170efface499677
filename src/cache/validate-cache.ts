/** The validate cache as `wfsync validate --cache` uses it: opened before the run, saved after it. */
import { join, relative, resolve } from 'node:path';
import type { LoadLimits } from '../definitions/limits.js';
import { createFsBoundary } from '../fs-boundary.js';
import { describeFsError, removeStrayTempFiles } from '../state/atomic-write.js';
import type { RuleOptions } from '../validate/rules/index.js';
import { VERSION } from '../version.js';
import type { CacheEntry } from './entry.js';
import { buildCacheKey, currentBuildId, currentRuntime } from './key.js';
import { readStoredCache, type StoredCache, serializeCache, writeStoredCache } from './store.js';

/** Where the cache lives by default, under the project root (`.wfsync/cache/` is git-ignored by `wfsync init`). */
export const DEFAULT_CACHE_PATH = join('.wfsync', 'cache', 'validate.json');

export interface ValidateCache extends StoredCache {
  /** Absolute path of the cache file. */
  file: string;
  /** The project root: entry paths are relative to it. */
  root: string;
  key: string;
}

/**
 * Reads the cache for these rules and limits; never fails (see readStoredCache). It lives at `location` (relative
 * to `cwd`: `--cache-location`), else at DEFAULT_CACHE_PATH under the project root.
 */
export function openValidateCache(input: {
  cwd: string;
  root: string;
  location?: string | undefined;
  rules: RuleOptions;
  limits: LoadLimits;
}): ValidateCache {
  const file =
    input.location === undefined
      ? resolve(input.root, DEFAULT_CACHE_PATH)
      : resolve(input.cwd, input.location);
  const key = buildCacheKey({
    version: VERSION,
    build: currentBuildId(),
    runtime: currentRuntime(),
    rules: input.rules,
    limits: input.limits,
  });
  return { ...readStoredCache(file, key, createFsBoundary(input.cwd)), file, root: input.root, key };
}

/**
 * Writes what the cache should now hold, when it differs from what was read (a run where every file hit writes
 * nothing). Returns the warning to print when it could not be written: the run's result stands either way.
 */
export async function saveValidateCache(
  cache: ValidateCache,
  run: { entries: ReadonlyMap<string, CacheEntry>; changed: boolean },
  cwd: string,
): Promise<string | undefined> {
  if (!run.changed && cache.discarded === undefined) return undefined;
  try {
    await writeStoredCache(cache.file, serializeCache(cache.key, run.entries), createFsBoundary(cwd));
    // Temp files of a run killed mid-write (the same naming as state files'): best effort, never an error.
    await removeStrayTempFiles(cache.file);
    return undefined;
  } catch (error) {
    return `wfsync: could not write the validate cache ${displayPath(cache.file, cwd)}: ${describeFsError(error)}\n`;
  }
}

/** The --verbose line: `wfsync: cache: 9,998 of 10,000 files unchanged (.wfsync/cache/validate.json)`. */
export function describeCacheUse(
  cache: ValidateCache,
  unchanged: number,
  files: number,
  cwd: string,
): string {
  const where = displayPath(cache.file, cwd);
  const note = cache.discarded === undefined ? where : `${where} was ${cache.discarded}: rebuilt`;
  return `wfsync: cache: ${count(unchanged)} of ${count(files)} file${files === 1 ? '' : 's'} unchanged (${note})\n`;
}

function count(n: number): string {
  return n.toLocaleString('en-US');
}

function displayPath(file: string, cwd: string): string {
  return relative(cwd, file).split('\\').join('/') || file;
}
