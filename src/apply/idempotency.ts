import { createHash } from 'node:crypto';
import { slugifyV1, slugifyV2 } from '../derive/slug.js';

const MAX_KEY_LENGTH = 255;

/**
 * The Idempotency-Key of one create: `wfsync:<target>:<identifier>:<first 16 hex of the body hash>`. Derived, never
 * random, so a create retried by a later run (after a crash, or after the journal was reconciled as "not created")
 * is a replay the service can recognise, while a changed body gets a new key (the service would 422 a reused one).
 */
export function buildIdempotencyKey(target: string, identifier: string, hash: string): string {
  const digest = hash.replace(/^sha256:/, '').slice(0, 16);
  const key = `wfsync:${headerSafe(target)}:${headerSafe(identifier)}:${digest}`;
  if (key.length <= MAX_KEY_LENGTH) return key;
  // Very long target names or identifiers: keep the key unique and within the header limit.
  const short = createHash('sha256').update(`${target}\0${identifier}`).digest('hex').slice(0, 32);
  return `wfsync:${short}:${digest}`;
}

/**
 * Every identifier the service may give a workflow named `name`: the declared one first, then what each server
 * generation derives. A lost create is looked up under all of them, so it is never mistaken for "not created".
 */
export function lookupIdentifiersFor(identifier: string, name: string): string[] {
  return [...new Set([identifier, slugifyV1(name), slugifyV2(name)])].filter((id) => id !== '');
}

/** The header carries printable ASCII only: anything else is percent-encoded (as UTF-8, never throwing). */
function headerSafe(text: string): string {
  return text.replace(/[^\x21-\x7e]|%/gu, (c) =>
    Array.from(Buffer.from(c, 'utf8'), (byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join(
      '',
    ),
  );
}
