import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { fastParseTemplate } from '../../../src/derive/fast-template.js';
import { parseTemplate } from '../../../src/derive/parse-template.js';
import { textSourcesOfStep } from '../../../src/derive/trigger.js';
import { syntheticDefinition } from '../../bench/synthetic.mjs';
import { fastAgreesWithHandlebars, walkersAgree } from './template-reference.js';

/** Every string the trigger derivation scans in a workflow definition's text. */
function templatesOf(text: string): string[] {
  const definition = parse(text) as { steps?: unknown[] };
  return (definition.steps ?? []).flatMap((step) => textSourcesOfStep(step).map((s) => s.text));
}

/** Checks the fast parser answers for `source`, like Handlebars does, and the walkers read it the same. */
function expectAnswered(source: string): void {
  expect(fastAgreesWithHandlebars(source), JSON.stringify(source)).toBe(true);
  walkersAgree(source);
}

describe('fastParseTemplate answers for real templates', () => {
  it('for every template of the benchmark definitions', () => {
    const templates = Array.from({ length: 40 }, (_, i) => templatesOf(syntheticDefinition(i))).flat();
    expect(templates.length).toBeGreaterThan(40);
    for (const source of templates) expectAnswered(source);
  });

  it('for every template of workflows/*.yaml', async () => {
    const folder = join(import.meta.dirname, '../../../workflows');
    const files = (await readdir(folder)).filter((file) => file.endsWith('.yaml'));
    const templates = (await Promise.all(files.map((f) => readFile(join(folder, f), 'utf8')))).flatMap(
      templatesOf,
    );
    expect(templates.filter((t) => t.includes('{{')).length).toBeGreaterThan(20);
    for (const source of templates) expectAnswered(source);
  });

  it('through parseTemplate, with the offsets of Handlebars line/column pairs', () => {
    const source = 'a\r\nb\rc\n{{#each xs}}\r\n  {{x.y}}{{else}}{{{ z }}}{{/each}}';
    const parsed = parseTemplate(source);
    if (!parsed.ok) throw new Error(parsed.message);
    const [, block] = parsed.program.body ?? [];
    const [, mustache] = block?.program?.body ?? [];
    const [unescaped] = block?.inverse?.body ?? [];
    expect(parsed.offsetOf(block)).toBe(source.indexOf('{{#each'));
    expect(parsed.offsetOf(block?.params?.[0])).toBe(source.indexOf('xs'));
    expect(parsed.offsetOf(mustache?.path)).toBe(source.indexOf('x.y'));
    expect(parsed.offsetOf(unescaped?.path)).toBe(source.indexOf('z }}}'));
    expect(parsed.offsetOf(undefined)).toBe(0);
  });
});

describe('fastParseTemplate builds what Handlebars builds', () => {
  it('for a block with else, params and dotted paths', () => {
    const source = 'Hi {{#if a.b}}{{upper c d.e}}{{else}}x{{/if}}';
    expectAnswered(source); // the AST below is Handlebars' too, on the fields compared
    const fast = fastParseTemplate(source);
    expect(fast?.program).toEqual({
      type: 'Program',
      body: [
        { type: 'ContentStatement', original: 'Hi ', loc: { start: { line: 1, column: 0 } } },
        {
          type: 'BlockStatement',
          path: path('if', 1, 6),
          params: [path('a.b', 1, 9)],
          program: {
            type: 'Program',
            blockParams: undefined,
            body: [
              {
                type: 'MustacheStatement',
                path: path('upper', 1, 16),
                params: [path('c', 1, 22), path('d.e', 1, 24)],
                loc: { start: { line: 1, column: 14 } },
              },
            ],
          },
          inverse: {
            type: 'Program',
            body: [{ type: 'ContentStatement', original: 'x', loc: { start: { line: 1, column: 37 } } }],
          },
          loc: { start: { line: 1, column: 3 } },
        },
      ],
    });
    expect(fast?.lineStarts).toEqual([0]);
  });

  // Each of these sits next to something Handlebars lexes in a surprising way; all are read as Handlebars does.
  it.each([
    ['an empty template', ''],
    ['content alone, with braces that open nothing', 'a } }} { b \\ c'],
    ['an inverse, then a lone `}` (rule 16 closes `{{else}}` at the first `}}`)', '{{#a}}{{else}}}{{/a}}'],
    ['`else` with spaces and line breaks around it', '{{#a}}{{ \r\n else\t}}{{/a}}'],
    ['a name that starts with `else`', '{{elsewhere}}{{else_x}}{{else1}}'],
    ['a block named `else`', '{{#else}}x{{/else}}'],
    ['names that start with a keyword', '{{trueish nullable thisone undefinedx}}'],
    ['`as` as a name', '{{as as}}{{#each as}}{{/each}}'],
    ['ID punctuation Handlebars allows', '{{$a:b?c-d _e}}'],
    ['non-ASCII names, astral ones and lone surrogates', '{{prénom 名前.😀 \ud800}}'],
    ['line breaks of every kind inside mustaches', '{{\r\nx\ry\nz\r\n}}{{#a\n}}\r{{/a\r\n}}'],
    ['a backslash that escapes nothing', 'a\\b {{x}} c\\'],
    ['empty blocks and an empty else', '{{#a}}{{/a}}{{#b c}}{{else}}{{/b}}'],
    ['nested blocks with the same name', '{{#each a}}{{#each b}}{{x}}{{/each}}{{/each}}'],
    ['a triple-stash', '{{{ html }}}'],
    ['a triple-stash of `else`', '{{{else}}}{{x else}}'],
  ])('for %s', (_, source) => {
    expectAnswered(source);
  });
});

