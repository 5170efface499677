import { describe, expect, it } from 'vitest';
import { scanTemplate } from '../../../src/derive/handlebars.js';

/** `name:Type@offset` for each use, in order. */
function uses(source: string): string[] {
  const scan = scanTemplate(source);
  expect(scan.error, source).toBeUndefined();
  return scan.usages.map((u) => `${u.name}:${u.type}@${u.offset}`);
}

describe('scanTemplate, template by template', () => {
  // [template, what it reads by Handlebars' scoping rules: name:Type@offset]
  it.each([
    // Partials and decorators: a dynamic partial's arguments, context and hash are read; decorators read nothing.
    ['{{> (whichPartial x) ctx k=v}}', ['x:String@18', 'ctx:String@21', 'v:String@27']],
    ['{{* deco x}} {{#* inline "p"}}{{y}}{{/inline}}', []],
    // each/with/if: further arguments and hash values are String, read in the outer scope.
    [
      '{{#each xs extra key=k}}{{y}}{{/each}}',
      ['xs:Array@8', 'extra:String@11', 'k:String@21', 'xs.y:String@26'],
    ],
    ['{{#if a b key=k}}{{y}}{{/if}}', ['a:Boolean@6', 'b:String@8', 'k:String@14', 'y:String@19']],
    ['{{#with a b}}{{c}}{{/with}}', ['b:String@10', 'a.c:String@15']],
    ['{{#with k=v}}{{x}} {{../y}}{{/with}}', ['v:String@10', 'y:String@21']],
    // Without arguments, each/with/if/unless and the helpers are plain block helpers: the body keeps the scope.
    ['{{#each}}{{x}}{{/each}}', ['x:String@11']],
    ['{{#with}}{{x}}{{/with}}', ['x:String@11']],
    ['{{#if}}{{x}}{{/if}}', ['x:String@9']],
    ['{{#unless}}{{x}}{{/unless}}', ['x:String@13']],
    ['{{#uppercase}}{{x}}{{/uppercase}}', ['x:String@16']],
    ['{{lookup}} {{log}} {{#lookup}}{{x}}{{/lookup}}', ['x:String@32']],
    // A helper named by a path that is not a bare name is not each/with/if: its argument is a String.
    ['{{#../each xs}}{{y}}{{/../each}}', ['xs:String@11', 'y:String@17']],
    ['{{#this.each xs}}{{y}}{{/this.each}}', ['xs:String@13', 'y:String@19']],
    ['{{#a.each xs}}{{y}}{{/a.each}}', ['xs:String@10', 'y:String@16']],
    // Block params of a section or another helper name nothing that can be read.
    ['{{#xs as |x|}}{{x.y}} {{z}}{{/xs}}', ['xs.z:String@24']],
    ['{{#custom a as |v|}}{{v.x}} {{w}}{{/custom}}', ['a:String@10', 'w:String@30']],
    // `this.` and `./` skip the block params; a block param merely starting with `this` does not.
    [
      '{{#each xs as |x|}}{{this.x}} {{./x}} {{x}}{{/each}}',
      ['xs:Array@8', 'xs.x:String@21', 'xs.x:String@32'],
    ],
    ['{{#each xs as |thisx|}}{{thisx.y}}{{/each}}', ['xs:Array@8', 'xs.y:String@25']],
    ['{{#each xs as |x|}}{{x.y}}{{/each}}', ['xs:Array@8', 'xs.y:String@21']],
    // `../` skips the block params too: `../x` is the outer x, not the element.
    ['{{#each xs as |x|}}{{../x}}{{/each}}', ['xs:Array@8', 'x:String@21']],
    // Block params through nested blocks; the index param reads nothing at any depth.
    [
      '{{#each xs as |x i|}}{{#each x.ys as |y|}}{{y.z}} {{i}} {{x}}{{/each}}{{/each}}',
      ['xs:Array@8', 'xs.ys:Array@29', 'xs.ys.z:String@44'],
    ],
    ['{{#with a as |b|}}{{#with b.c}}{{d}}{{/with}}{{/with}}', ['a.c.d:String@33']],
    // `../` past the root reads nothing; @root reaches the root from anywhere; `@root` alone reads nothing.
    ['{{../x}} {{../../y}}', []],
    ['{{#each xs}}{{../../z}}{{/each}}', ['xs:Array@8']],
    ['{{@root}} {{@root.a.b}}', ['a.b:String@12']],
    ['{{#each xs}}{{#with @root.o}}{{k}}{{/with}}{{/each}}', ['xs:Array@8', 'o.k:String@31']],
    // each over something without a name (a literal, data, a sub-expression): its body cannot be attributed.
    ['{{#each 5}}{{x}} {{../y}}{{/each}}', ['y:String@19']],
    ['{{#each "s"}}{{x}}{{/each}}', []],
    ['{{#each @index}}{{y}}{{/each}}', []],
    ['{{#with (f a)}}{{x}} {{../y}}{{/with}}', ['a:String@11', 'y:String@23']],
    ['{{#if (f a)}}{{x}}{{/if}}', ['a:String@9', 'x:String@15']],
    // A section over something that names nothing (data, past the root) cannot attribute its body.
    ['{{#@foo}}{{x}}{{/@foo}}', []],
    ['{{#../xs}}{{y}}{{/../xs}}', []],
    ['{{#each xs}}{{#../ys}}{{y}}{{/../ys}}{{/each}}', ['xs:Array@8', 'ys.y:String@24']],
    // An else branch is outside the block params; `if` declares none.
    ['{{#each xs as |x|}}{{else}}{{x}}{{/each}}', ['xs:Array@8', 'x:String@29']],
    ['{{#if a as |b|}}{{b}}{{/if}}', ['a:Boolean@6', 'b:String@18']],
    // each over the element itself.
    ['{{#each xs}}{{#each this}}{{y}}{{/each}}{{/each}}', ['xs:Array@8', 'xs.y:String@28']],
  ])('%j', (source, expected) => {
    expect(uses(source)).toEqual(expected);
  });
});
