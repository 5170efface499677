import { type Dirent, readdir as readdirCallback, type Stats, stat as statCallback } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { UsageError } from '../errors.js';
import {
  createFsBoundary,
  describeRoot,
  type FsBoundary,
  type ProjectRoot,
  toDisplayPath,
} from '../fs-boundary.js';
import { compareText } from '../text.js';

// The callback API promised: node:fs/promises would load a dozen more of Node's own modules (readline, streams) on
// every start-up of a command that only lists folders (bench:startup).
const readdir = promisify(readdirCallback);
const stat = promisify(statCallback);

export { toDisplayPath };

export interface FindOptions {
  cwd: string;
  /** Searched when no paths are given (relative to cwd, or absolute), unless `sources` says where. */
  defaultDir: string;
  /**
   * Which files are the project's definitions (config `workflowsDir` and `exclude`, config/sources.ts). Without
   * paths, its roots are searched instead of `defaultDir`; with paths, a given file it does not hold, or a given
   * folder outside every root, is not read but listed in `outside`.
   */
  sources?: DefinitionSources;
  /** The project boundary the search stays in (default: the working directory's). */
  boundary?: FsBoundary;
}

/** What a path is to the project: one of its definitions, or why not. */
export type SourceClass = 'definition' | 'outside' | 'excluded' | 'config';

/** Which files are the project's definitions: built from the config by config/sources.ts. */
export interface DefinitionSources {
  /** Absolute folders to search (each pattern's fixed part), none inside another, sorted. */
  roots: readonly string[];
  /**
   * What a file (absolute) is: a definition when a pattern matches it or a folder above it (below its root, no
   * hidden or node_modules folder on the way) and no `exclude` pattern does; the config file never is.
   */
  classify(absolute: string): SourceClass;
  /** Whether a folder (absolute) is excluded, so that a search does not enter it. */
  excludes(absolute: string): boolean;
  /** True when every definition-named file under the roots is a definition: the search need not ask `classify`. */
  plain: boolean;
  /** Where definitions are read from, for messages: `workflowsDir (services/*\/workflows) in wfsync.config.yaml`. */
  describe: string;
}

/** A given path that is not a definition of the project, so not read. */
export interface OutsidePath {
  /** As given. */
  path: string;
  why: Exclude<SourceClass, 'definition'>;
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
  /** With `sources` and paths: the given paths that are not the project's definitions (not read), in order given. */
  outside: OutsidePath[];
}

const DEFINITION_FILE = /\.ya?ml$/i;

/**
 * Definition files named by `paths` (or, when there are none, under the roots of `sources`, else under
 * `defaultDir`), and the directories it could not list (check/ reports those). An explicit file is taken whatever its
 * extension; with `sources`, only if it is one of the project's definitions (else it is listed in `outside`). A directory is searched recursively
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
  const outside: OutsidePath[] = [];
  const display = (absolute: string) => toDisplayPath(options.cwd, absolute);
  const boundary = options.boundary ?? createFsBoundary(options.cwd);
  const { sources } = options;
  const sink: WalkSink = { found, unreadable, refused, display, boundary, sources };
  const search = async (absolute: string): Promise<void> => {
    const leaves = boundary.directoryOutside(absolute);
    if (leaves !== undefined) {
      refused.push(outsideDirectory(display(absolute), leaves, 'no file under it is read'));
      return;
    }
    directories.push(absolute);
    await walk(absolute, sink);
  };

  if (paths.length === 0 && sources) {
    // The project's folders: one that does not exist (a glob's fixed part, say) holds nothing.
    for (const root of sources.roots) if (await isDirectory(root)) await search(root);
  }
  for (const given of paths.length > 0 ? paths : sources ? [] : [options.defaultDir]) {
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
      const within = sources ? searchedWithin(absolute, sources) : [absolute];
      const before = found.size;
      for (const dir of within) await search(dir);
      // A folder with no definition of the project in it, and that is not one of its folders (an empty one is
      // just empty): named, like a file outside them (`services/a/k8s` beside `services/*\/workflows`).
      if (sources && found.size === before && !holdsDefinitions(absolute, sources)) {
        outside.push({ path: given, why: sources.excludes(absolute) ? 'excluded' : 'outside' });
      }
    } else if (stats.isFile()) {
      const why = sources?.classify(absolute) ?? 'definition';
      if (why === 'definition') found.add(display(absolute));
      else outside.push({ path: given, why });
    } else throw new UsageError(`not a file or directory: ${given}`);
  }
  unreadable.sort((a, b) => compareText(a.path, b.path));
  refused.sort((a, b) => compareText(a.path, b.path));
  return { files: [...found].sort(compareText), unreadable, directories, refused, outside };
}

/**
 * The folders to search for a given folder: itself when it lies under a root, the roots under it when it holds
 * some (`wfsync validate services` with `services/*\/workflows`), none when it is outside every root or excluded.
 */
function searchedWithin(dir: string, sources: DefinitionSources): string[] {
  if (sources.excludes(dir)) return [];
  if (sources.roots.some((root) => isWithin(dir, root))) return [dir];
  return sources.roots.filter((root) => isWithin(root, dir));
}

/** Whether a definition file placed right in `dir` would be one of the project's (it is a listed folder). */
function holdsDefinitions(dir: string, sources: DefinitionSources): boolean {
  return sources.classify(path.join(dir, 'definition.yaml')) === 'definition';
}

/** `inner` is `outer` or below it (absolute paths). */
export function isWithin(inner: string, outer: string): boolean {
  const relative = path.relative(outer, inner);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
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
  sources: DefinitionSources | undefined;
}

async function walk(root: string, sink: WalkSink): Promise<void> {
  // Each directory with its display path: an entry's paths are its directory's plus its name (a name holds no
  // separator), which saves a path.join and a path.relative per file (~30 ms per 10,000). Except for a directory
  // above the working directory's: from `..`, the entry `project` may be the working directory itself (`.`). A file
  // never is, so files always take the short way.
  const pending: Array<{ dir: string; shown: string }> = [{ dir: root, shown: sink.display(root) }];
  // Asked only when the project's folders are not plain ones (globs, `exclude`, the config file among them).
  const sources = sink.sources?.plain === false ? sink.sources : undefined;
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
        if (entry.name !== 'node_modules' && !sources?.excludes(full))
          pending.push({ dir: full, shown: shownDir });
      } else if (entry.isFile()) {
        if (DEFINITION_FILE.test(entry.name) && (!sources || sources.classify(full) === 'definition'))
          sink.found.add(shownPrefix + entry.name);
      } else if (entry.isSymbolicLink()) {
        const shownLink = above ? sink.display(full) : shownPrefix + entry.name;
        // A link to a directory is not followed (and refused when it leads out); one to anything else is kept if
        // named like a definition, and a dangling one too, so that reading says what is wrong with it.
        if (await isDirectory(full)) {
          const leaves = sink.boundary.directoryOutside(full);
          if (leaves !== undefined)
            sink.refused.push(outsideDirectory(shownLink, leaves, 'its files are not read'));
        } else if (DEFINITION_FILE.test(entry.name) && (!sources || sources.classify(full) === 'definition'))
          sink.found.add(shownLink);
      } else if (DEFINITION_FILE.test(entry.name) && (!sources || sources.classify(full) === 'definition')) {
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