describe('fastParseTemplate leaves to Handlebars', () => {
  it.each([
    ['an escaped mustache', 'a \\{{x}}'],
    ['an escaped backslash before a mustache', 'a \\\\{{x}}'],
    ['a comment', '{{! c }}'],
    ['a long comment', '{{!-- c --}}'],
    ['whitespace control', '{{~x}}'],
    ['whitespace control on the close', '{{x~}}'],
    ['a parent path', '{{../x}}'],
    ['`this`', '{{this}}'],
    ['a path through `this`', '{{this.x}}'],
    ['`this` after a segment (Invalid path)', '{{x.this}}'],
    ['`./`', '{{./x}}'],
    ['data', '{{@index}}'],
    ['a bracketed segment', '{{[a b]}}'],
    ['a bracketed later segment', '{{a.[b]}}'],
    ['a slash separator', '{{a/b}}'],
    ['a partial', '{{> p}}'],
    ['a partial block', '{{#> p}}x{{/p}}'],
    ['a decorator', '{{* d}}'],
    ['a decorator block', '{{#* d}}x{{/d}}'],
    ['an inverse section', '{{^a}}x{{/a}}'],
    ['a standalone inverse', '{{#a}}x{{^}}y{{/a}}'],
    ['an else chain', '{{#if a}}x{{else if b}}y{{/if}}'],
    ['`else` glued to a non-word character (rule 18)', '{{#if a}}{{else$}}{{/if}}'],
    ['`else` before a Unicode space', '{{#if a}}{{else\u00a0}}{{/if}}'],
    ['a second else', '{{#if a}}{{else}}{{else}}{{/if}}'],
    ['an else outside a block', '{{else}}'],
    ['a sub-expression', '{{f (g x)}}'],
    ['a hash argument', '{{f k=v}}'],
    ['a string literal', '{{f "s"}}'],
    ['a number literal', '{{f 5}}'],
    ['a number-like segment', '{{a.1}}'],
    ['a segment that starts with a digit', '{{1a}}'],
    ['a segment that starts with `-`', '{{-a}}'],
    ['a boolean literal', '{{true}}'],
    ['a `null` literal', '{{f null}}'],
    ['an `undefined` literal', '{{f undefined}}'],
    ['a `false` literal', '{{#if false}}x{{/if}}'],
    ['a keyword segment', '{{a.false}}'],
    ['block params', '{{#each xs as |x|}}{{x}}{{/each}}'],
    ['an unescaped `&`', '{{& x}}'],
    ['a raw block', '{{{{raw}}}}x{{{{/raw}}}}'],
    ['a mustache closed by `}}}`', '{{x}}}'],
    ['a triple-stash closed by `}}}}`', '{{{x}}}}'],
    ['a triple-stash closed by `}}`', '{{{x}}'],
    ['an unclosed mustache', 'a {{x'],
    ['an empty mustache', '{{}}'],
    ['a `.` glued to a space', '{{a. b}}'],
    ['a double dot', '{{a..b}}'],
    ['an unclosed block', '{{#if a}}x'],
    ['a mismatched close', '{{#if a}}x{{/each}}'],
    ['a close with arguments', '{{#if a}}x{{/if a}}'],
    ['a close without an open', 'x{{/if}}'],
    ['NUL in content', 'a\0b'],
    ['U+2028 in content (Handlebars miscounts columns after it)', 'a\n\u2028{{x}}'],
    ['U+2029 in a mustache', '{{x\u2029}}'],
    ['a Unicode space in a mustache', '{{\u00a0x}}'],
    ['a byte-order mark in a mustache', '{{x\ufeffy}}'],
    ['a control character in a name', '{{a\u0001}}'],
    ['DEL in a name', '{{a\u007f}}'],
    ['an `=` after a name', '{{a=}}'],
    ['a `|` after a name', '{{a|b}}'],
    ['a `(` after a name', '{{a(b)}}'],
  ])('%s', (_, source) => {
    expect(fastParseTemplate(source)).toBeUndefined();
    walkersAgree(source);
  });

  it('every character Handlebars reads as part of a name is read so, or declined', () => {
    // Each UTF-16 code unit at the start and in the middle of a name, and in content. Where the fast parser answers,
    // the code unit is in Handlebars' ID class (rule 41); compared with Handlebars' whole parse below U+0800 and for
    // every white space beyond (the checks that matter are there), which keeps this exhaustive check cheap.
    const ID = /^[^\s!"#%-,./;->@[-^`{-~]$/;
    const spaces = [...'\u1680\u2000\u200a\u200b\u2028\u2029\u202f\u205f\u3000\ufeff\ufffe\uffff'];
    let answered = 0;
    for (let code = 0; code <= 0xffff; code++) {
      const c = String.fromCharCode(code);
      const source = `{{${c}a.b${c} x}}${c}`;
      if (code < 0x800 || spaces.includes(c)) {
        if (fastAgreesWithHandlebars(source)) answered++;
      } else if (fastParseTemplate(source) !== undefined) {
        expect(ID.test(c), `U+${code.toString(16)}`).toBe(true);
        answered++;
      }
    }
    expect(answered).toBeGreaterThan(60_000);
  });
});

/** A PathExpression as Handlebars builds it for plain dotted segments. */
function path(original: string, line: number, column: number): unknown {
  return {
    type: 'PathExpression',
    data: false,
    depth: 0,
    parts: original.split('.'),
    original,
    loc: { start: { line, column } },
  };
}

describe('fastParseTemplate at the edges of the character classes', () => {
  // [code unit, whether a name may hold it]: each side of every range the scanner tests, so a shifted bound shows.
  // biome-ignore format: a table of code units
  const EDGES: Array<[number, boolean]> = [
    [0x2f, false], [0x30, true], [0x39, true], [0x3a, true], [0x40, false], [0x41, true], [0x5a, true], [0x5b, false],
    [0x5f, true], [0x60, false], [0x61, true], [0x7a, true], [0x7b, false], [0x7f, false], [0x80, true],
    [0x9f, true], [0xa0, false], [0xa1, true], [0x167f, true], [0x1680, false], [0x1681, true], [0x1fff, true],
    [0x2000, false], [0x2005, false], [0x200a, false], [0x200b, true], [0x2027, true], [0x2028, false],
    [0x2029, false], [0x202a, true], [0x202e, true], [0x202f, false], [0x2030, true], [0x205e, true],
    [0x205f, false], [0x2060, true], [0x2fff, true], [0x3000, false], [0x3001, true], [0xfefe, true],
    [0xfeff, false], [0xff00, true],
  ];

  it.each(EDGES)('code unit %i inside a name: answered %s', (code, inName) => {
    const source = `{{a${String.fromCharCode(code)}b}}`;
    expect(fastParseTemplate(source) !== undefined, source).toBe(inName);
    if (inName) expectAnswered(source);
  });

  it.each([
    [0x08, false],
    [0x09, true],
    [0x0a, true],
    [0x0b, true],
    [0x0c, true],
    [0x0d, true],
    [0x0e, false],
    [0x1f, false],
    [0x20, true],
    [0x21, false],
  ])('code unit %i between a name and the close: answered %s (ASCII white space)', (code, space) => {
    const source = `{{a${String.fromCharCode(code)}}}`;
    expect(fastParseTemplate(source) !== undefined, JSON.stringify(source)).toBe(space);
    if (space) expectAnswered(source);
  });

  it.each([
    ['{{else}}', 'inverse'],
    ['{{else:}}', 'chain'],
    ['{{else?}}', 'chain'],
    ['{{else-}}', 'chain'],
    ['{{else$}}', 'chain'],
    ['{{else_}}', 'mustache'],
    ['{{elseA}}', 'mustache'],
    ['{{else0}}', 'mustache'],
    ['{{ else\t}}', 'inverse'],
  ])('%j after a block: %s (`\\b` after else)', (tag, kind) => {
    const source = `{{#if a}}${tag}{{/if}}`;
    const fast = fastParseTemplate(source);
    if (kind === 'chain') {
      expect(fast).toBeUndefined();
      walkersAgree(source);
      return;
    }
    expectAnswered(source);
    const [block] = fast?.program.body ?? [];
    expect(block?.inverse !== undefined).toBe(kind === 'inverse');
  });

  it.each([
    ['true', false],
    ['trues', true],
    ['false', false],
    ['falsey', true],
    ['null', false],
    ['nul', true],
    ['this', false],
    ['thi', true],
    ['undefined', false],
    ['undefine', true],
    ['undefinedx', true],
    ['-', false],
    ['0', false],
    ['9', false],
    ['_0', true],
  ])('the segment %j is a plain name: %s', (segment, plain) => {
    for (const source of [`{{${segment}}}`, `{{x ${segment}}}`, `{{x.${segment}}}`]) {
      expect(fastParseTemplate(source) !== undefined, source).toBe(plain);
      if (plain) expectAnswered(source);
      else walkersAgree(source);
    }
  });
});
