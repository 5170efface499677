import { type FSWatcher, type Stats, watch } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';

export interface WatchOptions {
  /** Absolute files or directories. A directory is watched with everything below it. */
  roots: readonly string[];
  /** Which files under a directory root matter (a file root always does). */
  filter: (file: string) => boolean;
  /**
   * Directories under a root that are never watched, nor anything below them (config `exclude`): where nothing can
   * matter, no watcher is spent.
   */
  skipDirectory?: (dir: string) => boolean;
  /** Called with the changed paths (absolute, sorted) once events have settled; never twice at once. */
  onChange: (changed: string[]) => Promise<void>;
  /** A directory that cannot be watched (ENOSPC, EACCES): reported, the rest is still watched. */
  onError: (error: NodeJS.ErrnoException, dir: string) => void;
  signal: AbortSignal;
  /** Called once the first watchers are in place: changes from then on are seen. */
  onReady?: () => void;
  /** Quiet time after the last event before onChange runs. */
  debounceMs?: number;
}

// Native recursive watching only where the OS provides it: on Linux Node 20 emulates it in JS, and that
// emulation misses files in new directories and can throw on deletions (nodejs/node#48437, #52018).
const NATIVE_RECURSIVE = process.platform === 'darwin' || process.platform === 'win32';

/**
 * Watch `roots` until `signal` aborts; resolves once watchers are closed and a run in progress has finished,
 * rejects (after closing everything) when onChange throws. Editors save in many ways (rewrite, temp file then
 * rename, delete then create), so each directory is watched rather than each file, and the set of directories
 * is rescanned after every burst of events: new subdirectories are picked up, and a root that is deleted is
 * watched for from its nearest existing parent until it comes back.
 */
export function watchPaths(options: WatchOptions): Promise<void> {
  const watchers = new Map<string, { watcher: FSWatcher; ino: number }>();
  const changed = new Set<string>();
  // Each rescan tries unwatchable directories again, but says so once.
  const reported = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let failure: unknown;

  return new Promise<void>((resolve, reject) => {
    const finish = async (): Promise<void> => {
      clearTimeout(timer);
      for (const { watcher } of watchers.values()) watcher.close();
      watchers.clear();
      await running;
      if (failure === undefined) resolve();
      else reject(failure);
    };
    const relevant = (path: string): boolean =>
      options.roots.some(
        (root) =>
          path === root ||
          (path.startsWith(root + sep) &&
            options.filter(path) &&
            !skipped(relative(root, path)) &&
            !underSkippedDirectory(root, path)),
      );
    // A native recursive watcher (macOS, Windows) reports from below a skipped directory too.
    const underSkippedDirectory = (root: string, path: string): boolean => {
      if (options.skipDirectory === undefined) return false;
      for (let dir = dirname(path); dir !== root && dir.startsWith(root + sep); dir = dirname(dir))
        if (options.skipDirectory(dir)) return true;
      return false;
    };
    const onEvent = (dir: string, filename: string | Buffer | null): void => {
      // No filename (rare, platform-dependent): something in dir changed.
      const path = filename === null ? dir : join(dir, filename.toString());
      if (filename === null || relevant(path)) changed.add(path);
      else if (!mayMatter(dir, path)) return;
      schedule();
    };
    // In a folder watched only for the file roots in it (a config's folder, the folders above the project where a
    // config may appear), other names cost nothing: no rescan. Only a folder on the way to a missing root, or the
    // folder itself going away, needs one.
    const mayMatter = (dir: string, path: string): boolean =>
      inRoots(dir) ||
      path === dir ||
      basename(path) === basename(dir) ||
      options.roots.some((root) => root.startsWith(path + sep));
    const schedule = (): void => {
      if (options.signal.aborted) return;
      clearTimeout(timer);
      timer = setTimeout(flush, options.debounceMs ?? 100);
    };
    const inRoots = (dir: string): boolean =>
      options.roots.some((root) => dir === root || dir.startsWith(root + sep));
    /** Start and stop watchers to match the tree; returns the directories under the roots that came or went. */
    const rescan = async (): Promise<string[]> => {
      const wanted = await watchedDirectories(options.roots, options.skipDirectory);
      const different: string[] = [];
      for (const [dir, entry] of watchers) {
        // Gone, or deleted and recreated (a new inode): the old watch sees nothing any more.
        if (wanted.get(dir)?.ino !== entry.ino) {
          entry.watcher.close();
          watchers.delete(dir);
          different.push(dir);
        }
      }
      for (const [dir, { ino, recursive }] of wanted) {
        if (watchers.has(dir) || options.signal.aborted) continue;
        try {
          const watcher = watch(dir, { recursive }, (_event, filename) => onEvent(dir, filename));
          // Errors arrive when the directory goes away under the watch: rescan decides what to watch instead.
          watcher.on('error', () => schedule());
          watchers.set(dir, { watcher, ino });
          different.push(dir);
        } catch (error) {
          if (!reported.has(dir)) options.onError(error as NodeJS.ErrnoException, dir);
          reported.add(dir);
        }
      }
      return different.filter(inRoots);
    };
    const flush = (): void => {
      if (running) {
        again = true;
        return;
      }
      running = (async () => {
        // A new directory may already hold files whose events came before its watcher: it counts as a change.
        for (const dir of await rescan()) changed.add(dir);
        const paths = [...changed].sort();
        changed.clear();
        if (paths.length > 0 && !options.signal.aborted) await options.onChange(paths);
      })()
        .catch((error: unknown) => {
          failure = error;
          void finish();
        })
        .finally(() => {
          running = undefined;
          if (again) {
            again = false;
            schedule();
          }
        });
    };

    if (options.signal.aborted) {
      resolve();
      return;
    }
    options.signal.addEventListener('abort', () => void finish(), { once: true });
    rescan().then(
      () => {
        if (!options.signal.aborted) options.onReady?.();
      },
      (error: unknown) => {
        failure = error;
        void finish();
      },
    );
  });
}

