import { describe, expect, it } from 'vitest';
import { scanTemplate } from '../../../src/derive/handlebars.js';
import { isSystemVariable } from '../../../src/derive/names.js';

/** `name:Type` for each use, in order. */
function uses(source: string): string[] {
  const scan = scanTemplate(source);
  expect(scan.error).toBeUndefined();
  return scan.usages.map((u) => `${u.name}:${u.type}`);
}

describe('scanTemplate: plain mustaches', () => {
  it('finds {{x}} and dotted paths as String, with the offset of the path', () => {
    expect(scanTemplate('Hi {{name}}, your {{order.id}}')).toEqual({
      usages: [
        { name: 'name', type: 'String', offset: 5 },
        { name: 'order.id', type: 'String', offset: 20 },
      ],
    });
  });

  it('counts offsets across lines (\\n, \\r\\n and \\r)', () => {
    const source = 'a\nb\r\nc\rd {{x}}';
    const [use] = scanTemplate(source).usages;
    expect(use?.offset).toBe(source.indexOf('x}}'));
  });

  it('counts a triple-stash {{{html}}} and whitespace control {{~x~}}', () => {
    expect(uses('{{{html}}} {{~trimmed~}}')).toEqual(['html:String', 'trimmed:String']);
  });

  it('ignores text, comments, literals and raw blocks', () => {
    expect(
      uses('plain {{! note {{x}} }} {{!-- {{y}} --}} {{"str"}} {{5}} {{true}} {{{{raw}}}}{{z}}{{{{/raw}}}}'),
    ).toEqual([]);
  });

  it('keeps every use, duplicates included, in source order', () => {
    expect(uses('{{b}} {{a}} {{b}}')).toEqual(['b:String', 'a:String', 'b:String']);
  });

  it('reads this.x and ./x as x, and [segment literals] unwrapped', () => {
    expect(uses('{{this.x}} {{./y}} {{[first name]}} {{a.[b c]}}')).toEqual([
      'x:String',
      'y:String',
      'first name:String',
      'a.b c:String',
    ]);
  });

  it('ignores {{this}} at the root, data variables, and reads @root.x as x', () => {
    expect(uses('{{this}} {{@index}} {{@key}} {{@root.x}}')).toEqual(['x:String']);
  });
});

describe('scanTemplate: helpers', () => {
  it('a built-in helper is not a variable, its path arguments are (String)', () => {
    expect(uses('{{uppercase name}} {{dateFormat order.date "yyyy"}} {{pluralize count "item"}}')).toEqual([
      'name:String',
      'order.date:String',
      'count:String',
    ]);
  });

  it('any mustache with arguments is a helper call, known or not', () => {
    expect(uses('{{myHelper a b}} {{format.money price}}')).toEqual(['a:String', 'b:String', 'price:String']);
  });

  it('lookup: both arguments are read', () => {
    expect(uses('{{lookup labels status}}')).toEqual(['labels:String', 'status:String']);
  });

  it('a built-in helper name alone calls the helper', () => {
    expect(uses('{{uppercase}} {{i18n}} {{lookup}}')).toEqual([]);
  });

  it('walks sub-expressions and hash values; literals are ignored', () => {
    expect(uses('{{uppercase (lowercase (titlecase first) last) 3 true}}')).toEqual([
      'first:String',
      'last:String',
    ]);
    expect(uses('{{i18n "greeting" name=user.name count=5 label=(uppercase title)}}')).toEqual([
      'user.name:String',
      'title:String',
    ]);
  });

  it('a helper with only hash arguments is a helper call too', () => {
    expect(uses('{{link href=url}}')).toEqual(['url:String']);
  });

  it('block helpers other than each/with/if/unless: arguments are String, the body keeps the scope', () => {
    expect(uses('{{#equals status "paid"}}{{amount}}{{else}}{{due}}{{/equals}}')).toEqual([
      'status:String',
      'amount:String',
      'due:String',
    ]);
  });

  it('partials: the name is not a variable, context and hash arguments are', () => {
    expect(uses('{{> card item title=heading}} {{#> layout}}{{body}}{{/layout}}')).toEqual([
      'item:String',
      'heading:String',
      'body:String',
    ]);
  });
});

