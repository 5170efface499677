/**
 * ASCII fast paths for the two slug generations (see slug.ts): one charCode loop, no regex. Each answers only for a
 * name made of ASCII characters, whose handling was read in the libraries' source (slugify 1.6.9;
 * @sindresorhus/slugify 3.0.1 over @sindresorhus/transliterate 2.3.1), and returns `undefined` for anything else so
 * the caller runs the library. A differential property test holds both to the libraries.
 */

const APOSTROPHE = 0x27;
const AMPERSAND = 0x26;
const CARET = 0x5e;
const BACKTICK = 0x60;
const LOWER_S = 0x73;
const LOWER_T = 0x74;

// Generation 1 (`slugify(name, {lower: true, strict: true})`). Its charMap turns six ASCII characters into words
// (`100%` → `100percent`, glued to their neighbours); `-` and `\s` separate; everything else (`_`, punctuation,
// control characters) is removed without separating (`a.b` → `ab`).
const KEEP = 1;
const SEPARATE = 2;
const WORD = 3;
const V1_KIND = new Uint8Array(128); // 0: removed
const V1_WORDS: string[] = [];
for (const [char, word] of Object.entries({
  $: 'dollar',
  '%': 'percent',
  '&': 'and',
  '<': 'less',
  '>': 'greater',
  '|': 'or',
})) {
  V1_KIND[char.charCodeAt(0)] = WORD;
  V1_WORDS[char.charCodeAt(0)] = word;
}
for (const code of [0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0x2d]) V1_KIND[code] = SEPARATE;

// Generation 2 cares about case: decamelize splits words by it, before lower-casing.
const UPPER = 1;
const LOWER = 2;
const DIGIT = 3;
const CASE = new Uint8Array(128); // 0: not a word character, so a separator (after the transliteration below)
for (let code = 0; code < 128; code++) {
  if (code >= 0x41 && code <= 0x5a) CASE[code] = UPPER;
  else if (code >= 0x61 && code <= 0x7a) CASE[code] = LOWER;
  else if (code >= 0x30 && code <= 0x39) CASE[code] = DIGIT;
  if (CASE[code]) V1_KIND[code] = KEEP;
}

/** `slugify(name, {lower: true, strict: true})` for an ASCII name; `undefined` for any other name. */
export function fastSlugV1(name: string): string | undefined {
  const lower = name.toLowerCase();
  let out = '';
  let start = -1; // start of the current run of kept characters, copied from `lower` in one slice
  let separate = false; // a separator since the last output, written only before more output (so trimmed)
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (code >= 128) return undefined;
    const kind = V1_KIND[code];
    if (kind === KEEP) {
      if (start < 0) {
        if (separate) out += '-';
        separate = false;
        start = i;
      }
      continue;
    }
    if (start >= 0) out += lower.slice(start, i);
    start = -1;
    if (kind === SEPARATE) {
      separate = out !== '';
    } else if (kind === WORD) {
      if (separate) out += '-';
      separate = false;
      out += V1_WORDS[code];
    }
  }
  return start >= 0 ? out + lower.slice(start) : out;
}

/** `@sindresorhus/slugify(name)` (defaults) for an ASCII name; `undefined` for any other name. */
export function fastSlugV2(name: string): string | undefined {
  let transliterate = false;
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (code >= 128) return undefined;
    if (code === AMPERSAND || code === CARET || code === BACKTICK) transliterate = true;
  }
  return slugDecamelized(transliterate ? transliterateAscii(name) : name);
}

/**
 * What transliterate does to ASCII: slugify's built-in replacement `&` → ` and `, and the removal of `\p{Diacritic}`,
 * which in ASCII is `^` and `` ` `` (removed, so their neighbours join: `a^B` decamelizes as `aB`). Its replacement
 * table has no all-ASCII key, and `-` is the only ASCII `\p{Dash_Punctuation}`.
 */
function transliterateAscii(name: string): string {
  let out = '';
  for (let i = 0; i < name.length; i++) {
    const code = name.charCodeAt(i);
    if (code === AMPERSAND) out += ' and ';
    else if (code !== CARET && code !== BACKTICK) out += name[i];
  }
  return out;
}

/**
 * Decamelize, lower-case, drop contraction apostrophes, then runs of anything but `[a-z\d]` become one `-`,
 * trimmed at both ends; computed in one pass over the transliterated text.
 */
function slugDecamelized(text: string): string {
  const lower = text.toLowerCase();
  let out = '';
  let start = -1; // start of the current word in `lower`
  let separate = false;
  let contraction = -3; // index of the apostrophe of the last contraction
  for (let i = 0; i < text.length; i++) {
    if (CASE[text.charCodeAt(i)]) {
      if (start >= 0 && startsWord(text, i)) {
        out += `${lower.slice(start, i)}-`;
        start = i;
      } else if (start < 0) {
        if (separate) out += '-';
        separate = false;
        start = i;
      }
      continue;
    }
    if (start >= 0) {
      out += lower.slice(start, i);
      start = -1;
      // A word-final `'t`/`'s` joins its word (`don't` → `dont`). The regex's matches do not overlap, so the `t` of
      // one contraction cannot start the next (`a't't` → `at-t`).
      if (text.charCodeAt(i) === APOSTROPHE && i - 2 !== contraction && isContraction(text, i)) {
        contraction = i;
        continue;
      }
    }
    separate = out !== '';
  }
  return start >= 0 ? out + lower.slice(start) : out;
}

/**
 * Where decamelize puts a space before the word character at `i` (1 ≤ i), in terms of the text before it ran.
 * Its three regexes run in turn, but each insertion is decided by a fixed window and none can enable or prevent
 * another, except that `FOO360`'s space (rule 1) keeps rule 3 from matching `OO360`: rule 3 therefore only
 * ever matches a lower-case letter after the two capitals.
 */
function startsWord(text: string, i: number): boolean {
  const here = caseAt(text, i);
  const before = caseAt(text, i - 1);
  // 1. `/([A-Z]{2})(\d+)/`: `FOO360` → `FOO 360`.
  if (here === DIGIT) return before === UPPER && caseAt(text, i - 2) === UPPER;
  if (here !== UPPER) return false;
  // 2. `/([a-z\d])([A-Z])/`: `fooBar` → `foo Bar`, `foo360Bar` → `foo360 Bar`.
  if (before === LOWER || before === DIGIT) return true;
  // 3. `/([A-Z])([A-Z](?!s(?![a-z]))[a-z\d]+)/`: `APISection` → `API Section`, but `APIs` and `APIs2` stay.
  if (before !== UPPER || caseAt(text, i + 1) !== LOWER) return false;
  return text.charCodeAt(i + 1) !== LOWER_S || caseAt(text, i + 2) === LOWER;
}

/**
 * `/([a-z\d])'([ts])(?![a-z\d])/gi` on the decamelized, lower-cased text, for the apostrophe at `i` after a word
 * character: what follows the `t`/`s` is a word character unless it ends the text, is not one, or decamelize put
 * a space before it (`don'tStop` → `dont-stop`).
 */
function isContraction(text: string, i: number): boolean {
  const next = text.charCodeAt(i + 1) | 0x20;
  if (next !== LOWER_T && next !== LOWER_S) return false;
  return caseAt(text, i + 2) === 0 || startsWord(text, i + 2);
}

function caseAt(text: string, i: number): number {
  return CASE[text.charCodeAt(i)] ?? 0; // out of range: NaN → undefined
}
