import { afterEach, describe, expect, it } from 'vitest';
import { fastParseTemplate } from '../../../src/derive/fast-template.js';
import { BoundedMemo } from '../../../src/derive/memo.js';
import { lineStartsOf, parseTemplate, setFastTemplateParsing } from '../../../src/derive/parse-template.js';
import type { HbsNode } from '../../../src/derive/types.js';

afterEach(() => {
  setFastTemplateParsing(true);
});

const EXPECTING_TOKEN =
  "Expecting 'ID', 'STRING', 'NUMBER', 'BOOLEAN', 'UNDEFINED', 'NULL', 'DATA', got 'INVALID'";
const EXPECTING_STATEMENT =
  "Expecting 'COMMENT', 'CONTENT', 'OPEN_RAW_BLOCK', 'OPEN_BLOCK', 'OPEN_INVERSE', 'OPEN_INVERSE_CHAIN', " +
  "'INVERSE', 'OPEN_ENDBLOCK', 'OPEN', 'OPEN_UNESCAPED', 'OPEN_PARTIAL', 'OPEN_PARTIAL_BLOCK', got 'EOF'";

describe('parseTemplate: parse errors as one line and a 0-based offset', () => {
  // [template, message, offset]
  it.each([
    ['abc {{foo', `Parse error on line 1: ${EXPECTING_TOKEN}`, 6],
    ['a\r\n{{x}}\r\n{{y', `Parse error on line 3: ${EXPECTING_TOKEN}`, 12],
    ['a\n{{#if}}', `Parse error on line 2: ${EXPECTING_STATEMENT}`, 9],
    ['{{#each a}}{{/each}}{{/each}}', "Parse error on line 1: Expecting 'EOF', got 'OPEN_ENDBLOCK'", 20],
    // A Handlebars exception: its ` - line:column` suffix is dropped, however many digits it has.
    ['ok\r\n\r   {{#if a}}x{{/each}}', "if doesn't match each", 11],
    [`${'\n'.repeat(11)}          {{#if a}}x{{/each}}`, "if doesn't match each", 24],
    ['{{foo.this.bar}}', 'Invalid path: foo.this', 2],
    // The lexer stops in front of what it cannot read.
    ['text {{!-- never closed', 'Lexical error on line 1. Unrecognized text.', 5],
    ['a\r\n{{!-- x', 'Lexical error on line 2. Unrecognized text.', 3],
  ])('%j', (source, message, offset) => {
    expect(parseTemplate(source)).toEqual({ ok: false, message, offset });
  });
});

describe('parseTemplate: offsets of nodes', () => {
  // One template the fast parser answers for, one only Handlebars reads (a comment): both map positions alike.
  it.each([
    ['the fast parser', 'ab\r\ncd\n{{x}}'],
    ['Handlebars', 'ab\r\ncd\n{{x}}{{! c }}'],
  ])('through %s', (_, source) => {
    const parsed = parseTemplate(source);
    if (!parsed.ok) throw new Error(parsed.message);
    const at = (line: unknown, column: unknown): number =>
      parsed.offsetOf({ loc: { start: { line, column } } } as HbsNode);
    expect(parsed.offsetOf(parsed.program.body?.[1]?.path)).toBe(source.indexOf('x}}'));
    expect(at(1, 1)).toBe(1);
    expect(at(2, 1)).toBe(5);
    expect(at(3, 0)).toBe(7);
    // Clamped into the source: lines before the first and after the last, columns past either end.
    expect(at(0, 1)).toBe(1);
    expect(at(-4, 2)).toBe(2);
    expect(at(9, 1)).toBe(8);
    expect(at(2, 99)).toBe(source.length);
    expect(at(2, -9)).toBe(0);
    // Without a position: 0.
    expect(at(2, undefined)).toBe(0);
    expect(at(undefined, 1)).toBe(0);
    expect(at('2', 1)).toBe(0);
    expect(parsed.offsetOf({} as HbsNode)).toBe(0);
    expect(parsed.offsetOf({ loc: {} } as HbsNode)).toBe(0);
    expect(parsed.offsetOf(undefined)).toBe(0);
  });
});

describe('parseTemplate: which parser answers', () => {
  it('the fast parser for the templates it knows, Handlebars for the rest', () => {
    const source = 'Hi {{name}}';
    const parsed = parseTemplate(source);
    expect(parsed.ok && parsed.program).toEqual(fastParseTemplate(source)?.program);
    const comment = parseTemplate('Hi {{! c }}');
    // Handlebars' Program carries its own location and whitespace flags; the fast parser builds neither.
    expect(comment.ok && Object.keys(comment.program)).toEqual(['type', 'body', 'strip', 'loc']);
  });

  it('Handlebars alone when the fast parser is off, and no answer of the other mode is reused', () => {
    const source = 'Hi {{name}}';
    expect(
      parseTemplate(source).ok && Object.keys((parseTemplate(source) as { program: object }).program),
    ).toEqual(['type', 'body']);
    setFastTemplateParsing(false);
    const slow = parseTemplate(source);
    expect(slow.ok && Object.keys(slow.program)).toEqual(['type', 'body', 'strip', 'loc']);
    setFastTemplateParsing(true);
    const fast = parseTemplate(source);
    expect(fast.ok && Object.keys(fast.program)).toEqual(['type', 'body']);
  });

  it('gives the same answer object for the same string asked twice in a row', () => {
    const first = parseTemplate('{{a}} {{b}}');
    expect(parseTemplate('{{a}} {{b}}')).toBe(first);
    parseTemplate('{{c}}');
    expect(parseTemplate('{{a}} {{b}}')).not.toBe(first);
  });
});

describe('lineStartsOf', () => {
  it.each([
    ['', [0]],
    ['abc', [0]],
    ['a\nb', [0, 2]],
    ['a\r\nb', [0, 3]],
    ['a\rb', [0, 2]],
    ['\n\r\n\r', [0, 1, 3, 4]],
    ['\r\r\n\n', [0, 1, 3, 4]],
    ['a\u2028b', [0]],
  ])('%j → %j', (source, starts) => {
    expect(lineStartsOf(source)).toEqual(starts);
  });
});

describe('BoundedMemo', () => {
  it('computes a value once, keeps at most `limit` entries and drops the oldest first', () => {
    const computed: string[] = [];
    const memo = new BoundedMemo<string>(2);
    const get = (key: string): string =>
      memo.get(key, (k) => {
        computed.push(k);
        return k.toUpperCase();
      });
    expect([get('a'), get('a'), get('b'), get('a')]).toEqual(['A', 'A', 'B', 'A']);
    expect(computed).toEqual(['a', 'b']);
    expect(get('c')).toBe('C'); // a out
    expect([get('b'), get('c')]).toEqual(['B', 'C']);
    expect(computed).toEqual(['a', 'b', 'c']);
    expect(get('a')).toBe('A');
    expect(computed).toEqual(['a', 'b', 'c', 'a']);
    memo.clear();
    get('a');
    expect(computed).toEqual(['a', 'b', 'c', 'a', 'a']);
  });
});
