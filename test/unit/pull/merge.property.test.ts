import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isScalar, parseDocument } from 'yaml';
import type { WorkflowDefinition } from '../../../src/generated/workflow.js';
import { mergePulledDefinition } from '../../../src/pull/merge.js';
import { runs } from '../../helpers/fc-runs.js';
import { exampleDefinitions } from '../plan/helpers.js';
import { asCompared, exampleText, FRESH, lineDiff, read } from './merge-helpers.js';

/**
 * Random small edits to the example definitions (real files: comments, flow collections, block text), as the
 * dashboard might make them; merging the edited definition into the file must give a file that reads back as it.
 */

type Path = Array<string | number>;
type Container = Record<string, unknown> | unknown[];

const EXAMPLES = exampleDefinitions().map(({ file }) => {
  const text = exampleText(file.replace(/^workflows\/|\.yaml$/g, ''));
  return { file, text, definition: read(text) };
});

const TRICKY = [
  'true',
  'null',
  '123',
  '1.5',
  '',
  ' lead',
  'trail ',
  'a: b',
  'x #y',
  '#c',
  '- d',
  '[e]',
  '{f}',
  "'g'",
  '"h"',
  '*i',
  '&j',
  '!k',
  '%l',
  '@m',
  '`n',
  'o\np',
  'q\n',
  '\tr',
  'é ✓ 😀',
  '{{a}} {{#each b}}{{c}}{{/each}}',
];
const KEYS = [
  'name',
  'type',
  'content',
  'subject',
  'active',
  'critical',
  'tags',
  'variables',
  'x',
  'data',
  'a b',
  '1',
  'key: with colon',
  '',
];

const text = fc.oneof(fc.constantFrom(...TRICKY), fc.string({ unit: 'grapheme', maxLength: 12 }));
const scalar = fc.oneof(text, fc.integer({ min: -1000, max: 1000 }), fc.boolean(), fc.constant(null));
const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(text, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.record({ name: text, type: fc.constantFrom('String', 'Array', 'Boolean') }) },
  {
    weight: 1,
    arbitrary: fc.record({
      name: text,
      template: fc.record({ type: fc.constantFrom('sms', 'chat'), content: text }),
    }),
  },
);

type Edit =
  | { op: 'set'; at: number; value: unknown }
  | { op: 'delete'; at: number }
  | { op: 'insert'; at: number; key: string; index: number; value: unknown }
  | { op: 'swap'; at: number; index: number };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ op: fc.constant('set' as const), at: fc.nat(), value: fc.oneof(value, text) }),
  fc.record({ op: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({
    op: fc.constant('insert' as const),
    at: fc.nat(),
    key: fc.constantFrom(...KEYS),
    index: fc.nat(),
    value,
  }),
  fc.record({ op: fc.constant('swap' as const), at: fc.nat(), index: fc.nat() }),
);

function paths(node: unknown, at: Path = []): Path[] {
  if (typeof node !== 'object' || node === null) return [at];
  const entries: Array<[string | number, unknown]> = Array.isArray(node)
    ? node.map((item, i) => [i, item])
    : Object.entries(node);
  return [at, ...entries.flatMap(([key, child]) => paths(child, [...at, key]))];
}

function get(root: unknown, path: Path): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], root);
}

/** Applies one edit where `at` points (modulo the node count), to the definition in place. */
function apply(root: Record<string, unknown>, e: Edit): void {
  const all = paths(root);
  const path = all[e.at % all.length]!;
  const key = path.at(-1);
  const parent = get(root, path.slice(0, -1)) as Container;
  const node = get(root, path);
  if (e.op === 'set' && key !== undefined) (parent as Record<string | number, unknown>)[key] = e.value;
  if (e.op === 'delete' && key !== undefined) {
    if (Array.isArray(parent)) parent.splice(key as number, 1);
    else delete parent[key as string];
  }
  if (e.op === 'insert' && Array.isArray(node)) node.splice(e.index % (node.length + 1), 0, e.value);
  if (e.op === 'insert' && typeof node === 'object' && node !== null && !Array.isArray(node)) {
    (node as Record<string, unknown>)[e.key] = e.value;
  }
  if (e.op === 'swap' && Array.isArray(node) && node.length > 1) {
    const i = e.index % node.length;
    const j = (i + 1) % node.length;
    [node[i], node[j]] = [node[j], node[i]];
  }
}

function edited(def: WorkflowDefinition, edits: Edit[]): WorkflowDefinition {
  const copy = structuredClone(def) as unknown as Record<string, unknown>;
  for (const e of edits) apply(copy, e);
  return copy as unknown as WorkflowDefinition;
}

/** Merged in place (never the fresh text), reads back as `pulled` does for plan, and a second merge changes nothing. */
function expectMerged(existing: string, pulled: WorkflowDefinition): string {
  const result = mergePulledDefinition(existing, pulled, { freshText: FRESH });
  expect(result.rewritten).toBeUndefined();
  expect(asCompared(read(result.text))).toEqual(asCompared(pulled));
  expect(mergePulledDefinition(result.text, pulled, { freshText: FRESH })).toMatchObject({
    text: result.text,
    changed: [],
  });
  return result.text;
}

const example = fc.constantFrom(...EXAMPLES);

describe('mergePulledDefinition: properties', () => {
  it('random edits to an example → merge → the file reads back as the edited definition', () => {
    fc.assert(
      fc.property(example, fc.array(edit, { minLength: 1, maxLength: 4 }), (ex, edits) => {
        const pulled = edited(ex.definition, edits);
        const result = mergePulledDefinition(ex.text, pulled, { freshText: FRESH });
        expect(result.changed.length > 0 || result.text === ex.text).toBe(true);
        expectMerged(ex.text, pulled);
      }),
      { numRuns: runs(200) },
    );
  });

  it('a merged file merges again: two rounds of edits', () => {
    fc.assert(
      fc.property(
        example,
        fc.array(edit, { maxLength: 3 }),
        fc.array(edit, { maxLength: 3 }),
        (ex, first, second) => {
          const once = edited(ex.definition, first);
          const twice = edited(once, second);
          expectMerged(expectMerged(ex.text, once), twice);
        },
      ),
      { numRuns: runs(100) },
    );
  });

  it('one single-line text changed in the service changes exactly its own line', () => {
    const leaves = EXAMPLES.flatMap((ex) =>
      paths(ex.definition)
        .filter((path) => {
          // Written on one line in the file (not a `|` or `>` block).
          const node = parseDocument(ex.text).getIn(path, true);
          return (
            isScalar(node) &&
            typeof node.value === 'string' &&
            !node.value.includes('\n') &&
            !node.type?.startsWith('BLOCK')
          );
        })
        .map((path) => ({ ex, path })),
    );
    const newText = text.filter((t) => !t.includes('\n'));
    fc.assert(
      fc.property(fc.constantFrom(...leaves), newText, ({ ex, path }, replacement) => {
        const pulled = structuredClone(ex.definition) as unknown as Record<string, unknown>;
        const parent = get(pulled, path.slice(0, -1)) as Record<string | number, unknown>;
        fc.pre(parent[path.at(-1)!] !== replacement);
        parent[path.at(-1)!] = replacement;
        const merged = expectMerged(ex.text, pulled as unknown as WorkflowDefinition);
        const diff = lineDiff(ex.text, merged);
        expect(diff.removed).toHaveLength(1);
        expect(diff.added).toHaveLength(1);
      }),
      { numRuns: runs(300) },
    );
  });
});
