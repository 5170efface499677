import { createRequire } from 'node:module';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { scanTemplate } from '../../../src/derive/handlebars.js';
import { parseTemplate, setFastTemplateParsing } from '../../../src/derive/parse-template.js';
import { scanTemplateAsServer } from '../../../src/derive/server-scan.js';
import { findTooDeepToken } from '../../../src/derive/template-depth.js';
import type { HbsNode } from '../../../src/derive/types.js';
import { MAX_DEFINITION_DEPTH } from '../../../src/json.js';
import { runs } from '../../helpers/fc-runs.js';

const handlebars = createRequire(import.meta.url)(
  'handlebars/dist/cjs/handlebars/compiler/base.js',
) as typeof import('handlebars/dist/cjs/handlebars/compiler/base.js');

afterEach(() => {
  setFastTemplateParsing(true);
});

/** Where the scan stops, as a 0-based offset (single-line sources), or undefined. */
function tooDeepAt(source: string, max: number): number | undefined {
  const found = findTooDeepToken(source, handlebars.parser.lexer, handlebars.parser.terminals_, max);
  return found === undefined ? undefined : (found.column as number);
}

/**
 * The nesting of Handlebars' own AST: blocks (a chained `{{else if}}` is a block inside the inverse) and
 * sub-expressions along any path. Recursive: the test's reference, only run on small templates.
 */
function astDepth(node: unknown): number {
  if (typeof node !== 'object' || node === null) return 0;
  const n = node as HbsNode & Record<string, unknown>;
  const children = [
    n.program,
    n.inverse,
    n.path,
    ...(Array.isArray(n.params) ? n.params : []),
    ...(Array.isArray(n.body) ? n.body : []),
    ...(Array.isArray(n.hash?.pairs) ? n.hash.pairs.map((p: { value?: unknown }) => p.value) : []),
  ];
  const below = Math.max(0, ...children.map(astDepth));
  const own = ['BlockStatement', 'PartialBlockStatement', 'DecoratorBlock', 'SubExpression'].includes(
    String(n.type),
  );
  return below + (own ? 1 : 0);
}

const blocks = (n: number, inner = 'x') => '{{#if a}}'.repeat(n) + inner + '{{/if}}'.repeat(n);
const subs = (n: number) => `{{h ${'(h '.repeat(n)}x${')'.repeat(n)}}}`;
const chain = (n: number) => `{{#if a}}${'{{else if b}}'.repeat(n - 1)}x{{/if}}`;

