import { describe, expect, it } from 'vitest';
import { scanTemplateAsServer } from '../../../src/derive/server-scan.js';

/** `name:Type@offset` for each variable the service's extractor reports, in its order. */
function server(source: string): string[] {
  const scan = scanTemplateAsServer(source);
  expect(scan.error, source).toBeUndefined();
  return scan.usages.map((u) => `${u.name}:${u.type}@${u.offset}`);
}

describe('scanTemplateAsServer, template by template', () => {
  // [template, what the service's extractor reports: name:Type@offset]
  it.each([
    // Names: only the first character is checked, against [a-zA-Z_].
    ['{{Abc}} {{_x}} {{zeta}} {{Z9}}', ['Abc:String@2', '_x:String@10', 'zeta:String@17', 'Z9:String@26']],
    ['{{a-b}} {{a1}} {{é}} {{$x}} {{9a}}', ['a-b:String@2', 'a1:String@10']],
    // i18n: its hash values only, and only those that are names; without a hash, nothing.
    ['{{i18n}} {{i18n "k"}}', []],
    ['{{i18n "k" a="1x" b=y c=_z}}', ['y:String@20', '_z:String@24']],
    ['{{i18n "k" a=x}}{{#if b}}{{/if}}{{y}}', ['x:String@13', 'y:String@34', 'b:Boolean@22']],
    // A mustache's first argument, when it has text; an empty string literal names the helper instead.
    ['{{equals "" b}}', ['equals:String@2']],
    ['{{equals a}} {{eq b c}}', ['a:String@9', 'b:String@18']],
    // each pushes its subject as an Array and prefixes its body; with only prefixes; a second argument is ignored.
    ['{{#each a b}}{{c}}{{/each}}', ['a:Array@8', 'a.c:String@15']],
    ['{{#with a b}}{{c}}{{/with}}', ['a.c:String@15']],
    ['{{#with null}}{{x}}{{/with}}', ['with.x:String@16']],
    ['{{#with (f)}}{{x}}{{/with}}', ['with.x:String@15']],
    ['{{#each 9a}}{{x}}{{/each}}', []],
    // if/unless: a Boolean, body read without a prefix, else branch skipped; with two arguments, nothing.
    ['{{#unless a}}{{b}}{{else}}{{c}}{{/unless}}', ['a:Boolean@10', 'b:String@15']],
    ['{{#unless a b}}{{c}}{{/unless}}', []],
    ['{{#if (f)}}{{x}}{{/if}}', ['if:Boolean@3', 'x:String@13']],
    ['{{#if _ok}}{{#each xs}}{{y}}{{/each}}{{/if}}', ['_ok:Boolean@6', 'xs:Array@19', 'xs.y:String@25']],
    ['{{#if 9a}}{{x}}{{/if}}', []],
    // Blocks that are neither each/with nor if/unless are skipped, bodies included.
    ['{{#custom a}}{{x}}{{/custom}} {{#eachx a}}{{y}}{{/eachx}}', []],
    // Within a level: mustaches, then each/with, then if/unless, whatever the source order.
    [
      '{{#if c}}{{/if}}{{#with b}}{{/with}}{{#each a}}{{/each}}{{#unless d}}{{/unless}}{{e}}',
      ['e:String@82', 'a:Array@44', 'c:Boolean@6', 'd:Boolean@66'],
    ],
  ])('%j', (source, expected) => {
    expect(server(source)).toEqual(expected);
  });
});

describe('scanTemplateAsServer: what makes the service answer 400, with its message and where', () => {
  it.each([
    ['{{#each 5}}{{x}}{{/each}}', "`5` stands where the service's variable extraction expects a name", 8],
    ['{{#if true}}{{x}}{{/if}}', "`true` stands where the service's variable extraction expects a name", 6],
    ['{{equals 5 b}}', "`5` stands where the service's variable extraction expects a name", 9],
    ['{{foo 5}}', "`5` stands where the service's variable extraction expects a name", 6],
    ['{{x}} {{false}}', "`false` stands where the service's variable extraction expects a name", 8],
    [
      '{{undefined}}',
      "an expression without a name (a sub-expression or `undefined`) stands where the service's variable extraction expects a name",
      2,
    ],
    [
      '{{i18n "k" a=(f x)}}',
      "an expression without a name (a sub-expression or `undefined`) stands where the service's variable extraction expects a name",
      13,
    ],
    ['{{^each xs}}{{/each}}', "an inverse-only block (`{{^…}}`) breaks the service's variable extraction", 0],
    [
      'ab {{^with o}}{{/with}}',
      "an inverse-only block (`{{^…}}`) breaks the service's variable extraction",
      3,
    ],
    [
      '{{^unless u}}{{/unless}}',
      "an inverse-only block (`{{^…}}`) breaks the service's variable extraction",
      0,
    ],
  ])('%j', (source, message, offset) => {
    expect(scanTemplateAsServer(source)).toEqual({ usages: [], error: { message, offset } });
  });

  it('a parse error is reported as such, with no usages', () => {
    const scan = scanTemplateAsServer('ab {{x');
    expect(scan.usages).toEqual([]);
    expect(scan.error?.message).toMatch(/^Parse error on line 1:/);
  });
});
