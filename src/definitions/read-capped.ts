import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';

/**
 * A file read with care (definitions and the files they include): opened without blocking, checked to be a regular
 * file, its size checked on the open descriptor before any byte is read. Every failure is a value.
 */
export type RegularFileRead =
  | { bytes: Uint8Array }
  | { problem: 'directory' | 'not-regular' }
  | { tooLarge: number }
  | { error: NodeJS.ErrnoException };

export function readRegularFile(absolute: string, maxBytes: number): RegularFileRead {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO that merely looks like the file must not hang; fstat then rejects it.
    fd = openSync(absolute, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (error) {
    return { error: error as NodeJS.ErrnoException };
  }
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
