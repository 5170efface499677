import { describe, expect, it } from 'vitest';
import { scanTemplate } from '../../../src/derive/handlebars.js';
import { scanTemplateAsServer } from '../../../src/derive/server-scan.js';

/** `name:Type` for each variable the service's extractor reports, in its order. */
function server(source: string): string[] {
  const scan = scanTemplateAsServer(source);
  expect(scan.error).toBeUndefined();
  return scan.usages.map((u) => `${u.name}:${u.type}`);
}

describe('scanTemplateAsServer agrees with scanTemplate on the simple cases', () => {
  it.each([
    'Hi {{name}} {{order.id}} {{{html}}}',
    '{{#each items}}{{title}}{{/each}}',
    '{{#each a}}{{#each b}}{{c}}{{/each}}{{/each}}',
    '{{#with o}}{{k}}{{/with}}',
    '{{uppercase name}}',
    '{{@index}} {{! comment }}',
  ])('%j', (source) => {
    expect(scanTemplateAsServer(source)).toEqual(scanTemplate(source));
  });
});

describe('scanTemplateAsServer: where the service differs', () => {
  it('orders each level: mustaches, then each/with, then if/unless, then i18n hash values', () => {
    expect(server('{{#if vip}}{{perk}}{{/if}}{{#each xs}}{{y}}{{/each}}{{name}}')).toEqual([
      'name:String',
      'xs:Array',
      'xs.y:String',
      'vip:Boolean',
      'perk:String',
    ]);
  });

  it('keeps this. and other source text in names, prefixed inside each', () => {
    expect(server('{{#each items}}{{this.price}} {{this}}{{/each}}')).toEqual([
      'items:Array',
      'items.this.price:String',
      'items.this:String',
    ]);
    expect(server('{{this}}')).toEqual(['this:String']);
  });

  it('drops names that do not start with a letter or _ (../z, @index)', () => {
    expect(server('{{#each xs}}{{../currency}} {{@index}}{{/each}} {{_ok}}')).toEqual([
      '_ok:String',
      'xs:Array',
    ]);
  });

  it('takes only the first argument of a built-in helper, and nothing from other helpers', () => {
    expect(server('{{equals a b}} {{myHelper c}} {{uppercase (lowercase d)}}')).toEqual([
      'a:String',
      'uppercase:String',
    ]);
  });

  it('counts a string literal as a name', () => {
    expect(server('{{equals "paid" status}}')).toEqual(['paid:String']);
  });

  it('reads only the hash values of i18n', () => {
    expect(server('{{i18n "greeting" name=user.name}}')).toEqual(['user.name:String']);
  });

  it('skips else branches, other block helpers, and if with two arguments (bodies included)', () => {
    expect(server('{{#if a}}{{x}}{{else}}{{y}}{{/if}}')).toEqual(['a:Boolean', 'x:String']);
    expect(server('{{#equals s "x"}}{{inside}}{{/equals}}')).toEqual([]);
    expect(server('{{#if a b}}{{inside}}{{/if}}')).toEqual([]);
  });

  it('names a block after its helper when the argument has no name (none, or a sub-expression)', () => {
    expect(server('{{#each}}{{x}}{{/each}}')).toEqual(['each:Array', 'each.x:String']);
    expect(server('{{#each (sortBy items "date")}}{{title}}{{/each}}')).toEqual([
      'each:Array',
      'each.title:String',
    ]);
    expect(server('{{uppercase (lowercase name)}}')).toEqual(['uppercase:String']);
  });

  it('prefixes every level of nested each/with, i18n values included, level by level', () => {
    expect(
      server('{{#each a}}{{#with b}}{{c}}{{/with}}{{i18n "k" v=x}}{{#if d}}{{e}}{{/if}}{{/each}}{{f}}'),
    ).toEqual(['f:String', 'a:Array', 'a.x:String', 'a.b.c:String', 'a.d:Boolean', 'a.e:String']);
    expect(server('{{i18n "k" a=x b="y"}} {{#each xs}}{{i18n "k" c=z}}{{/each}}')).toEqual([
      'x:String',
      'y:String',
      'xs:Array',
      'xs.z:String',
    ]);
  });

  it('gives offsets of the node each name came from', () => {
    const source = '{{#each items}}{{title}}{{/each}}';
    expect(scanTemplateAsServer(source).usages.map((u) => u.offset)).toEqual([
      source.indexOf('items'),
      source.indexOf('title'),
    ]);
  });
});

describe('scanTemplateAsServer: inputs that make the service answer 400', () => {
  it.each([
    ['{{numberFormat 5}}', '5', '`5`'],
    ['{{x}} {{true}}', 'true', '`true`'],
    ['{{null}}', 'null', '`null`'],
    ['{{undefined}}', 'undefined', 'without a name'],
    ['{{i18n "k" count=3}}', '3', '`3`'],
    ['{{i18n "k" label=(uppercase x)}}', '(', 'without a name'],
    ['{{#if ok}}{{#each items}}{{numberFormat 0.5}}{{/each}}{{/if}}', '0.5', '`0.5`'],
  ])('%j', (source, at, message) => {
    const scan = scanTemplateAsServer(source);
    expect(scan.usages).toEqual([]);
    expect(scan.error?.offset).toBe(source.indexOf(at));
    expect(scan.error?.message).toContain(message);
    // The Handlebars reading of the same template is fine.
    expect(scanTemplate(source).error).toBeUndefined();
  });

  it('fails where the service fails first: the mustaches of a level before its blocks, whatever the source order', () => {
    const source = '{{#each xs}}{{numberFormat 1}}{{/each}} {{i18n "k" n=2}}';
    expect(scanTemplateAsServer(source).error?.offset).toBe(source.indexOf('2'));
    const blocks = '{{#if a}}{{numberFormat 1}}{{/if}} {{#each xs}}{{numberFormat 2}}{{/each}}';
    expect(scanTemplateAsServer(blocks).error?.offset).toBe(blocks.indexOf('2'));
  });

  it('an inverse-only if or each block', () => {
    const scan = scanTemplateAsServer('ok {{^if a}}no{{/if}}');
    expect(scan.error?.offset).toBe(3);
    expect(scan.error?.message).toContain('inverse-only');
  });

  it('does not fail on constructs it never enters', () => {
    expect(server('{{#if a}}{{else}}{{numberFormat 5}}{{/if}}')).toEqual(['a:Boolean']);
    expect(server('{{#myBlock}}{{true}}{{/myBlock}}')).toEqual([]);
  });

  it('reports parse errors like scanTemplate', () => {
    expect(scanTemplateAsServer('{{#each xs}}')).toEqual(scanTemplate('{{#each xs}}'));
  });
});