describe('scanTemplate: blocks', () => {
  it('{{#each xs}} → Array xs, and body paths are xs.y', () => {
    expect(uses('{{#each items}}{{title}} {{this.price}}{{/each}}')).toEqual([
      'items:Array',
      'items.title:String',
      'items.price:String',
    ]);
  });

  it('inside each, {{this}} and @index/@first add nothing; ../z is the outer z', () => {
    expect(
      uses('{{#each items}}{{this}} {{@index}} {{@first}} {{../currency}} {{@root.shop}}{{/each}}'),
    ).toEqual(['items:Array', 'currency:String', 'shop:String']);
  });

  it('nested each prefixes twice; ../ climbs one each at a time', () => {
    expect(
      uses('{{#each orders}}{{#each lines}}{{sku}} {{../id}} {{../../customer}}{{/each}}{{/each}}'),
    ).toEqual([
      'orders:Array',
      'orders.lines:Array',
      'orders.lines.sku:String',
      'orders.id:String',
      'customer:String',
    ]);
  });

  it('each over an outer array: {{#each ../xs}}', () => {
    expect(uses('{{#each a}}{{#each ../b}}{{c}}{{/each}}{{/each}}')).toEqual([
      'a:Array',
      'b:Array',
      'b.c:String',
    ]);
  });

  it('block params: the element and the index', () => {
    expect(uses('{{#each items as |item i|}}{{item.title}} {{i}} {{item}} {{other}}{{/each}}')).toEqual([
      'items:Array',
      'items.title:String',
      'items.other:String',
    ]);
  });

  it('nested block params resolve through each other; an inner name shadows an outer one', () => {
    expect(
      uses('{{#each posts as |p|}}{{#each p.tags as |t|}}{{t.label}} {{p.title}}{{/each}}{{/each}}'),
    ).toEqual(['posts:Array', 'posts.tags:Array', 'posts.tags.label:String', 'posts.title:String']);
    expect(uses('{{#each a as |x|}}{{#each b as |x|}}{{x.k}}{{/each}}{{/each}}')).toEqual([
      'a:Array',
      'a.b:Array',
      'a.b.k:String',
    ]);
  });

  it('{{#if b}} and {{#unless b}} → Boolean b, body in the same scope', () => {
    expect(uses('{{#if vip}}{{discount}}{{/if}}{{#unless paid}}{{due}}{{/unless}}')).toEqual([
      'vip:Boolean',
      'discount:String',
      'paid:Boolean',
      'due:String',
    ]);
  });

  it('if does not add a ../ level (Handlebars 4)', () => {
    expect(uses('{{#each xs}}{{#if flag}}{{../top}}{{/if}}{{/each}}')).toEqual([
      'xs:Array',
      'xs.flag:Boolean',
      'top:String',
    ]);
  });

  it('scans {{else}} branches, else-if chains and inverse sections', () => {
    expect(uses('{{#if a}}{{x}}{{else if b}}{{y}}{{else}}{{z}}{{/if}}')).toEqual([
      'a:Boolean',
      'x:String',
      'b:Boolean',
      'y:String',
      'z:String',
    ]);
    expect(uses('{{#each xs}}{{y}}{{else}}{{empty}}{{/each}}')).toEqual([
      'xs:Array',
      'xs.y:String',
      'empty:String',
    ]);
    expect(uses('{{^if a}}{{x}}{{/if}}')).toEqual(['a:Boolean', 'x:String']);
  });

  it('gives the uses only conditions read their conditions: the path known truthy there, or null', () => {
    const conditioned = (source: string) =>
      scanTemplate(source).usages.map(
        (u) =>
          `${u.name}${u.conditions ? ` [${u.conditions.map((c) => c?.join('.') ?? '-').join(', ')}]` : ''}`,
      );
    expect(conditioned('{{#if a}}{{x}}{{else if b}}{{y}}{{else}}{{z}}{{/if}}{{w}}')).toEqual([
      'a [-]',
      'x [a]',
      'b [-, -]',
      'y [-, b]',
      'z [-, -]',
      'w',
    ]);
    expect(conditioned('{{#unless paid}}{{due}}{{else}}{{paid.at}}{{/unless}}')).toEqual([
      'paid [-]',
      'due [-]',
      'paid.at [paid]',
    ]);
    expect(
      conditioned(
        '{{#each xs}}{{#if note}}{{note}}{{/if}}{{#with o}}{{k}}{{/with}}{{/each}}{{#if (f a)}}{{b}}{{/if}}',
      ),
    ).toEqual(['xs', 'xs.note [-]', 'xs.note [xs.note]', 'xs.o.k', 'a', 'b [-]']);
    expect(conditioned('{{#if a as |b|}}{{#each a.list as |item|}}{{item.n}}{{/each}}{{/if}}')).toEqual([
      'a [-]',
      'a.list [a]',
      'a.list.n [a]',
    ]);
  });

  it('{{#if (helper …)}}: the sub-expression arguments are String', () => {
    expect(uses('{{#if (gt total 100)}}{{bonus}}{{/if}}')).toEqual(['total:String', 'bonus:String']);
  });

  it('{{#with o}}{{k}}{{/with}} → o.k (o itself is not recorded)', () => {
    expect(uses('{{#with address}}{{city}} {{../name}}{{/with}}')).toEqual([
      'address.city:String',
      'name:String',
    ]);
    expect(uses('{{#with address as |a|}}{{a.zip}}{{/with}}')).toEqual(['address.zip:String']);
  });

  it('each over a sub-expression: its arguments count, its body cannot be attributed', () => {
    expect(uses('{{#each (sortBy items "date")}}{{title}} {{../total}}{{/each}}')).toEqual([
      'items:String',
      'total:String',
    ]);
  });

  it('a Mustache section {{#xs}}…{{/xs}} runs its body inside xs', () => {
    expect(uses('{{#person}}{{name}}{{/person}}{{^person}}{{fallback}}{{/person}}')).toEqual([
      'person.name:String',
      'fallback:String',
    ]);
  });
});

