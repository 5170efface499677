/**
 * The one boundary between wfsync and the project's file system. A repository may come from someone else's branch:
 * its files are untrusted, and so are the symbolic links among them. The boundary has one notion of where the project
 * is (findProjectRoot), and two rules:
 *
 * - reading (openForRead): a file opened must resolve, every link followed, inside its project root, and the
 *   caller checks on the open descriptor that it is a regular file; a path leading out is refused before it is opened;
 * - writing (prepareWrite): no link at any component below the root, the file itself included; missing folders are
 *   created one by one, without following links. The writer (state/atomic-write.ts) then creates a temp file with
 *   O_CREAT|O_EXCL|O_NOFOLLOW beside the file and renames it into place.
 *
 * Which root a path belongs to: the working directory's project (the nearest directory at or above it holding
 * wfsync.config.yaml, else .git, else the working directory itself) for every path within it; a path the user names
 * outside it (`--state`, `--cache-location`, a definition elsewhere) has the project found the same way from its own
 * directory.
 */
import { constants, existsSync, lstatSync, mkdirSync, openSync, realpathSync, type Stats } from 'node:fs';
import path from 'node:path';
import { WfsyncError } from './errors.js';

/** The names the project's config file may have: one marks the project root. */
export const CONFIG_FILE_NAMES = ['wfsync.config.yaml', 'wfsync.config.yml'] as const;

/** A project root: what made it one (for messages), where it is, and where it really is (links resolved). */
export interface ProjectRoot {
  dir: string;
  real: string;
  kind: 'config' | 'git' | 'start';
}

const ROOT_NAMES: Record<ProjectRoot['kind'], string> = {
  config: 'the project (the directory of wfsync.config.yaml)',
  git: 'the git repository',
  start: 'the working directory (no wfsync.config.yaml or .git above it)',
};

/** `the project (the directory of wfsync.config.yaml)`: how messages name a root. */
export function describeRoot(root: ProjectRoot): string {
  return ROOT_NAMES[root.kind];
}

/**
 * The nearest directory at or above `start` that holds wfsync.config.yaml (or .yml) or .git, the config winning at
 * one level; else `start` itself.
 */
export function findProjectRoot(start: string): ProjectRoot {
  const from = path.resolve(start);
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (CONFIG_FILE_NAMES.some((name) => existsSync(path.join(dir, name)))) return rootAt(dir, 'config');
    if (existsSync(path.join(dir, '.git'))) return rootAt(dir, 'git');
    if (path.dirname(dir) === dir) return rootAt(from, 'start');
  }
}

function rootAt(dir: string, kind: ProjectRoot['kind']): ProjectRoot {
  let real = dir;
  try {
    real = realpathSync.native(dir);
  } catch {
    // Not there (yet): nothing under it can resolve anywhere either.
  }
  return { dir, real, kind };
}

/** `file` is strictly below `dir` (both absolute and normalized). */
export function isInside(dir: string, file: string): boolean {
  const prefix = dir.endsWith(path.sep) ? dir : dir + path.sep;
  return file.length > prefix.length && file.startsWith(prefix);
}

/** `file` is `dir` or below it. */
export function isWithin(dir: string, file: string): boolean {
  return file === dir || isInside(dir, file);
}

export type OpenRead = { fd: number } | { outside: ProjectRoot } | { error: NodeJS.ErrnoException };

/** The boundary of one run (or one command step): roots and directories looked up once each. */
export interface FsBoundary {
  readonly cwd: string;
  /** The project root `absolute` (normalized) belongs to. */
  rootFor(absolute: string): ProjectRoot;
  /**
   * Opens a file to read (non-blocking, so a FIFO never hangs), or says why not: a path whose directory or whose
   * link leads outside its root is refused unopened. The caller fstat()s the descriptor (regular file, size) and
   * closes it.
   */
  openForRead(absolute: string): OpenRead;
  /**
   * The root a directory leads out of, through a symbolic link at it or above it; undefined when it stays inside
   * (or cannot be resolved: listing it will say why).
   */
  directoryOutside(dir: string): ProjectRoot | undefined;
}

const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
/** Absent on Windows: there every path takes the resolving way. */
const NO_FOLLOW = constants.O_NOFOLLOW;

