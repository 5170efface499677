import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextMustache } from '../../../src/render/mustaches.js';

/** The expression nextMustache stands in for: the reference. */
const MUSTACHE = /\{\{\{?~?\s*([\s\S]*?)\s*~?\}?\}\}/g;

function byExpression(source: string): Array<[string, number]> {
  return [...source.matchAll(MUSTACHE)].map((m) => [m[1] as string, (m.index as number) + m[0].length]);
}

function byScan(source: string): Array<[string, number]> {
  const found: Array<[string, number]> = [];
  for (let m = nextMustache(source, 0); m !== undefined; m = nextMustache(source, m.end))
    found.push([m.inner, m.end]);
  return found;
}

describe('nextMustache', () => {
  it.each([
    ['Hello {{ name }}, {{{html}}} and {{~#each items~}}{{/each}}', 4],
    ['{{}} {{{}}} {{~}} {{ ~ }} {{a}}}} {{ {}} {{a}b}} {{ a ~}}', 8],
    ['no mustache {{ unterminated', 0],
    ['{{\u00a0name\u3000}}', 1],
  ])('finds what the expression finds in %j', (source, count) => {
    expect(byScan(source)).toEqual(byExpression(source));
    expect(byScan(source)).toHaveLength(count);
  });

  it('finds exactly what the expression finds, inner text and end, in any text', () => {
    const piece = fc.constantFrom(
      '{',
      '{{',
      '}',
      '}}',
      '~',
      ' ',
      '\t',
      '\n',
      '\u00a0',
      '\ufeff',
      'a',
      '#',
      '/',
      '.',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 24 }), (pieces) => {
        const source = pieces.join('');
        expect(byScan(source)).toEqual(byExpression(source));
      }),
      { numRuns: 5000 },
    );
  });
});