/** Directory → how to watch it: each directory root with its subdirectories, a file root's directory. */
async function watchedDirectories(
  roots: readonly string[],
  skipDirectory: (dir: string) => boolean = () => false,
): Promise<Map<string, { ino: number; recursive: boolean }>> {
  const wanted = new Map<string, { ino: number; recursive: boolean }>();
  for (const root of roots) {
    const found = await statOrUndefined(root);
    if (found?.isDirectory()) {
      if (NATIVE_RECURSIVE) wanted.set(root, { ino: found.ino, recursive: true });
      else
        for (const [dir, ino] of await walkDirectories(root, found.ino, skipDirectory))
          wanted.set(dir, { ino, recursive: false });
      continue;
    }
    // A file's directory (saves often replace the file); a missing root's nearest existing parent.
    for (let dir = dirname(root); ; dir = dirname(dir)) {
      const parent = await statOrUndefined(dir);
      if (parent?.isDirectory()) {
        if (!wanted.has(dir)) wanted.set(dir, { ino: parent.ino, recursive: false });
        break;
      }
      if (dirname(dir) === dir) break;
    }
  }
  return wanted;
}

/** The directories definitions are searched in (as in definitions/find.ts: no hidden ones, no node_modules). */
async function walkDirectories(
  root: string,
  rootIno: number,
  skipDirectory: (dir: string) => boolean,
): Promise<Map<string, number>> {
  const found = new Map([[root, rootIno]]);
  const pending = [root];
  for (let dir = pending.pop(); dir !== undefined; dir = pending.pop()) {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isDirectory() || skipped(entry.name)) continue;
      const path = join(dir, entry.name);
      if (skipDirectory(path)) continue;
      const stats = await statOrUndefined(path);
      if (stats) found.set(path, stats.ino);
      pending.push(path);
    }
  }
  return found;
}

/** Hidden entries and node_modules are not searched for definitions, so changes there do not matter. */
function skipped(relativePath: string): boolean {
  return relativePath.split(sep).some((part) => part.startsWith('.') || part === 'node_modules');
}

async function statOrUndefined(path: string): Promise<Stats | undefined> {
  return stat(path).catch(() => undefined);
}
