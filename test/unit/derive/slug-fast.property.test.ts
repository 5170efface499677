import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { librarySlugV1, librarySlugV2, slugifyV1, slugifyV2 } from '../../../src/derive/slug.js';
import { fastSlugV1, fastSlugV2 } from '../../../src/derive/slug-fast.js';
import { runs } from '../../helpers/fc-runs.js';

const ASCII = Array.from({ length: 128 }, (_, code) => String.fromCharCode(code));
const PUNCTUATION = ASCII.filter((char) => /[!-/:-@[-`{-~]/.test(char));
const CONTROL = ASCII.filter((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f);

/** ASCII pieces of names, biased toward what the two libraries treat specially. */
const asciiPiece = fc.oneof(
  { weight: 4, arbitrary: fc.stringMatching(/^[a-z]{1,6}$/) },
  { weight: 3, arbitrary: fc.stringMatching(/^[A-Z]{1,5}[a-z]{0,4}$/) }, // `Order`, `XMLHttp`, `APIs`, `ABCDef`
  { weight: 2, arbitrary: fc.stringMatching(/^[0-9]{1,4}$/) },
  { weight: 2, arbitrary: fc.constantFrom('s', 'S', 't', 'T', 'sx', 'ts', 'APIs', 'V2') }, // `s` after capitals
  { weight: 3, arbitrary: fc.constantFrom(...PUNCTUATION) },
  { weight: 2, arbitrary: fc.constantFrom("'t", "'s", "'T", "'S", "'", "''") }, // contractions
  { weight: 2, arbitrary: fc.constantFrom(' ', '  ', '\t', '-', '--', '_', ' - ') },
  { weight: 1, arbitrary: fc.constantFrom(...CONTROL) },
);
/** Now and then a character the fast paths must decline, some of which transliterate to ASCII. */
const piece = fc.oneof(
  { weight: 19, arbitrary: asciiPiece },
  {
    weight: 1,
    arbitrary: fc.constantFrom('é', 'ß', 'Ж', '日', '’', '–', '\u00a0', '🦄', '\u0301', '\ufe0f'),
  },
);

const grammarName = fc.array(piece, { maxLength: 12 }).map((pieces) => pieces.join(''));
const longName = fc.array(asciiPiece, { minLength: 100, maxLength: 400 }).map((pieces) => pieces.join(''));
const anyAscii = fc.string({ unit: fc.constantFrom(...ASCII), maxLength: 24 });

/** The property: the fast path answers exactly for ASCII names, then as the library does; the public functions
 * (fast path, fallback and cache together) always answer as the library does. */
function agrees(name: string): boolean {
  const ascii = ASCII_ONLY.test(name);
  const v1 = fastSlugV1(name);
  const v2 = fastSlugV2(name);
  expect(v1 !== undefined, JSON.stringify(name)).toBe(ascii);
  expect(v2 !== undefined, JSON.stringify(name)).toBe(ascii);
  const reference1 = librarySlugV1(name);
  const reference2 = librarySlugV2(name);
  if (v1 !== undefined) expect(v1, JSON.stringify(name)).toBe(reference1);
  if (v2 !== undefined) expect(v2, JSON.stringify(name)).toBe(reference2);
  expect(slugifyV1(name)).toBe(reference1);
  expect(slugifyV2(name)).toBe(reference2);
  return ascii;
}
const ASCII_ONLY = /^[\0-\x7f]*$/;

function answered(arbitrary: fc.Arbitrary<string>, numRuns: number): number {
  let count = 0;
  fc.assert(
    fc.property(arbitrary, (name) => {
      if (agrees(name)) count++;
    }),
    { numRuns: runs(numRuns) },
  );
  return count;
}

// Before landing, exhaustive runs also agreed on every ASCII string of up to 3 characters, every string of up to 4
// over `aAbBsStT09 '-_&^`$%.\` and \x1f, and every string of up to 6 over `aAsStT0'^&`.
describe('the ASCII slug fast paths agree with the libraries (property-based)', () => {
  it('on names built from the cases the libraries treat specially', () => {
    expect(answered(grammarName, 5000)).toBeGreaterThan(runs(5000) / 2);
  });

  it('on very long names', () => {
    expect(answered(longName, 200)).toBe(runs(200));
  });

  it('on any ASCII string, control characters included', () => {
    expect(answered(anyAscii, 5000)).toBe(runs(5000));
  });

  it('on fully random strings (declining all but the ASCII ones)', () => {
    answered(fc.string({ unit: 'binary', maxLength: 24 }), 2000);
    answered(fc.string({ unit: 'binary-ascii', maxLength: 24 }), 2000);
  });
});

// The fast paths hard-code what these Unicode properties hold in ASCII; the libraries ask the running Node.
describe('the facts about ASCII the fast paths rely on', () => {
  it('\\p{Diacritic} (removed by transliterate) is `^` and `` ` ``', () => {
    expect(ASCII.filter((char) => /\p{Diacritic}/u.test(char))).toEqual(['^', '`']);
  });

  it('\\p{Dash_Punctuation} (made `-` by transliterate) is `-` alone', () => {
    expect(ASCII.filter((char) => /\p{Dash_Punctuation}/u.test(char))).toEqual(['-']);
  });

  it('\\s (a separator for slugify 1) is tab to carriage return and space', () => {
    expect(ASCII.filter((char) => /\s/.test(char))).toEqual(['\t', '\n', '\v', '\f', '\r', ' ']);
  });

  it('normalization leaves ASCII alone', () => {
    const all = ASCII.join('');
    expect([all.normalize(), all.normalize('NFD')]).toEqual([all, all]);
  });
});