describe('scanTemplate: parse errors', () => {
  it.each([
    ['{{#each items}}', 15, /^Parse error on line 1: Expecting .*got 'EOF'$/],
    ['abc {{foo', 6, /got 'INVALID'$/],
    ['Hi {{name}', 9, /got 'INVALID'$/],
    ['x\n  {{ foo bar= }}', 16, /got 'CLOSE'$/],
    ['{{else}}', 0, /got 'INVERSE'$/],
    ['ok\n\n   {{#if a}}x{{/each}}', 10, /^if doesn't match each$/],
    ['text {{!-- never closed', 5, /^Lexical error on line 1\. Unrecognized text\.$/],
    ['{{foo.this.bar}}', 2, /^Invalid path: foo\.this/],
  ])('%j fails at offset %i', (source, offset, message) => {
    const scan = scanTemplate(source);
    expect(scan.usages).toEqual([]);
    expect(scan.error?.offset).toBe(offset);
    expect(scan.error?.message).toMatch(message);
    expect(scan.error?.message).not.toContain('\n');
  });

  it('does not let an earlier failure leak into the next parse', () => {
    expect(scanTemplate('{{#if').error).toBeDefined();
    expect(scanTemplate('{{fine}}')).toEqual({ usages: [{ name: 'fine', type: 'String', offset: 2 }] });
  });
});

describe('isSystemVariable', () => {
  it.each([
    'subscriber.firstName',
    'step.events',
    'tenant.name',
    'actor.firstName',
    'branding.logo',
    'preheader',
  ])('%s is the service’s own', (name) => {
    expect(isSystemVariable(name)).toBe(true);
  });

  it.each(['subscriber', 'tenant.', 'actor..x'])(
    '%j is the service’s own (its first segment is a prefix)',
    (name) => {
      expect(isSystemVariable(name)).toBe(true);
    },
  );

  it.each([
    'subscriberName',
    'steps.x',
    'order.subscriber',
    'preheaderText',
    'name',
    '',
    '.subscriber',
    'tenan',
  ])('%j is not', (name) => {
    expect(isSystemVariable(name)).toBe(false);
  });
});
