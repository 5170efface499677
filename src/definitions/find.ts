import type { Dirent, Stats } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from '../errors.js';
import {
  createFsBoundary,
  describeRoot,
  type FsBoundary,
  type ProjectRoot,
  toDisplayPath,
} from '../fs-boundary.js';

export { toDisplayPath };

export interface FindOptions {
  cwd: string;
  /** Searched when no paths are given (relative to cwd, or absolute). */
  defaultDir: string;
  /** The project boundary the search stays in (default: the working directory's). */
  boundary?: FsBoundary;
}

/** A path the search refused without reading it, as a diagnostic will report it. */
export interface RefusedPath {
  path: string;
  code: 'definition-outside-project' | 'file-unreadable';
  message: string;
}

export interface ScanResult {
  /** Display paths (relative to cwd, `/` separators), sorted and de-duplicated. */
  files: string[];
  /** Directories (or explicit paths) that exist but could not be listed or inspected. */
  unreadable: Array<{ path: string; error: NodeJS.ErrnoException }>;
  /** The given paths (or `defaultDir`) that are directories, absolute: the trees searched. */
  directories: string[];
  /**
   * What the search refused: a searched directory or a linked one inside it that leads outside the project, a
   * definition-named entry that is not a file (a FIFO, a device). Sorted by path.
   */
  refused: RefusedPath[];
}

const DEFINITION_FILE = /\.ya?ml$/i;

/**
 * Definition files named by `paths` (or under `defaultDir` when there are none), and the directories it could not
 * list (check/ reports those). An explicit file is taken whatever its extension. A directory is searched recursively
 * for `*.yaml`/`*.yml`, skipping `node_modules` and hidden entries (`.git`, `.github`, `.wfsync`…). Symbolic links
 * to files are kept (reading them checks where they lead); symbolic links to directories are not followed, so a
 * search never loops and never leaves the tree it was given, and one leading outside the project is refused, as is a
 * searched directory that does. A path that does not exist is a UsageError; a directory without definitions gives
 * no files.
 */
export async function scanDefinitionFiles(
  paths: readonly string[],
  options: FindOptions,
): Promise<ScanResult> {
  const found = new Set<string>();
  const unreadable: ScanResult['unreadable'] = [];
  const refused: RefusedPath[] = [];
  const directories: string[] = [];
  const display = (absolute: string) => toDisplayPath(options.cwd, absolute);
  const boundary = options.boundary ?? createFsBoundary(options.cwd);

  for (const given of paths.length > 0 ? paths : [options.defaultDir]) {
    const absolute = path.resolve(options.cwd, given);
    let stats: Stats;
    try {
      stats = await stat(absolute);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR')
        throw new UsageError(`no such file or directory: ${given}`);
      // Exists but cannot be inspected (EACCES on a parent, ELOOP): reading it will say why.
      found.add(display(absolute));
      continue;
    }
    if (stats.isDirectory()) {
      const leaves = boundary.directoryOutside(absolute);
      if (leaves !== undefined) {
        refused.push(outsideDirectory(display(absolute), leaves, 'no file under it is read'));
        continue;
      }
      directories.push(absolute);
      await walk(absolute, { found, unreadable, refused, display, boundary });
    } else if (stats.isFile()) found.add(display(absolute));
    else throw new UsageError(`not a file or directory: ${given}`);
  }
  unreadable.sort((a, b) => compare(a.path, b.path));
  refused.sort((a, b) => compare(a.path, b.path));
  return { files: [...found].sort(compare), unreadable, directories, refused };
}

function outsideDirectory(shown: string, root: ProjectRoot, what: string): RefusedPath {
  return {
    path: shown,
    code: 'definition-outside-project',
    message: `${shown} leads outside ${describeRoot(root)} through a symbolic link; ${what}: keep definitions inside it`,
  };
}

interface WalkSink {
  found: Set<string>;
  unreadable: ScanResult['unreadable'];
  refused: RefusedPath[];
  display: (absolute: string) => string;
  boundary: FsBoundary;
}

async function walk(root: string, sink: WalkSink): Promise<void> {
  // Each directory with its display path: an entry's paths are its directory's plus its name (a name holds no
  // separator), which saves a path.join and a path.relative per file (~30 ms per 10,000). Except for a directory
  // above the working directory's: from `..`, the entry `project` may be the working directory itself (`.`). A file
  // never is, so files always take the short way.
  const pending: Array<{ dir: string; shown: string }> = [{ dir: root, shown: sink.display(root) }];
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { dir, shown } = next;
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      sink.unreadable.push({ path: shown, error: error as NodeJS.ErrnoException });
      continue;
    }
    const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
    const above = shown === '..' || shown.startsWith('../');
    const shownPrefix = shown === '.' ? '' : `${shown}/`;
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const full = prefix + entry.name;
      if (entry.isDirectory()) {
        const shownDir = above ? sink.display(full) : shownPrefix + entry.name;
        if (entry.name !== 'node_modules') pending.push({ dir: full, shown: shownDir });
      } else if (entry.isFile()) {
        if (DEFINITION_FILE.test(entry.name)) sink.found.add(shownPrefix + entry.name);
      } else if (entry.isSymbolicLink()) {
        const shownLink = above ? sink.display(full) : shownPrefix + entry.name;
        // A link to a directory is not followed (and refused when it leads out); one to anything else is kept if
        // named like a definition, and a dangling one too, so that reading says what is wrong with it.
        if (await isDirectory(full)) {
          const leaves = sink.boundary.directoryOutside(full);
          if (leaves !== undefined)
            sink.refused.push(outsideDirectory(shownLink, leaves, 'its files are not read'));
        } else if (DEFINITION_FILE.test(entry.name)) sink.found.add(shownLink);
      } else if (DEFINITION_FILE.test(entry.name)) {
        // A FIFO, socket or device named like a definition: refused unopened (opening some has effects).
        sink.refused.push({
          path: shownPrefix + entry.name,
          code: 'file-unreadable',
          message: 'cannot read file: not a regular file',
        });
      }
    }
  }
}

async function isDirectory(file: string): Promise<boolean> {
  try {
    return (await stat(file)).isDirectory();
  } catch {
    return false;
  }
}

/** Code-unit order: the same on every machine and locale. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
