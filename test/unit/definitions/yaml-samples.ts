/**
 * Samples for the YAML generators (yaml-arbitraries.ts): scalars, keys and tokens where YAML parsers, versions and
 * schemas tend to disagree. `spaced` lists hold no whitespace (NBSP counts as whitespace there); the samples with
 * blanks or line breaks are listed apart.
 */

const spaced = (list: string): string[] => list.trim().split(/\s+/);

/** Plain scalars whose reading differs between YAML versions, schemas or parsers: numbers, booleans, nulls. */
export const RESOLVABLE_SCALARS = [
  ...spaced(`0 -0 +0 -0.0 0.0 00 007 08 1 -1 +1 10 1.0 1.5 -1.5 .5 -.5 +.5 5. 1e3 1E3 1e+3 1e-3 1.5e3 1e999 -1e999
    9007199254740993 12345678901234567890 1e+21 0.1 0.10 0b11 0B11 0o17 0O17 0x1F 0X1F -0x1F +0o7 0x 0o 0b 1_000
    1,000 1:30 190:20:30 12:30:00 2024-01-05 2024-01-05T10:00:00Z .inf -.inf +.inf .Inf .INF .nan .NaN .NAN -.nan
    inf nan Infinity NaN ~ null Null NULL nULL true True TRUE tRUE false False FALSE yes no on off y n Yes NO =
    constructor toString`),
  `1${'0'.repeat(400)}`,
];

/** Text that is hard to write as YAML: indicators, quotes, escapes, odd whitespace and line breaks. */
export const AWKWARD_SCALARS = [
  ...spaced(`<< __proto__ a a:b a#b #a -a - -- --- ... ?a ? :a : :: a:: [a] {a} a,b [ ] { } , &a *a !a !!str %a
    @a \`a | > |- ' " a'b a"b \\ \\n a\\/b \\" a\\\\b a\\tb a\\b C:\\x é naïve 😀 {{name}} {{#if}}x{{/if}} **bold**
    #general https://x.io/a?b=1&c=2#d`),
  ...['', ' ', 'a b', ' a', 'a ', 'a: b', 'a :b', 'a #b', '- a', '? a', 'a, b', '! a', '{{! c }}', 'a & b'],
  ...['Terms & Conditions', 'x * y', 'wow !', '\u00a0', 'a\u00a0b', '\u0085', '\u2028', '\ufeff'],
  ...['\u200b', '\t'],
  ...['a\tb', 'a\nb', 'a\n\nb', '\na', 'a\n', 'a\n\n', ' \n ', 'a\r\nb', '  a', ' \na', 'a\n  b\nc', '\n\n'],
  ...['  \n  ', 'a\n \nb', ' a\n b', 'a\n\n  b\n\nc', 'a \n b ', '{{#if a}}x{{/if}}'],
];

export const PLAIN_KEYS = [...spaced('name steps content a b k a.b a-b a_b é'), 'key with spaces'];
export const TRICKY_KEYS = [
  ...spaced(
    `1 10 1.0 1.5 -1 0x1 0o7 1e3 -0 ~ null Null true True false yes << __proto__ a:b a#b # " ' - ? [a] {a}`,
  ),
  ...['', ' ', 'x'.repeat(1100)],
];

/** Single-token edits where parsers break down: indicators, quotes, indentation, numbers, markers. */
export const EDIT_TOKENS = [
  ...spaced(`: - ? , [ ] { } # " ' *a ! | > |- % @ \` \\ \\x \\u00e9 \\N \\/ --- ... ~ 0x1 -0 .5 -.5 1e999 0b1 007
    1.0 é`),
  ...['\n-', '\n- ', '\n  - ', '-\n', ' -', '\n  -\n', ': |\n', ': >-\n', '\n   ', '\n\n', ' ', '  ', '\n'],
  ...['\n  ', '\t', '\r', '\r\n', ': ', ' :', '- ', '? ', ' #', '&a ', '!!str ', '\n---\n', '\n...\n'],
  ...['<<: '],
  ...['\u00a0', '\u2028', '\ufeff', '\u0085', 'x'.repeat(1030)],
];

/** Fragments of YAML syntax for line-by-line soup. */
export const FRAGMENTS = [
  ...spaced(`a b: k:v - ? : [ ] { } , "x" 'y' "" '' #c | > |- >+ 1 -0 0x1 1.0 ~ null True .5 -.5 1e3 *a --- ...
    "a b' \\ \\n {{x}} é`),
  ...['\u00a0', 'c: ', 'k: v', '- ', '? ', ': ', ', ', ' #c', ' ', '  ', '&a ', '!t ', '{{#if a}}', '<<: '],
];