describe('findTooDeepToken', () => {
  it.each([
    ['blocks', blocks],
    ['sub-expressions', subs],
    ['an `{{else if}}` chain', chain],
    [
      'sections and inverse blocks',
      (n: number) => '{{#a}}{{^b}}'.repeat(n / 2) + '{{/b}}{{/a}}'.repeat(n / 2),
    ],
    ['partial blocks', (n: number) => '{{#> p}}'.repeat(n) + '{{/p}}'.repeat(n)],
    ['blocks with sub-expressions', (n: number) => blocks(n / 2, subs(n / 2 - 0))],
  ])('passes %s nested to the limit and stops at the first token past it', (_what, build) => {
    expect(tooDeepAt(build(MAX_DEFINITION_DEPTH), MAX_DEFINITION_DEPTH)).toBeUndefined();
    expect(tooDeepAt(build(MAX_DEFINITION_DEPTH + 2), MAX_DEFINITION_DEPTH)).toBeGreaterThan(0);
  });

  it('points at the block that goes one level too deep', () => {
    expect(tooDeepAt(blocks(4), 3)).toBe(3 * '{{#if a}}'.length);
    expect(tooDeepAt(subs(4), 3)).toBe('{{h '.length + 3 * '(h '.length);
    expect(tooDeepAt(chain(4), 3)).toBe('{{#if a}}{{else if b}}{{else if b}}'.length);
  });

  it('counts nesting, not blocks one after another, and not what comments and raw blocks hold', () => {
    expect(tooDeepAt('{{#if a}}x{{/if}}'.repeat(1000), 1)).toBeUndefined();
    expect(tooDeepAt(`{{!-- ${blocks(100)} --}}{{! {{#a}}{{#a}} }}`, 1)).toBeUndefined();
    expect(tooDeepAt(`{{{{raw}}}}${'{{#if a}}'.repeat(100)}{{{{/raw}}}}`, 1)).toBeUndefined();
    expect(tooDeepAt(`{{h "((((" '((((' [((((]}}`, 0)).toBeUndefined();
    expect(tooDeepAt(`\\{{#if a}}${'\\{{#if a}}'.repeat(100)}`, 0)).toBeUndefined();
  });

  it('leaves a template the lexer cannot read to the parser', () => {
    expect(tooDeepAt(`${blocks(1)}{{!-- never closed ${blocks(100)}`, 2)).toBeUndefined();
  });

  it('stops a template 100,000 levels deep at the limit', () => {
    expect(tooDeepAt(blocks(100_000), MAX_DEFINITION_DEPTH)).toBe(MAX_DEFINITION_DEPTH * 9);
    expect(tooDeepAt(subs(100_000), MAX_DEFINITION_DEPTH)).toBe(4 + MAX_DEFINITION_DEPTH * 3);
  });

  // Templates from a small grammar of nesting constructs, against the depth of the AST Handlebars builds.
  const { template } = fc.letrec<{ template: string; node: string; expression: string }>((tie) => ({
    template: fc.array(tie('node'), { maxLength: 3 }).map((nodes) => nodes.join('')),
    expression: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom('x', '"(("', '[a)]', '1'),
      tie('expression').map((e) => `(h ${e})`),
      fc.tuple(tie('expression'), tie('expression')).map(([a, b]) => `(h ${a} k=${b})`),
    ),
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom('text', '{{! (( {{#a}} }}', '{{{{raw}}}}{{#a}}{{{{/raw}}}}'),
      tie('expression').map((e) => `{{h ${e}}}`),
      fc
        .tuple(
          fc.constantFrom('if', 'each', 'with', 'custom'),
          tie('expression'),
          tie('template'),
          fc.array(fc.tuple(tie('expression'), tie('template')), { maxLength: 2 }),
          fc.option(tie('template')),
        )
        .map(
          ([helper, subject, body, chained, otherwise]) =>
            `{{#${helper} ${subject}}}${body}${chained.map(([e, t]) => `{{else if ${e}}}${t}`).join('')}` +
            `${otherwise === null ? '' : `{{else}}${otherwise}`}{{/${helper}}}`,
        ),
      fc.tuple(tie('template')).map(([body]) => `{{^s}}${body}{{/s}}`),
    ),
  }));

  it("agrees with the depth of Handlebars' own AST", () => {
    fc.assert(
      fc.property(template, fc.integer({ min: 0, max: 6 }), (source, max) => {
        const depth = astDepth(handlebars.parseWithoutProcessing(source));
        expect(tooDeepAt(source, max) !== undefined).toBe(depth > max);
      }),
      { numRuns: runs(300) },
    );
  });
});

describe('parseTemplate of a template nested past the limit', () => {
  it.each([
    ['blocks (the fast parser declines them)', blocks(MAX_DEFINITION_DEPTH + 1), 9 * MAX_DEFINITION_DEPTH],
    ['sub-expressions', subs(100_000), 4 + 3 * MAX_DEFINITION_DEPTH],
    ['an `{{else if}}` chain', chain(100_000), 9 + 13 * (MAX_DEFINITION_DEPTH - 1)],
  ])('refuses %s unparsed, at the offending token', (_what, source, offset) => {
    for (const fast of [true, false]) {
      setFastTemplateParsing(fast);
      expect(parseTemplate(source)).toEqual({
        ok: false,
        message: `Handlebars nested deeper than ${MAX_DEFINITION_DEPTH} levels (blocks, \`{{else if}}\` chains and sub-expressions)`,
        offset,
        tooDeep: true,
      });
    }
  });

  it('reads one nested exactly to the limit, through both parsers', () => {
    for (const fast of [true, false]) {
      setFastTemplateParsing(fast);
      const parsed = parseTemplate(blocks(MAX_DEFINITION_DEPTH, '{{y}}'));
      expect(parsed.ok).toBe(true);
      const names = scanTemplate(blocks(MAX_DEFINITION_DEPTH, '{{y}}')).usages.map((u) => u.name);
      expect(names).toEqual([...Array(MAX_DEFINITION_DEPTH).fill('a'), 'y']);
    }
  });

  it('gives both scanners the refusal as their error, without a stack overflow', () => {
    const source = blocks(100_000);
    const error = { message: expect.stringContaining('nested deeper'), offset: 576, tooDeep: true };
    expect(scanTemplate(source)).toEqual({ usages: [], error });
    expect(scanTemplateAsServer(source)).toEqual({ usages: [], error });
  });
});
