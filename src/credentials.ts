/**
 * Credential-looking text, found by its shape rather than by the key it sits under: what a code frame or a message
 * quoting a project file must never show, wherever in the file a key was pasted by mistake. Pure.
 *
 * - an `Authorization` scheme and its token: `ApiKey <key>` (the service's scheme, service-contract.md) and
 *   `Bearer <token>`;
 * - the service's key shape: 32 or more hex digits in a row (its keys are 32 hex digits; the emulator's
 *   `wfs_local_<32 hex>` too). The service's 24-hex ids are not secrets and stay visible;
 * - a long high-entropy token: 20 or more characters of the base64/base64url/JWT alphabet holding both letters and
 *   digits, with at least 3.3 bits of entropy per character (a random key has over 4; words and kebab-case names
 *   have no digits or far less entropy).
 */

const MASK = '*';
/** A scheme word and its token (the token ends at white space or what quotes or delimits a value in YAML/JSON). */
const SCHEME_TOKEN = /\b(ApiKey|Bearer)([ \t]+)([^\s"'`,;{}()[\]<>]+)/gi;
/** The service's key shape: a run of 32+ hex digits not inside a longer word of the token alphabet. */
const SERVICE_KEY = /(?<![0-9A-Fa-f])[0-9A-Fa-f]{32,}(?![0-9A-Fa-f])/g;
/** Runs of the token alphabet (base64, base64url, JWT dots) long enough to be a key. */
const TOKEN_RUN = /[A-Za-z0-9+/=_.~-]{20,}/g;
/** The service's ids (24 lowercase hex): identifiers, not credentials. */
const SERVICE_ID = /^[0-9a-f]{24}$/;
const MIN_ENTROPY_BITS = 3.3;

/** `text` with every credential-looking value replaced by `*`, one per UTF-16 unit, so columns stay where they were. */
export function maskCredentials(text: string): string {
  if (text.length < 20 && !/apikey|bearer/i.test(text)) return text;
  return text
    .replace(
      SCHEME_TOKEN,
      (_all, scheme: string, space: string, token: string) => scheme + space + stars(token),
    )
    .replace(SERVICE_KEY, stars)
    .replace(TOKEN_RUN, (run) => (looksLikeToken(run) ? stars(run) : run));
}

/** Whether `text` holds anything maskCredentials would hide. */
export function holdsCredential(text: string): boolean {
  return maskCredentials(text) !== text;
}

function stars(text: string): string {
  return MASK.repeat(text.length);
}

function looksLikeToken(run: string): boolean {
  if (SERVICE_ID.test(run)) return false;
  if (!/[0-9]/.test(run) || !/[A-Za-z]/.test(run)) return false;
  return entropyBits(run) >= MIN_ENTROPY_BITS;
}

/** Shannon entropy per character. */
function entropyBits(text: string): number {
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}
