import { constants } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { onFirstUse } from '../derive/first-use.js';
import { messageOf, WfsyncError } from '../errors.js';
import { assertNotLink, type FsBoundary, prepareWrite, workingBoundary } from '../fs-boundary.js';

/** node:crypto, loaded on the first write: the runs that write nothing (a plain `validate`) never pay for it. */
const crypto = onFirstUse<typeof import('node:crypto')>('node:crypto');
/** node:fs/promises, loaded on the first write or listing: on Node 24 it brings readline and streams with it. */
const fsp = onFirstUse<typeof import('node:fs/promises')>('node:fs/promises');

/** The file operations the writer needs; injectable so tests can fail any step (a full disk, a crash). */
export interface AtomicWriteFs {
  open(path: string, flags: string | number, mode?: number): Promise<AtomicWriteHandle>;
  rename(from: string, to: string): Promise<void>;
  /** A second name for a file, failing with EEXIST when `to` exists (never following a link there). */
  link?(from: string, to: string): Promise<void>;
  rm(path: string, options: { force: true }): Promise<void>;
}

export interface AtomicWriteHandle {
  writeFile(data: string, encoding: 'utf8'): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

export const nodeAtomicWriteFs: AtomicWriteFs = {
  open: (path, flags, mode) => fsp().open(path, flags, mode),
  rename: (from, to) => fsp().rename(from, to),
  link: (from, to) => fsp().link(from, to),
  rm: (path, options) => fsp().rm(path, options),
};

export interface AtomicWriteOptions {
  /** Permission bits of a new file (before the umask). Default 0o666, like any file an editor creates. */
  mode?: number;
  fs?: AtomicWriteFs;
  /** What the file's folders are checked against (fs-boundary.ts); default: the working directory's. */
  boundary?: FsBoundary;
  /** fsync the file, and the directory after the rename (default). A cache, cheap to lose, skips both. */
  durable?: boolean;
  /** Fail with EEXIST rather than replace a file that exists by then (a new file of `init`, `new`, `pull`). */
  exclusive?: boolean;
}

/** The temp file: created, never opened through a link, never an existing file. */
const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/**
 * Replace (or create) `file` with `text` so that a reader (or the next run after a crash or a full disk) sees
 * either the old content or the new, never a mix, and so that nothing outside the project changes through a
 * symbolic link: the folders from the project root down are checked to be no links and created without following
 * any (prepareWrite), a temp file is created beside the file (O_CREAT|O_EXCL|O_NOFOLLOW: a rename is only atomic
 * within one file system), written and fsynced, then renamed over the file (a rename replaces a link, never
 * follows it; the file is checked again to be no link just before), and the directory fsynced so the rename itself
 * survives a power loss. A link on the way is a BoundaryError naming it (exit 1), before anything is written. On
 * failure the temp file is removed and the OS error is rethrown as is (callers word it for the user); the old file
 * is untouched because nothing is renamed until the new content is on disk.
 */
export async function writeFileAtomically(
  file: string,
  text: string,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const fs = options.fs ?? nodeAtomicWriteFs;
  const boundary = options.boundary ?? workingBoundary();
  const durable = options.durable ?? true;
  prepareWrite(file, boundary);
  const temp = tempFileFor(file);
  try {
    const handle = await fs.open(temp, TEMP_FLAGS, options.mode ?? 0o666);
    try {
      await handle.writeFile(text, 'utf8');
      if (durable) await handle.sync();
    } finally {
      await handle.close();
    }
    assertNotLink(file, boundary);
    if (options.exclusive) await putNew(fs, temp, file);
    else await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  if (durable) await syncDirectory(fs, dirname(file));
}

/**
 * The temp file under the name `file`, failing with EEXIST if that exists: link(2) never replaces (nor follows)
 * what is there. Where a file system has no hard links, a check then a rename: a file appearing in between is lost.
 */
async function putNew(fs: AtomicWriteFs, temp: string, file: string): Promise<void> {
  try {
    await (fs.link ?? fsp().link)(temp, file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
    const there = await fsp()
      .lstat(file)
      .then(
        () => true,
        () => false,
      );
    if (there)
      throw Object.assign(new Error(`EEXIST: file already exists, link '${file}'`), { code: 'EEXIST' });
    await fs.rename(temp, file);
    return;
  }
  await fs.rm(temp, { force: true });
}

/** Best effort: not every platform lets a directory be opened (Windows), and the rename is atomic regardless. */
async function syncDirectory(fs: AtomicWriteFs, dir: string): Promise<void> {
  try {
    const handle = await fs.open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // Durability of the rename is then up to the OS; atomicity is not affected.
  }
}

/** `<file>.<pid>.<8 hex>.tmp`: unique per writer, and recognisable so that strays can be cleaned. */
function tempFileFor(file: string): string {
  return `${file}.${process.pid}.${crypto().randomBytes(4).toString('hex')}.tmp`;
}

/** A write takes milliseconds: a temp file nobody touched for this long was left by a writer that died. */
export const STRAY_TEMP_AGE_MS = 10 * 60_000;

/**
 * Remove temp files of `file` left behind by a crashed writer. Readers never look at them, so leaving them is
 * harmless; removing one a live writer is still using is not (its rename would fail), hence the age threshold
 * rather than "any temp file". Best effort: returns the names removed.
 */
export async function removeStrayTempFiles(file: string): Promise<string[]> {
  const dir = dirname(file);
  const prefix = `${basename(file)}.`;
  const isTemp = (name: string) =>
    name.startsWith(prefix) && /^\d+\.[0-9a-f]{8}\.tmp$/.test(name.slice(prefix.length));
  const cutoff = Date.now() - STRAY_TEMP_AGE_MS;
  let names: string[];
  try {
    names = await fsp().readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names.filter(isTemp)) {
    const path = join(dir, name);
    try {
      if ((await fsp().stat(path)).mtimeMs > cutoff) continue;
      await fsp().rm(path, { force: true });
      removed.push(name);
    } catch {
      // Gone already, or not ours to remove: either way nothing to do.
    }
  }
  return removed;
}

const FRIENDLY: Record<string, string> = {
  ENOSPC: 'disk full',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'is a directory',
  ENOTDIR: 'a parent is not a directory',
  EMFILE: 'too many open files',
  EIO: 'input/output error',
};

/** An OS error in words a user acts on: `disk full (ENOSPC: no space left on device, write)`. */
export function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const message = messageOf(error);
  const friendly = code === undefined ? undefined : FRIENDLY[code];
  return friendly === undefined ? message : `${friendly} (${message})`;
}

/** `cannot <what>: <the OS error in words>`, as the error a user sees. */
export function fsFailure(what: string, error: unknown): WfsyncError {
  return new WfsyncError(`cannot ${what}: ${describeFsError(error)}`, { cause: error });
}
