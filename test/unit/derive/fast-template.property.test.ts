import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lineStartsOf } from '../../../src/derive/parse-template.js';
import { runs } from '../../helpers/fc-runs.js';
import { fastAgreesWithHandlebars, walkersAgree } from './template-reference.js';

// Templates from a grammar that mixes the subset the fast parser takes with everything around its edges: spaces of
// every kind (Unicode ones and line breaks included), names Handlebars lexes as literals or rejects, every opening
// and closing token, hashes, sub-expressions, block params, else chains, mismatched and unclosed blocks, escapes.
// Each choice is mostly inside the subset, so that whole templates often are, and sometimes just outside it.

/** One of `inside` 39 times in 40 (or `weight` times in `weight + 1`), else one of `outside`. */
function mostly(inside: readonly string[], outside: readonly string[], weight = 39): fc.Arbitrary<string> {
  return fc.oneof(
    { weight, arbitrary: fc.constantFrom(...inside) },
    { weight: 1, arbitrary: fc.constantFrom(...outside) },
  );
}

// biome-ignore format: tables of names
const segment = mostly(
  ['x', 'name', 'customer', 'if', 'each', 'with', 'unless', 'elsewhere', 'as', 'trueish', 'nulls', 'x1', 'a-b', '$x',
    'a:b', 'a?', '_', 'é', '名前', '😀', '\ud800'],
  ['else', 'a\x7f', 'this', 'true', 'false', 'null', 'undefined', '1', '0', '12a', '-x', '-1', 'x\x01', 'a\u00a0', '[a b]',
    '[x]', '@index', '@root', '..', '.', 'a=b', 'a~', 'a(b)', 'a|b', 'a/b', 'x\u2028', 'x\x00', '"s"', "'s'", 'a!',
    'a#', 'a%', 'a,', 'a;', 'a<', 'a@', 'a^', 'a`', 'a{', 'a}', 'a\\', 'a]'],
);
const separator = mostly(['.'], ['/', '..', '. ', '', './']);
const path = fc
  .tuple(
    mostly([''], ['../', './', '@', 'this.', '../../', '.', '[', '@root.']),
    segment,
    fc.array(fc.tuple(separator, segment), { maxLength: 2 }),
  )
  .map(([prefix, head, rest]) => prefix + head + rest.map(([sep, part]) => sep + part).join(''));
const space = mostly(
  ['', '', '', ' ', '  ', '\n', '\r\n', '\r', '\t', '\v', '\f', ' \r\n\t'],
  ['\u00a0', '\u3000', '\ufeff', '\u2028'],
);
const gap = mostly([' ', ' ', '  ', '\n', '\r\n', '\r', '\t', ' \r\n '], ['\u00a0', '', '\u2029']);
const argument = fc.oneof(
  { weight: 9, arbitrary: path },
  fc.constantFrom(
    '"s"',
    "'s'",
    '5',
    '-1.5',
    'true',
    'null',
    'k=v',
    'k=(f x)',
    '(uppercase x)',
    'as |x i|',
    '|x|',
    '~',
  ),
);
const call = fc
  .tuple(space, path, fc.array(fc.tuple(gap, argument), { maxLength: 3 }), space)
  .map(([before, head, args, after]) => before + head + args.map(([g, a]) => g + a).join('') + after);
