/**
 * fast-check generators of YAML texts for comparing the fast path with yaml: documents written in every style
 * (block and flow, plain, quoted, literal and folded scalars, comments, CRLF, markers) from values full of the
 * scalars where YAML parsers tend to disagree, random edits of real workflow files, and raw character soup.
 * Many outputs are not valid YAML on purpose: the fast path must turn those down.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { syntheticDefinition } from '../../bench/synthetic.mjs';
import {
  AWKWARD_SCALARS,
  EDIT_TOKENS,
  FRAGMENTS,
  PLAIN_KEYS,
  RESOLVABLE_SCALARS,
  TRICKY_KEYS,
} from './yaml-samples.js';

const EXAMPLES_DIR = new URL('../../../workflows/', import.meta.url);

/** The example workflows and a few benchmark definitions: realistic texts to mutate. */
export const REAL_TEXTS: readonly string[] = [
  ...readdirSync(fileURLToPath(EXAMPLES_DIR))
    .filter((name) => name.endsWith('.yaml'))
    .sort()
    .map((name) => readFileSync(new URL(name, EXAMPLES_DIR), 'utf8')),
  ...[0, 1, 2, 3].map((i) => syntheticDefinition(i)),
];

const key = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...PLAIN_KEYS) },
  { weight: 1, arbitrary: fc.constantFrom(...TRICKY_KEYS) },
);

export type Style = 'plain' | 'single' | 'double' | 'literal' | 'folded' | 'multiline';

/** One scalar written in a style; plain writing of any text on purpose (often invalid YAML). */
function writeScalar(value: string, style: Style, indent: string, chomp: string): string {
  switch (style) {
    case 'plain':
      return value;
    case 'single':
      return `'${value.replace(/'/g, "''")}'`;
    case 'double':
      // JSON string escapes are YAML double-quoted escapes; sometimes the text goes in raw instead.
      return chomp === '+' ? `"${value}"` : JSON.stringify(value);
    case 'literal':
    case 'folded': {
      const head = style === 'literal' ? '|' : '>';
      const lines = value.split('\n').map((line) => (line === '' ? '' : `${indent}  ${line}`));
      return `${head}${chomp}\n${lines.join('\n')}`;
    }
    case 'multiline':
      return value
        .split(' ')
        .map((word, i) => (i === 0 ? word : `\n${indent}  ${word}`))
        .join('');
  }
}

interface Node {
  kind: 'scalar' | 'map' | 'seq';
  value?: string;
  style?: Style;
  chomp?: string;
  flow?: boolean;
  entries?: Array<{ key: string; keyStyle: Style; node: Node }>;
  items?: Node[];
}

const scalarValue = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...RESOLVABLE_SCALARS) },
  { weight: 1, arbitrary: fc.constantFrom(...AWKWARD_SCALARS) },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
  { weight: 3, arbitrary: fc.stringMatching(/^[a-z]{1,6}( [a-z0-9{}.#-]{1,8}){0,4}$/) },
);
const style = fc.constantFrom<Style>(
  'plain',
  'plain',
  'plain',
  'single',
  'double',
  'literal',
  'folded',
  'multiline',
);
const keyStyle = fc.constantFrom<Style>('plain', 'plain', 'plain', 'single', 'double');
const chomp = fc.constantFrom('', '', '-', '+', '2', '1-');
/** Between flow entries: usually `, `, sometimes a line break, a comment, or no blank at all. */
const flowSeparator = fc.constantFrom(
  ', ',
  ', ',
  ', ',
  ',',
  ' ,',
  ',\n  ',
  ',\n',
  ', # c\n  ',
  ',# c\n  ',
  '\n, ',
);

const node: fc.Arbitrary<Node> = fc.letrec<{ node: Node }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ kind: fc.constant('scalar' as const), value: scalarValue, style, chomp }),
    fc.record({
      kind: fc.constant('map' as const),
      flow: fc.boolean(),
      chomp: flowSeparator,
      entries: fc.array(fc.record({ key, keyStyle, node: tie('node') }), { maxLength: 4 }),
    }),
    fc.record({
      kind: fc.constant('seq' as const),
      flow: fc.boolean(),
      chomp: flowSeparator,
      items: fc.array(tie('node'), { maxLength: 4 }),
    }),
  ),
})).node;

