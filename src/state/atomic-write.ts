import { randomBytes } from 'node:crypto';
import * as fsp from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { messageOf, WfsyncError } from '../errors.js';

/** The file operations the writer needs; injectable so tests can fail any step (a full disk, a crash). */
export interface AtomicWriteFs {
  mkdir(path: string, options: { recursive: true }): Promise<unknown>;
  open(path: string, flags: string, mode?: number): Promise<AtomicWriteHandle>;
  rename(from: string, to: string): Promise<void>;
  rm(path: string, options: { force: true }): Promise<void>;
}

export interface AtomicWriteHandle {
  writeFile(data: string, encoding: 'utf8'): Promise<void>;
  sync(): Promise<void>;
  close(): Promise<void>;
}

export const nodeAtomicWriteFs: AtomicWriteFs = {
  mkdir: (path, options) => fsp.mkdir(path, options),
  open: (path, flags, mode) => fsp.open(path, flags, mode),
  rename: (from, to) => fsp.rename(from, to),
  rm: (path, options) => fsp.rm(path, options),
};

export interface AtomicWriteOptions {
  /** Permission bits of a new file (before the umask). Default 0o666, like any file an editor creates. */
  mode?: number;
  fs?: AtomicWriteFs;
}

/**
 * Replace `file` with `text` so that a reader (or the next run after a crash or a full disk) sees either the old
 * content or the new, never a mix: write a temp file in the same directory (a rename is only atomic within one
 * file system), fsync it, rename it over the file, then fsync the directory so the rename itself survives a power
 * loss. On failure the temp file is removed and the OS error is rethrown as is (callers word it for the user);
 * the old file is untouched because nothing is renamed until the new content is on disk.
 */
export async function writeFileAtomically(
  file: string,
  text: string,
  options: AtomicWriteOptions = {},
): Promise<void> {
  const fs = options.fs ?? nodeAtomicWriteFs;
  await fs.mkdir(dirname(file), { recursive: true });
  const temp = tempFileFor(file);
  try {
    const handle = await fs.open(temp, 'wx', options.mode ?? 0o666);
    try {
      await handle.writeFile(text, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true }).catch(() => undefined);
    throw error;
  }
  await syncDirectory(fs, dirname(file));
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
  return `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
}

/** A write takes milliseconds: a temp file nobody touched for this long was left by a writer that died. */
export const STRAY_TEMP_AGE_MS = 10 * 60_000;

/**
 * Remove temp files of `file` left behind by a crashed writer. Readers never look at them, so leaving them is
 * harmless; removing one a live writer is still using is not (its rename would fail), hence the age threshold
 * rather than "any temp file". Best effort: returns the names removed.
 */
export async function removeStrayTempFiles(
  file: string,
  options: { olderThanMs?: number; now?: number } = {},
): Promise<string[]> {
  const dir = dirname(file);
  const pattern = new RegExp(`^${escapeRegExp(basename(file))}\\.\\d+\\.[0-9a-f]{8}\\.tmp$`);
  const cutoff = (options.now ?? Date.now()) - (options.olderThanMs ?? STRAY_TEMP_AGE_MS);
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const name of names.filter((n) => pattern.test(n))) {
    const path = join(dir, name);
    try {
      if ((await fsp.stat(path)).mtimeMs > cutoff) continue;
      await fsp.rm(path, { force: true });
      removed.push(name);
    } catch {
      // Gone already, or not ours to remove: either way nothing to do.
    }
  }
  return removed;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
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
