/** The content hash of the validate cache. */
import { hash } from 'node:crypto';

/**
 * sha256 of bytes (or of a string's UTF-8), base64. One-shot `crypto.hash` (SHA-NI): about 1 µs per benchmark
 * definition (~1 KB), measured as fast as sha1 and faster than md5, so a weaker hash would save nothing.
 */
export function hashContent(data: Uint8Array | string): string {
  return hash('sha256', data, 'base64');
}
