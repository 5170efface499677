import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastPathObstacle } from '../../../src/definitions/fast-text.js';
import { assertProperty } from '../../helpers/fc-assert.js';
import { runs } from '../../helpers/fc-runs.js';
import { REAL_TEXTS } from './yaml-arbitraries.js';

/*
 * The oracle: fastPathObstacle as it was first written, one regular expression (verbatim), kept to hold the
 * hand-written scanner to exactly the same answers, description text included.
 */
const OBSTACLES =
  /(?![\n\r])\p{Cc}|\r(?!\n)|[\uFEFF\u2028\u2029]|<<|__proto__|\\[\s\S]?|(?<![^\s[{,:])!|(?<![^\s[{,])[?:](?=[\s,\]}]|$)|(?<!\S)[|>](?:[1-9][-+]?|[-+][1-9])(?!\S)|(?:[[,:]|(?<!\{)\{)#|^( +)\r?\n(?: *\r?\n)*(?!\1) *#|^( *)#(?=[^\n]*\n(?: *(?:#[^\n]*)?\r?\n)*\2 +(?!\r\n)[^ \n#])|^(?:%|---|\.\.\.(?=\s|$))/gmu;
const COMMON_ESCAPES = new Set(['\\n', '\\t', '\\"', '\\\\', '\\/']);
const BLANK_OR_COMMENT_LINE = /^ *(?:#.*)?\r?$/;
const AFTER_MARKER = /^(?: +(?:#.*)?)?\r?$/;

function referenceObstacle(text: string): string | undefined {
  OBSTACLES.lastIndex = 0;
  let markers = 0;
  for (let match = OBSTACLES.exec(text); match !== null; match = OBSTACLES.exec(text)) {
    const found = match[0];
    if (COMMON_ESCAPES.has(found)) continue;
    if (found !== '---') return describeReference(found);
    const at = match.index;
    markers++;
    if (
      markers > 1 ||
      !text
        .slice(0, at)
        .split('\n')
        .every((line) => BLANK_OR_COMMENT_LINE.test(line))
    )
      return 'a document marker (---) after content';
    const lineEnd = text.indexOf('\n', at);
    if (!AFTER_MARKER.test(text.slice(at + 3, lineEnd === -1 ? text.length : lineEnd)))
      return 'content after ---';
  }
  return referenceLongLine(text) ? 'a line over 1,000 characters' : undefined;
}

function describeReference(found: string): string {
  switch (found) {
    case '<<':
      return 'a merge key (<<)';
    case '__proto__':
      return '__proto__';
    case '!':
      return 'a tag (!)';
    case '?':
      return 'a complex key (?)';
    case ':':
      return 'an empty key (:)';
    case '%':
      return 'a directive (%)';
    case '...':
      return 'a document end marker (...)';
    case '\t':
      return 'a tab';
  }
  if (found.startsWith('\\')) return 'a backslash other than \\n, \\t, \\", \\\\ or \\/';
  if (/^ *#$/.test(found)) return COMMENT_LINE;
  if (/^ +\r?\n[ \r\n]*#$/.test(found)) return BLANK_BEFORE_COMMENT;
  if (found.endsWith('#')) return 'a comment right after [ , : or {';
  if (found.length > 1) return `a block scalar indentation indicator (${found})`;
  return `the character U+${found.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

function referenceLongLine(text: string): boolean {
  let start = 0;
  for (;;) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    if (end - start > 1000) return true;
    if (newline === -1) return false;
    start = newline + 1;
  }
}

function agree(text: string): void {
  expect(fastPathObstacle(text), JSON.stringify(text)).toBe(referenceObstacle(text));
}

const ESCAPE = 'a backslash other than \\n, \\t, \\", \\\\ or \\/';
const COMMENT = 'a comment right after [ , : or {';
const COMMENT_LINE = 'a comment line less indented than the next line with content';
const BLANK_BEFORE_COMMENT = 'a comment line less indented than a blank line before it';

describe('fastPathObstacle (scanner) against the regular expression it replaces', () => {
  it.each<[string, string | undefined]>([
    ['\\\\x', undefined], // `\\` is one escape: the x after it starts nothing
    ['\\\\\\x', ESCAPE],
    ['"\\\\\\\\\\"', undefined],
    ['a\\', ESCAPE],
    ['a\\\ud83d\ude00', ESCAPE],
    ['a\u3000!b', 'a tag (!)'],
    ['a\u00a0? b', 'a complex key (?)'],
    ['a\u200b!b', undefined], // a zero-width space is no blank to `\s`
    ['a\u180e!b', undefined],
    ['a:!b', 'a tag (!)'],
    ['a:? b', undefined], // `?` and `:` need a blank or `[{,` before them, not `:`
    [':#', COMMENT], // not an empty key: `#` is no blank
    ['a: ?', 'a complex key (?)'],
    ['{a: 1, :}', 'an empty key (:)'],
    ['a :\u3000b', 'an empty key (:)'],
    ['{{#if a}}x{{/if}}', undefined],
    ['a{#', COMMENT],
    ['a: |2-\n', 'a block scalar indentation indicator (|2-)'],
    ['a: |2-x\n', undefined],
    ['a: >+9', 'a block scalar indentation indicator (>+9)'],
    ['a: |0\n', undefined],
    ['a:|2\n', undefined],
    ['...', 'a document end marker (...)'],
    ['....', undefined],
    ['a: b\n... # end\n', 'a document end marker (...)'],
    ['# c\n  # d\r\n\n--- # e\r\na: b\n', undefined],
    ['# c\n---\n--- # e\n', 'a document marker (---) after content'],
    ['x\n---\n', 'a document marker (---) after content'],
    ['---  #x\tz\n', 'a tab'], // the marker passes, the scan goes on after it
    ['--- # a\rb\n', 'content after ---'], // reported before the lone CR that follows it
    ['---#\n', 'content after ---'],
    ['----\n', 'content after ---'],
    ['a\u2028%', 'the character U+2028'],
    ['\u0085', 'the character U+0085'],
    ['\u009f\u00a0', 'the character U+009F'],
    ['a\r', 'the character U+000D'],
    ['a\r\n', undefined],
    [`${'x'.repeat(1000)}\n${'y'.repeat(1000)}`, undefined],
    [`${'x'.repeat(1000)}\r\n`, 'a line over 1,000 characters'],
    [`a\n${'y'.repeat(1001)}`, 'a line over 1,000 characters'],
    [`${'x'.repeat(1001)}\na: !b`, 'a tag (!)'], // any obstacle outranks a long line
    ['___proto__', '__proto__'],
    ['__proto_', undefined],
    ['a <<', 'a merge key (<<)'],
    ['# c\n  a', COMMENT_LINE],
    ['s:\n#c\n\n  |\nr: 1\n', COMMENT_LINE],
    ['a:\n  # c\n  b\n', undefined], // as indented as the line after it
    ['a:\n    # c\n  b\n', undefined],
    ['# c\n  # d\n\r\n   b', COMMENT_LINE], // blank and comment lines skipped
    ['# c\n  # d\n\r\nb', undefined],
    ['# c\n \r\n', undefined],
    ['# c\n  ', undefined],
    ['# c', undefined],
    ['# c\n \rb', COMMENT_LINE], // a lone CR is content, reported after the comment
    ['# c\n \u00a0b', COMMENT_LINE], // NBSP is content to YAML
    ['a: b # c\n  d', undefined], // not a comment line
    ['  x # c\n   d', undefined],
    ['#\t\n a', COMMENT_LINE], // the comment line comes before the tab in it
    ['k: |\n  \n #c\n', BLANK_BEFORE_COMMENT],
    ['k: |\n   \r\n\n\r\n  # c', BLANK_BEFORE_COMMENT],
    ['k: |\n  \n  #c\n', undefined],
    ['k: |\n  \n x\n #c\n', undefined], // not right after the blank line
    ['a:\n  \n# c\nb: 1\n', BLANK_BEFORE_COMMENT], // a false alarm outside a block scalar: the slow path is right too
    ['  \n #c\n   d', BLANK_BEFORE_COMMENT], // reported at the blank line, before the deeper line after
  ])('%j: %s', (text, expected) => {
    expect(fastPathObstacle(text)).toBe(expected);
    expect(referenceObstacle(text)).toBe(expected);
  });

  it('agrees for every UTF-16 code unit in every context', () => {
    const contexts = [
      'a X b',
      'X',
      '[X',
      ': X',
      'X\n',
      'X!',
      'X? ',
      'X: ',
      'X|2',
      'X%',
      'X---',
      '?X',
      '\\X',
      '|2X',
      '#\n X',
      ' #\n  X',
      'X#\n a',
      '   \nX #',
      '  X\n #',
    ];
    const mismatches: string[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      const unit = String.fromCharCode(code);
      for (const context of contexts) {
        const text = context.replace('X', unit);
        const actual = fastPathObstacle(text);
        const expected = referenceObstacle(text);
        if (actual !== expected) mismatches.push(`${JSON.stringify(text)}: ${actual} instead of ${expected}`);
      }
    }
    expect(mismatches.slice(0, 20)).toEqual([]);
  });

  /** Every obstacle and its near misses, the blanks that count as `\s` and some that do not. */
  const TOKENS = [
    ...['\t', '\r', '\n', '\n', '\r\n', '\0', '\u0007', '\u001f', '\u007f', '\u0085', '\u009f', '\u00a0'],
    ...['\u1680', '\u2000', '\u200a', '\u200b', '\u202f', '\u205f', '\u3000', '\ufeff', '\u2028', '\u2029'],
    ...['\ud800', '\udc00', '\ud83d\ude00', 'é', ' ', ' ', '  ', 'a', 'key', '"', "'", '<', '<<', '_'],
    ...[
      '__proto__',
      '__proto_',
      '_proto__',
      '\\',
      '\\n',
      '\\t',
      '\\"',
      '\\\\',
      '\\/',
      '\\x',
      '\\\\\\',
      '\\ ',
    ],
    ...[
      '!',
      '!!str',
      '?',
      '? ',
      ':',
      ': ',
      '::',
      '#',
      '# c',
      '[',
      ']',
      '{',
      '}',
      '{{',
      '{{#if a}}',
      '{{/if}}',
    ],
    ...[
      ',',
      '|',
      '>',
      '|2',
      '|-',
      '|+',
      '|2-',
      '|-2',
      '>+1',
      '|0',
      '|10',
      '1',
      '-',
      '+',
      '- ',
      '%',
      '%YAML 1.2',
    ],
    ...['--', '---', '--- ', '--- # c', '---#', '----', '.', '..', '...', '... ', '....'],
    ...['\n#', '\n# c\n', '\n  # c', '\n ', '\n  ', '\n    x', '\n   \n', '  \n'],
  ];
  const token = fc.oneof(
    { weight: 20, arbitrary: fc.constantFrom(...TOKENS) },
    { weight: 1, arbitrary: fc.integer({ min: 995, max: 1005 }).map((n) => 'x'.repeat(n)) },
  );
  const soup = fc.array(token, { maxLength: 40 }).map((parts) => parts.join(''));
  /** A leading marker after blank and comment lines (or not quite), then anything. */
  const marked = fc
    .record({
      head: fc.array(fc.constantFrom('', ' ', '# c', '  # c', '#', '# a\r', '#\u2028', 'x', '\t'), {
        maxLength: 3,
      }),
      eol: fc.constantFrom('\n', '\r\n', '\r'),
      marker: fc.constantFrom('---', '...', '--', '----', '--- '),
      after: fc.constantFrom(
        '',
        ' ',
        ' # c',
        '#c',
        ' x',
        '\r',
        ' \r',
        ' # c\r',
        ' #\u2028',
        ' \t',
        ' # a\rb',
      ),
      body: soup,
    })
    .map(
      ({ head, eol, marker, after, body }) =>
        `${head.map((line) => line + eol).join('')}${marker}${after}\n${body}`,
    );
  /** Real workflow files with tokens put in or swapped in at random places. */
  const edited = fc
    .tuple(
      fc.constantFrom(...REAL_TEXTS),
      fc.array(fc.tuple(fc.nat(), fc.nat({ max: 3 }), token), { maxLength: 4 }),
    )
    .map(([text, edits]) =>
      edits.reduce((t, [at, cut, part]) => {
        const i = at % (t.length + 1);
        return t.slice(0, i) + part + t.slice(i + cut);
      }, text),
    );
  const codeUnits = fc.string({
    unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
  });

  it.each([
    ['obstacle soup', soup],
    ['leading markers', marked],
    ['edited workflows', edited],
    ['binary strings', fc.string({ unit: 'binary', maxLength: 60 })],
    ['code unit strings', codeUnits],
  ])('agrees on %s', (_name, texts) => {
    assertProperty(fc.property(texts, agree), { numRuns: runs(3000) });
  });

  it('agrees on the real texts as they are', () => {
    for (const text of REAL_TEXTS) agree(text);
  });
});