// biome-ignore format: tables of tokens
const opening = mostly(
  ['{{'],
  ['{{&', '{{~', '{{^', '{{!', '{{!--', '{{>', '{{*', '{{{{', '\\{{', '\\\\{{', '{{#', '{{/', '{{~{'],
);
const closing = mostly(['}}'], ['}}}', '~}}', '}', '}}}}', '', '} }', '}~}']);
const mustache = fc.oneof(
  { weight: 3, arbitrary: fc.tuple(opening, call, closing).map(([o, c, e]) => o + c + e) },
  {
    weight: 1,
    arbitrary: fc.tuple(call, mostly(['}}}'], ['}}', '}}}}', '~}}}'])).map(([c, e]) => `{{{${c}${e}`),
  },
);
// biome-ignore format: a table of inverse tags
const inverseTag = mostly(
  ['{{else}}', '{{ else }}', '{{else\r\n}}', '{{\nelse}}', '{{else}}}', '{{\telse\t}}'],
  ['{{else~}}', '{{~else}}', '{{^}}', '{{else if x}}', '{{elsex}}', '{{else$}}', '{{else.x}}', '{{else\u00a0}}',
    '{{ else x}}', '{{else', '{{else-}}', '{{elseé}}'],
  6,
);
// biome-ignore format: a table of text
const content = mostly(
  ['Hi ', 'text', ' ', '\n', '\r\n', '\r', '\r\r\n', '}}', 'é', '😀', '\u00a0', '\t', '<p>', '{ {', 'a}', '{a', '\\a',
    '\x01'],
  ['\u2028', '\u2029', '\x00', 'a\\', '}}}', '{', '}'],
);
const { body } = fc.letrec<{ node: string; block: string; body: string }>((tie) => ({
  node: fc.oneof({ depthSize: 'small' }, content, mustache, tie('block')),
  block: fc
    .tuple(
      mostly(['{{#', '{{# ', '{{#\n'], ['{{^', '{{#*', '{{#>', '{{~#', '{{{#', '{{ #']),
      call,
      mostly(['}}'], ['}}}', '~}}', ' as |it i|}}']),
      tie('body'),
      fc.oneof(
        { weight: 3, arbitrary: fc.constant([]) },
        { weight: 6, arbitrary: fc.tuple(inverseTag, tie('body')) },
        { weight: 1, arbitrary: fc.tuple(inverseTag, tie('body'), inverseTag, tie('body')) },
      ),
      mostly(['same', 'spaced'], ['other', 'args', 'none', 'tilde', 'triple'], 8),
    )
    .map(([open, head, close, inner, inverse, end]) => {
      const name = head.trim().split(/\s/)[0] ?? '';
      const closer = {
        same: `{{/${name}}}`,
        spaced: `{{/ ${name}\r\n}}`,
        other: '{{/other}}',
        args: `{{/${name} x}}`,
        none: '',
        tilde: `{{~/${name}}}`,
        triple: `{{/${name}}}}`,
      }[end];
      return open + head + close + inner + inverse.join('') + closer;
    }),
  body: fc.array(tie('node'), { maxLength: 5 }).map((nodes) => nodes.join('')),
}));
const template = fc.oneof(
  { weight: 4, arbitrary: body },
  fc.tuple(body, fc.nat()).map(([source, cut]) => source.slice(0, cut % (source.length + 1))),
);
// Random strings over the characters that matter to the lexer, and over anything at all.
const soup = fc.string({
  unit: fc.constantFrom(...'{{{}}}#/^~!&>*=()|@[]."\' \n\r\t\\elsifxa1-é😀'),
  maxLength: 40,
});
// biome-ignore format: a table of tokens
const token = fc.constantFrom(
  '{{', '{{', '{{', '}}', '}}', '}}', '{{{', '}}}', '{{#', '{{/', '{{else}}', 'else', 'if', 'x', 'x', 'a.b', '.', ' ',
  ' ', '\n', '\r', '\r\n', '\\', '~', '}', '{', '#', '/', '^', '!', '>', '&', '*', '=', '(', ')', '|', '"', '@',
  '[', ']', '1', '-', 'this', 'true', 'é', '\u00a0',
);
const tokenSoup = fc.array(token, { maxLength: 25 }).map((tokens) => tokens.join(''));
const anything = fc.string({ unit: 'binary', maxLength: 40 });

/**
 * Runs the property and returns how many inputs holding a `{{` the fast parser answered for, so a test can show it is
 * not vacuous.
 */
function answered(arbitrary: fc.Arbitrary<string>, numRuns: number): number {
  let count = 0;
  fc.assert(
    fc.property(arbitrary, (source) => {
      if (fastAgreesWithHandlebars(source) && source.includes('{{')) count++;
      walkersAgree(source);
    }),
    { numRuns: runs(numRuns) },
  );
  return count;
}

describe('fastParseTemplate agrees with Handlebars wherever it answers (property-based)', () => {
  it('on templates from a grammar around the edges of the subset', () => {
    expect(answered(template, 4000)).toBeGreaterThan(runs(4000) / 20);
  });

  it('on templates drawn from the subset, which it always answers for', () => {
    const plain = fc.constantFrom('x', 'a.b', 'customer.first_name', 'é', 'if', 'elsewhere', '$a:b?', 'x-1');
    const inner = fc.array(fc.constantFrom('text ', '\r\n', '\n', '\r', 'a}', '{a', 'é'), { maxLength: 3 });
    const piece = fc.oneof(
      fc.tuple(plain, fc.array(plain, { maxLength: 2 })).map(([h, a]) => `{{${[h, ...a].join(' ')}}}`),
      fc.tuple(plain, plain).map(([h, a]) => `{{{ ${h}\n${a} }}}`),
      fc
        .tuple(fc.constantFrom('if', 'each', 'unless', 'with', 'x.y'), plain, inner, fc.boolean())
        .map(([h, a, t, e]) => `{{#${h} ${a}}}${t.join('')}${e ? '{{ else }}y' : ''}{{/${h}}}`),
      inner.map((t) => t.join('')),
    );
    const source = fc.array(piece, { maxLength: 6 }).map((pieces) => pieces.join(''));
    fc.assert(
      fc.property(source, (text) => {
        expect(fastAgreesWithHandlebars(text), JSON.stringify(text)).toBe(true);
        walkersAgree(text);
      }),
      { numRuns: runs(1500) },
    );
  });

  it('on random strings of lexer characters', () => {
    answered(soup, 3000);
  });

  it('on random sequences of lexer tokens', () => {
    answered(tokenSoup, 3000);
  });

  it('on any string', () => {
    answered(anything, 1000);
  });
});

describe('lineStartsOf', () => {
  it('breaks lines where Handlebars does, at every \\r\\n, \\r and \\n', () => {
    const text = fc.string({ unit: fc.constantFrom('a', '\r', '\n', '\u2028', ' '), maxLength: 30 });
    fc.assert(
      fc.property(text, (source) => {
        const expected = [0, ...[...source.matchAll(/\r\n?|\n/g)].map((m) => m.index + m[0].length)];
        expect(lineStartsOf(source)).toStrictEqual(expected);
      }),
    );
  });
});
