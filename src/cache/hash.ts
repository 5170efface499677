/** Content hashes: the validate cache's, and the hash of a create body that state records. */
import { onFirstUse } from '../derive/first-use.js';
import { canonicalJson } from '../json.js';

/**
 * node:crypto, loaded the first time something is hashed: milliseconds of every start-up otherwise, and a plain
 * `validate` (no --cache) hashes nothing.
 */
const crypto = onFirstUse<typeof import('node:crypto')>('node:crypto');

/**
 * sha256 of bytes (or of a string's UTF-8), base64. One-shot `crypto.hash` (SHA-NI): about 1 µs per benchmark
 * definition (~1 KB), measured as fast as sha1 and faster than md5, so a weaker hash would save nothing.
 */
export function hashContent(data: Uint8Array | string): string {
  return crypto().hash('sha256', data, 'base64');
}

/**
 * `sha256:<hex>` of the canonical JSON of a create body: what state records and plans compare. canonicalJson
 * recurses: bodies are built from definitions within MAX_DEFINITION_DEPTH (the emulator's, from request bodies
 * parseJson read).
 */
export function hashBody(body: unknown): string {
  return `sha256:${crypto().hash('sha256', canonicalJson(body), 'hex')}`;
}