export function createFsBoundary(cwd: string): FsBoundary {
  const home = findProjectRoot(cwd);
  const roots = new Map<string, ProjectRoot>();
  /** Each directory once: its root, and whether it resolves inside it. */
  const dirs = new Map<
    string,
    { root: ProjectRoot; real: string; inside: boolean } | { error: NodeJS.ErrnoException }
  >();
  const rootOfDir = (dir: string): ProjectRoot => {
    if (isWithin(home.dir, dir)) return home;
    let root = roots.get(dir);
    if (root === undefined) {
      root = findProjectRoot(dir);
      roots.set(dir, root);
    }
    return root;
  };
  // A file's directory, resolved once: most runs read thousands of files from a handful of directories, so a file
  // whose last component is no link (O_NOFOLLOW proves it) costs no extra system call.
  const dirOf = (dir: string) => {
    let known = dirs.get(dir);
    if (known === undefined) {
      try {
        const root = rootOfDir(dir);
        const real = realpathSync.native(dir);
        known = { root, real, inside: isWithin(root.real, real) };
      } catch (error) {
        known = { error: error as NodeJS.ErrnoException };
      }
      dirs.set(dir, known);
    }
    return known;
  };
  return {
    cwd,
    rootFor: (absolute) => rootOfDir(path.dirname(absolute)),
    directoryOutside(dir) {
      const known = dirOf(dir);
      return 'error' in known || known.inside ? undefined : known.root;
    },
    openForRead(absolute) {
      const dir = dirOf(path.dirname(absolute));
      if ('error' in dir) return dir;
      if (!dir.inside) return { outside: dir.root };
      if (NO_FOLLOW !== undefined) {
        try {
          return { fd: openSync(absolute, READ_FLAGS | NO_FOLLOW) };
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          // ELOOP (EMLINK on FreeBSD): the last component is a link, resolved below.
          if (code !== 'ELOOP' && code !== 'EMLINK') return { error: error as NodeJS.ErrnoException };
        }
      }
      let real: string;
      try {
        real = realpathSync.native(absolute);
      } catch (error) {
        return { error: error as NodeJS.ErrnoException };
      }
      if (!isInside(dir.root.real, real)) return { outside: dir.root };
      try {
        // The resolved path holds no link: one appearing there now is refused rather than followed.
        return { fd: openSync(real, READ_FLAGS | (NO_FOLLOW ?? 0)) };
      } catch (error) {
        return { error: error as NodeJS.ErrnoException };
      }
    },
  };
}

/** The boundary of the working directory, for callers not given one: a fresh one, nothing remembered. */
export function workingBoundary(): FsBoundary {
  return createFsBoundary(process.cwd());
}

/** A path the boundary refuses to write (or read) through: exit 1, naming the path as shown. */
export class BoundaryError extends WfsyncError {
  constructor(message: string) {
    super(message);
    this.name = 'BoundaryError';
  }
}

/**
 * Makes `file` safe to replace or create: every component from its root down to it that exists is a real
 * directory (not a link), missing directories are created one at a time (mkdir never follows a link at its last
 * component: one planted meanwhile gives EEXIST, then lstat sees it), and `file`, if it exists, is no link.
 * Throws a BoundaryError naming the offending path (relative to the working directory), or the OS error.
 */
export function prepareWrite(file: string, boundary: FsBoundary = workingBoundary()): void {
  const absolute = path.resolve(boundary.cwd, file);
  const root = boundary.rootFor(absolute);
  const shown = (at: string) => shownPath(boundary.cwd, at);
  if (!existsSync(root.dir)) mkdirSync(root.dir, { recursive: true });
  let at = root.dir;
  const below = path.relative(root.dir, path.dirname(absolute));
  for (const part of below === '' ? [] : below.split(path.sep)) {
    at = path.join(at, part);
    let stats = lstatOrUndefined(at);
    if (stats === undefined) {
      try {
        mkdirSync(at);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      stats = lstatSync(at);
    }
    if (stats.isSymbolicLink()) throw linkRefused(shown(at), 'a folder on the way to it');
    if (!stats.isDirectory()) {
      throw Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${at}'`), { code: 'ENOTDIR' });
    }
  }
  assertNotLink(absolute, boundary);
}

/**
 * Throws a BoundaryError when a component from the root down to `file` (itself included) exists as a symbolic link:
 * for a command that checks every file it will write before writing the first (`init`). Creates nothing.
 */
export function assertNoLinks(file: string, boundary: FsBoundary = workingBoundary()): void {
  const absolute = path.resolve(boundary.cwd, file);
  const root = boundary.rootFor(absolute);
  let at = root.dir;
  const below = path.relative(root.dir, absolute);
  const parts = below === '' ? [] : below.split(path.sep);
  for (const [i, part] of parts.entries()) {
    at = path.join(at, part);
    const stats = lstatOrUndefined(at);
    if (stats === undefined) return;
    const last = i === parts.length - 1;
    if (stats.isSymbolicLink()) {
      throw linkRefused(shownPath(boundary.cwd, at), last ? 'the file itself' : 'a folder on the way to it');
    }
  }
}

/** Throws a BoundaryError when `file` exists as a symbolic link (called again just before a rename). */
export function assertNotLink(file: string, boundary: FsBoundary = workingBoundary()): void {
  const absolute = path.resolve(boundary.cwd, file);
  if (lstatOrUndefined(absolute)?.isSymbolicLink()) {
    throw linkRefused(shownPath(boundary.cwd, absolute), 'the file itself');
  }
}

function linkRefused(shown: string, what: string): BoundaryError {
  return new BoundaryError(
    `refusing to write through ${shown}: it is a symbolic link (${what}), and wfsync never writes through one, ` +
      'so that a repository cannot make it change files elsewhere; replace the link with a regular file or folder',
  );
}

/** undefined when nothing is there (ENOTDIR: a parent is a file, which writing there will report). */
function lstatOrUndefined(at: string): Stats | undefined {
  try {
    return lstatSync(at);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** How an error message names a path: relative to cwd (`/` separators) when inside it, else absolute. */
export function shownPath(cwd: string, absolute: string): string {
  return isInside(cwd, absolute) ? toDisplayPath(cwd, absolute) : absolute;
}

/** Relative to cwd with `/` separators, as every report shows a path. */
export function toDisplayPath(cwd: string, absolute: string): string {
  const relative = path.relative(cwd, absolute);
  return (relative === '' ? '.' : relative).split(path.sep).join('/');
}
