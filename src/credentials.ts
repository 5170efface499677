/**
 * Credential-looking text, found by its shape rather than by the key it sits under: what a code frame or a message
 * quoting a project file must never show, wherever in the file a key was pasted by mistake. Pure.
 *
 * - an `Authorization` scheme and its token: `ApiKey <key>` (the service's scheme, service-contract.md) and
 *   `Bearer <token>`;
 * - the service's key shape: 32 or more hex digits in a row (its keys are 32 hex digits; the emulator's
 *   `wfs_local_<32 hex>` too). The service's 24-hex ids are not secrets and stay visible;
 * - a long random token: a run of the base64/base64url/JWT alphabet with 20 or more letters and digits (separators,
 *   the service's ids and UUIDs aside) that switches between upper case, lower case and digits as random text does
 *   (names and paths made of words do not), with some entropy.
 */

const MASK = '*';
/** A scheme word and its token (the token ends at white space or what quotes or delimits a value in YAML/JSON). */
const SCHEME_TOKEN = /\b(ApiKey|Bearer)([ \t]+)([^\s"'`,;{}()[\]<>]+)/gi;
/** The service's key shape: a run of 32+ hex digits not inside a longer word of the token alphabet. */
const SERVICE_KEY = /(?<![0-9A-Fa-f])[0-9A-Fa-f]{32,}(?![0-9A-Fa-f])/g;
/** Runs of the token alphabet (base64, base64url, JWT dots) long enough to be a key. */
const TOKEN_RUN = /[A-Za-z0-9+/=_.~-]{20,}/g;
const PATH_SEGMENT = /[^/]{20,}/g;
/** The service's ids (24 hex) and UUIDs (step uuids): identifiers, not credentials, wherever they sit in a run. */
const IDENTIFIERS =
  /(?<![0-9A-Fa-f])(?:[0-9a-f]{24}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?![0-9A-Fa-f])/gi;
/** What separates words in names and paths, and pads base64: not counted when a run is measured. */
const SEPARATORS = /[+/=_.~-]/g;
const MIN_TOKEN_CHARACTERS = 20;
/**
 * How often a random key switches between upper case, lower case and digits from one character to the next: about
 * 0.6 for base64, 0.5 for hex; names made of words (`OrderShipped2024`, `weekly-digest-v2`, paths) switch at word
 * boundaries only, under 0.25.
 */
const MIN_CLASS_SWITCHES = 0.4;
const MIN_ENTROPY_BITS = 3;

/** `text` with every credential-looking value replaced by `*`, one per UTF-16 unit, so columns stay where they were. */
export function maskCredentials(text: string): string {
  if (text.length < 20 && !/apikey|bearer/i.test(text)) return text;
  return text
    .replace(
      SCHEME_TOKEN,
      (_all, scheme: string, space: string, token: string) => scheme + space + stars(token),
    )
    .replace(SERVICE_KEY, stars)
    .replace(TOKEN_RUN, (run) =>
      // A URL's path holds words and a token (`…/hooks/sk_live_…`): its segments are looked at one by one too.
      looksLikeToken(run)
        ? stars(run)
        : run.replace(PATH_SEGMENT, (segment) => (looksLikeToken(segment) ? stars(segment) : segment)),
    );
}

/** The token alphabet of TOKEN_RUN (ASCII only), as a look-up table. */
const TOKEN_CHAR = new Uint8Array(0x80);
for (const c of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_.~-')
  TOKEN_CHAR[c.charCodeAt(0)] = 1;

/**
 * Whether `text` holds anything maskCredentials would hide. Every value it hides has a scheme word or a run of
 * MIN_TOKEN_CHARACTERS token characters in it (a 32-hex key is such a run too): most strings have neither, and one
 * scan of their characters answers for them instead of three replace passes (a test holds the two answers equal).
 */
export function holdsCredential(text: string): boolean {
  return mayHoldCredential(text) && maskCredentials(text) !== text;
}

/**
 * A run of MIN_TOKEN_CHARACTERS characters of the token alphabet, or `apikey`/`bearer` in any case (as
 * `/apikey|bearer/i` finds them: only ASCII letters fold to these): one pass, no regular expression.
 */
function mayHoldCredential(text: string): boolean {
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80 || TOKEN_CHAR[c] !== 1) {
      run = 0;
      continue;
    }
    if (++run === MIN_TOKEN_CHARACTERS) return true;
    const lower = c | 0x20;
    if (
      (lower === 0x61 && startsWithWord(text, i, 'apikey')) ||
      (lower === 0x62 && startsWithWord(text, i, 'bearer'))
    )
      return true;
  }
  return false;
}

/** Whether `word` (lower-case ASCII letters) is at `at` in `text`, in any case. */
function startsWithWord(text: string, at: number, word: string): boolean {
  if (at + word.length > text.length) return false;
  for (let k = 1; k < word.length; k++)
    if ((text.charCodeAt(at + k) | 0x20) !== word.charCodeAt(k)) return false;
  return true;
}

function stars(text: string): string {
  return MASK.repeat(text.length);
}

function looksLikeToken(run: string): boolean {
  const core = run.replace(IDENTIFIERS, '').replace(SEPARATORS, '');
  if (core.length < MIN_TOKEN_CHARACTERS || !/[0-9]/.test(core) || !/[A-Za-z]/.test(core)) return false;
  return classSwitches(core) >= MIN_CLASS_SWITCHES && entropyBits(core) >= MIN_ENTROPY_BITS;
}

/** The share of neighbouring characters of different classes (upper case, lower case, digit). */
function classSwitches(text: string): number {
  const classOf = (ch: string) => (ch >= '0' && ch <= '9' ? 0 : ch >= 'a' && ch <= 'z' ? 1 : 2);
  let switches = 0;
  for (let i = 1; i < text.length; i++) if (classOf(text[i - 1]!) !== classOf(text[i]!)) switches++;
  return switches / (text.length - 1);
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
