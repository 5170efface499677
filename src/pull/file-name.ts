/**
 * The one way a service's trigger identifier becomes a file name (`pull` writes `<identifier>.yaml`): only an
 * identifier that is its own slug on both server generations (derive/slug.ts: lower-case letters and digits joined by
 * single hyphens) and short enough for every file system. Anything else (`../../x`, `a/b`, an absolute path, `.`,
 * `..`, an empty string, a NUL, upper case, spaces) came from somewhere other than the service's own derivation and
 * is refused, so service data never chooses a path. Pure.
 */
import { slugifyV1, slugifyV2 } from '../derive/slug.js';

/** Longest identifier pulled to a file: `<identifier>.yaml` and its split-content files stay under 255 bytes. */
export const MAX_IDENTIFIER_FILE_LENGTH = 128;

/** Nothing but these, whatever the slug libraries answer: no separator, dot or NUL can ever pass. */
const SLUG_CHARACTERS = /^[a-z0-9-]+$/;

/** Why `identifier` cannot name a file, or undefined when `<identifier>.yaml` is safe. */
export function identifierFileProblem(identifier: unknown): string | undefined {
  if (typeof identifier !== 'string') return 'it is not text';
  if (identifier === '') return 'it is empty';
  if (identifier.length > MAX_IDENTIFIER_FILE_LENGTH) {
    return `it is longer than ${MAX_IDENTIFIER_FILE_LENGTH} characters`;
  }
  if (
    !SLUG_CHARACTERS.test(identifier) ||
    slugifyV2(identifier) !== identifier ||
    slugifyV1(identifier) !== identifier
  ) {
    return 'it is not an identifier the service derives (lower-case letters and digits joined by single hyphens)';
  }
  return undefined;
}

/** `"../../x"`, cut to 60 characters, control characters escaped: how a refused identifier is named. */
export function quoteIdentifier(identifier: unknown): string {
  if (typeof identifier !== 'string') return typeof identifier;
  const cut = identifier.length > 60 ? `${identifier.slice(0, 60)}…` : identifier;
  return JSON.stringify(cut);
}