/** Inline (flow or single-line) form of a node, for flow collections and scalars after `key: `. */
function writeFlow(n: Node): string {
  if (n.kind === 'scalar') {
    const s = n.style === 'literal' || n.style === 'folded' || n.style === 'multiline' ? 'double' : n.style!;
    return writeScalar(n.value!, s, '', n.chomp!);
  }
  // The separator varies where parsers differ on comments and line breaks inside flow collections.
  const sep = n.value === undefined && n.chomp ? n.chomp : ', ';
  if (n.kind === 'seq') return `[${n.items!.map(writeFlow).join(sep)}]`;
  return `{${n.entries!.map((e) => `${writeScalar(e.key, e.keyStyle, '', '')}: ${writeFlow(e.node)}`).join(sep)}}`;
}

/** Block form: lines of a mapping's or sequence's entries at `indent`. */
function writeBlock(n: Node, indent: string, step: string): string[] {
  const child = (lead: string, value: Node): string[] => {
    if (value.kind === 'scalar')
      return [`${lead} ${writeScalar(value.value!, value.style!, indent, value.chomp!)}`];
    if (value.flow) return [`${lead} ${writeFlow(value)}`];
    const inner = writeBlock(value, indent + step, step);
    return inner.length === 0 ? [`${lead} ${value.kind === 'seq' ? '[]' : '{}'}`] : [lead, ...inner];
  };
  if (n.kind === 'seq') return n.items!.flatMap((item) => child(`${indent}-`, item));
  if (n.kind === 'map')
    return n.entries!.flatMap((e) => child(`${indent}${writeScalar(e.key, e.keyStyle, '', '')}:`, e.node));
  return [`${indent}${writeScalar(n.value!, n.style!, indent, n.chomp!)}`];
}

/** Usually nothing, sometimes one of `options`. */
function rarely(...options: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constant('') },
    { weight: 1, arbitrary: fc.constantFrom(...options) },
  );
}

/** How the whole text is dressed: indentation, comments, markers, line breaks, trailing blanks. */
const dressing = fc.record({
  step: fc.constantFrom('  ', '  ', '    ', ' '),
  flowRoot: fc.boolean(),
  leadingMarker: rarely(
    '---\n',
    '# c\n---\n',
    '--- # c\n',
    '\n---\n',
    '--- x\n',
    '%YAML 1.2\n---\n',
    ' ---\n',
  ),
  trailer: rarely('\n', '# end\n', '...\n', '---\n', '\n---\nb: 1\n'),
  comments: fc.boolean(),
  crlf: fc.boolean(),
  trailingSpaces: fc.boolean(),
});

/** Documents built from random values, written in random styles: valid YAML more often than not. */
export const yamlDocument: fc.Arbitrary<string> = fc
  .tuple(fc.array(fc.record({ key, keyStyle, node }), { minLength: 1, maxLength: 5 }), dressing)
  .map(([entries, dress]) => {
    const root: Node = { kind: 'map', flow: dress.flowRoot, entries };
    let lines = dress.flowRoot ? [writeFlow(root)] : writeBlock(root, '', dress.step);
    if (dress.comments)
      lines = lines.flatMap((line, i) => (i % 3 === 1 ? [line, '# note', ''] : [`${line}`]));
    if (dress.trailingSpaces) lines = lines.map((line) => `${line}  `);
    const text = `${dress.leadingMarker}${lines.join('\n')}\n${dress.trailer}`;
    return dress.crlf ? text.replace(/\n/g, '\r\n') : text;
  });

const edit = fc.record({
  at: fc.nat(),
  remove: fc.constantFrom(0, 0, 0, 1, 2, 5),
  insert: fc.oneof(fc.constantFrom(...EDIT_TOKENS), fc.constant('')),
});

/** A real workflow with a few random edits. */
export const editedWorkflow: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(...REAL_TEXTS), fc.array(edit, { minLength: 1, maxLength: 3 }))
  .map(([text, edits]) =>
    edits.reduce((t, e) => {
      const at = e.at % (t.length + 1);
      return t.slice(0, at) + e.insert + t.slice(at + e.remove);
    }, text),
  );

/** Short raw texts over YAML's significant characters, behind a key so some parse as a mapping. */
export const characterSoup: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('a: ', 'a:\n  ', 'a:\n  - ', '{a: ', 'a: [', ''),
    fc.string({
      unit: fc.constantFrom(...' \n:-?,[]{}#"\'&*!|>%@`\\.0123456789abexo+~_'.split(''), '\r\n', '\t', 'é'),
      maxLength: 24,
    }),
  )
  .map(([head, body]) => head + body);

/** Lines of indentation and syntax fragments: structure more than content. */
export const lineSoup: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      fc.constantFrom('', '', ' ', '  ', '   ', '    '),
      fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 4 }),
    ),
    { minLength: 1, maxLength: 8 },
  )
  .map((lines) => `${lines.map(([indent, parts]) => indent + parts.join('')).join('\n')}\n`);
