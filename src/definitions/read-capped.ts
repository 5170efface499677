import { readSync } from 'node:fs';

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
