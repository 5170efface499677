import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { librarySlugV1, librarySlugV2 } from '../../../src/derive/slug.js';
import { fastSlugV1, fastSlugV2 } from '../../../src/derive/slug-fast.js';
import { syntheticDefinition } from '../../bench/synthetic.mjs';

describe('fast slugs on the edge cases found while reading the libraries', () => {
  // [name, generation 1, generation 2]: each checked against the library too, so a library upgrade that changes
  // one of these fails here first.
  it.each([
    ['', '', ''],
    ['bench workflow 123', 'bench-workflow-123', 'bench-workflow-123'],
    ['  --Hello,\tWorld!--  ', 'hello-world', 'hello-world'],
    ['a_b a.b a/b', 'ab-ab-ab', 'a-b-a-b-a-b'],
    ['a\x1fb a\vb', 'ab-a-b', 'a-b-a-b'],
    ['$5 | 100% <x> & y', 'dollar5-or-100percent-lessxgreater-and-y', '5-100-x-and-y'],
    ['A&B', 'aandb', 'a-and-b'],
    ["&'t", 'andt', 'and-t'], // transliterate's `&` is ` and `, with spaces: no word for the `'t` to join
    ['a^B c`D', 'ab-cd', 'a-b-c-d'], // transliterate removes `^` and `` ` ``, which joins their neighbours first
    ['XMLHttpRequest', 'xmlhttprequest', 'xml-http-request'],
    ['ABCDef', 'abcdef', 'abc-def'],
    ['FOO360Bar', 'foo360bar', 'foo-360-bar'],
    ['AB12CD', 'ab12cd', 'ab-12-cd'], // not `a-b12-cd`: the digit rule runs before the capitals rule
    ['APIs APIs2 APIsx', 'apis-apis2-apisx', 'apis-apis2-ap-isx'],
    ['OrderV2Shipped', 'orderv2shipped', 'order-v2-shipped'],
    ["Don't DON'T", 'dont-dont', 'dont-dont'],
    ["don'tStop", 'dontstop', 'dont-stop'], // decamelize's space ends the contraction's word
    ["don'tstop it's", 'dontstop-its', 'don-tstop-its'],
    ["DON'TS", 'donts', 'don-ts'],
    ["a't't", 'att', 'at-t'], // regex matches do not overlap
    ["'t x' t 1's", 't-x-t-1s', 't-x-t-1s'],
    // Each side of the letter and digit ranges, and the characters just outside them.
    ['@A[Z`a{z/0:9', 'azaz09', 'a-za-z-0-9'],
    ['zA aZ 9A 0A', 'za-az-9a-0a', 'z-a-a-z-9-a-0-a'],
    ['ZZ9 AA0 ZZ0x', 'zz9-aa0-zz0x', 'zz-9-aa-0-zz-0x'],
    ['AZz az', 'azz-az', 'a-zz-az'],
    ['fooBAR aB9 Ab9 A9b AB9c', 'foobar-ab9-ab9-a9b-ab9c', 'foo-bar-a-b9-ab9-a9b-ab-9c'],
    ['ABs ABsa ABS', 'abs-absa-abs', 'abs-a-bsa-abs'],
    // White space separates in both; other control characters and DEL are removed by the first, separate in the second.
    ['a\nb\fc\rd\ve', 'a-b-c-d-e', 'a-b-c-d-e'],
    ['x\x7fy a\bb\x0ec', 'xy-abc', 'x-y-a-b-c'],
    // Contractions: which apostrophes join their word.
    ["it's ITS a'T a'sB a's1", 'its-its-at-asb-as1', 'its-its-at-as-b-a-s1'],
    ["a''t a'tb a'x x' ab' a-'t", 'at-atb-ax-x-ab-a-t', 'a-t-a-tb-a-x-x-ab-a-t'],
    ["a's's a't's A'T'S AB'S A's", 'ass-ats-ats-abs-as', 'as-s-at-s-at-s-abs-as'],
    // Transliteration of `&`, `^` and `` ` `` at either end.
    ['& ^x x^ a `b', 'and-x-x-a-b', 'and-x-x-a-b'],
  ])('%j → %j / %j', (name, v1, v2) => {
    expect([fastSlugV1(name), fastSlugV2(name)]).toEqual([v1, v2]);
    expect([librarySlugV1(name), librarySlugV2(name)]).toEqual([v1, v2]);
  });

  it('handles a very long name', () => {
    const name = 'Order shipped orderShipped_XMLHttp 42 '.repeat(500);
    expect(fastSlugV1(name)).toBe(librarySlugV1(name));
    expect(fastSlugV2(name)).toBe(librarySlugV2(name));
  });

  it.each(['Déjà Vu', 'Test テスト', 'a\u00a0b', 'don’t', 'a–b', '🦄', 'e\u0301', 'a\u0080', '\u0080b'])(
    'declines %j',
    (name) => {
      expect(fastSlugV1(name)).toBeUndefined();
      expect(fastSlugV2(name)).toBeUndefined();
    },
  );
});

describe('fast slugs answer for real names (so they cannot silently decline everything)', () => {
  const examples = new URL('../../../workflows/', import.meta.url);
  const files = readdirSync(fileURLToPath(examples)).filter((file) => file.endsWith('.yaml'));
  const texts = [
    ...files.map((file) => readFileSync(new URL(file, examples), 'utf8')),
    ...[0, 1, 2, 3, 123, 9999].map((i) => syntheticDefinition(i)),
  ];
  // Names and trigger identifiers: the identifier rule slugs both.
  const names = texts.flatMap((text) => {
    const definition = parse(text) as { name: string; triggers?: { identifier: string }[] };
    return [definition.name, ...(definition.triggers ?? []).map((trigger) => trigger.identifier)];
  });

  it('reads the example workflows and the benchmark names', () => {
    expect(files.length).toBeGreaterThan(0);
    expect(names).toContain('bench workflow 123');
  });

  it.each(names)('%j', (name) => {
    expect(fastSlugV1(name)).toBe(librarySlugV1(name));
    expect(fastSlugV2(name)).toBe(librarySlugV2(name));
  });
});
