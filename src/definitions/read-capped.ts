import { closeSync, fstatSync, readSync } from 'node:fs';
import { BoundaryError, describeRoot, type FsBoundary, type ProjectRoot, shownPath } from '../fs-boundary.js';
import { formatBytes } from './limits.js';

/**
 * A file of the project read with care (definitions, the files they include, the config, state and cache files):
 * opened through the boundary (fs-boundary.ts: a path or link leading outside the project is refused unopened),
 * checked on the open descriptor to be a regular file, its size checked before any byte is read. Every failure is a
 * value.
 */
export type RegularFileRead =
  | { bytes: Uint8Array }
  | { problem: 'directory' | 'not-regular' }
  | { outside: ProjectRoot }
  | { tooLarge: number }
  | { error: NodeJS.ErrnoException };

export function readRegularFile(absolute: string, maxBytes: number, boundary: FsBoundary): RegularFileRead {
  const opened = boundary.openForRead(absolute);
  if (!('fd' in opened)) return opened;
  const { fd } = opened;
  try {
    const stats = fstatSync(fd);
    if (stats.isDirectory()) return { problem: 'directory' };
    if (!stats.isFile()) return { problem: 'not-regular' };
    if (stats.size > maxBytes) return { tooLarge: stats.size };
    return { bytes: readCapped(fd, maxBytes, stats.size) };
  } catch (error) {
    return { error: error as NodeJS.ErrnoException };
  } finally {
    closeSync(fd);
  }
}

/**
 * A project file's text (UTF-8, invalid bytes replaced), read through the boundary like readRegularFile; for the
 * files wfsync keeps itself (state, lock and cache files). Throws the OS error (ENOENT when absent, as a caller
 * tells "missing" apart), or a BoundaryError when the path leads outside the project or is not a regular file.
 */
export function readProjectText(absolute: string, maxBytes: number, boundary: FsBoundary): string {
  const read = readRegularFile(absolute, maxBytes, boundary);
  if ('bytes' in read) return new TextDecoder().decode(read.bytes);
  if ('error' in read) throw read.error;
  if ('problem' in read && read.problem === 'directory') {
    throw Object.assign(new Error('EISDIR: illegal operation on a directory, read'), { code: 'EISDIR' });
  }
  const shown = shownPath(boundary.cwd, absolute);
  if ('outside' in read) {
    throw new BoundaryError(
      `${shown} leads outside ${describeRoot(read.outside)} through a symbolic link; it was not read`,
    );
  }
  if ('tooLarge' in read)
    throw new BoundaryError(`${shown} is ${formatBytes(read.tooLarge)}, too large to read`);
  throw new BoundaryError(`${shown} is not a regular file; it was not read`);
}

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EISDIR: 'it is a directory',
  ENOENT: 'no such file or directory',
  ENOTDIR: 'a parent is not a directory',
  ELOOP: 'too many levels of symbolic links',
  EMFILE: 'too many open files',
  EIO: 'input/output error',
};

/** Why a file system call failed, for a message: `permission denied (EACCES)`. */
export function fsErrorReason(error: { code?: string; message?: string }): string {
  const reason = (error.code && REASONS[error.code]) ?? error.message ?? 'unknown error';
  return `${reason}${error.code ? ` (${error.code})` : ''}`;
}

/**
 * Reads an open regular file (the callers check with fstat) to its end, never more than one byte past `maxBytes`
 * (enough for the caller to report "too large"). `expected` (fstat's size) is only a first guess for the buffer:
 * the file may grow or shrink meanwhile.
 */
export function readCapped(fd: number, maxBytes: number, expected = 64 * 1024): Uint8Array {
  let buffer = new Uint8Array(Math.min(expected, maxBytes) + 1);
  let length = 0;
  for (;;) {
    if (length === buffer.length) {
      if (length > maxBytes) break;
      const bigger = new Uint8Array(Math.min(buffer.length * 2, maxBytes + 1));
      bigger.set(buffer);
      buffer = bigger;
    }
    const wanted = buffer.length - length;
    const read = readSync(fd, buffer, length, wanted, null);
    if (read === 0) break;
    length += read;
    // Less than asked for, with fstat's size reached: the end. On a regular file read(2) returns short only there
    // (or when a signal interrupts it, hence the size check), which saves a last read that would return 0.
    if (read < wanted && length >= expected) break;
  }
  return buffer.subarray(0, length);
}
