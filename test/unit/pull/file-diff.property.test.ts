import { applyPatch, parsePatch, reversePatch } from 'diff';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../../src/generated/workflow.js';
import { compareWorkflow } from '../../../src/plan/compare.js';
import { buildFileDiff } from '../../../src/pull/file-diff.js';
import { runs } from '../../helpers/fc-runs.js';
import { desiredOf, exampleDefinitions, GROUPS, OTHER_GROUP_ID, parseFile } from '../plan/helpers.js';
import { compared, fileLines, hunksOf, loaded } from './file-diff-helpers.js';
import { exampleText } from './merge-helpers.js';

/**
 * The done-when of "diffs on the file's own lines": for generated edits (as the dashboard makes them) of the example
 * definitions (comments, flow collections, block text), written with LF or CRLF, with or without a BOM, every hunk
 * of the plan's file diff claims only the file's real lines at their real numbers, and the `---` side is a file
 * that plans in sync with the service.
 */

const EXAMPLES = exampleDefinitions().map(({ file }) => ({
  file,
  text: exampleText(file.replace(/^workflows\/|\.yaml$/g, '')),
}));

const TEXTS = [
  '',
  'Hello {{name}}',
  'a: b',
  'x #y',
  "'q'",
  'é ✓ 😀',
  'two\nlines',
  'trail ',
  '{{orderNumber}}!',
];
const text = fc.oneof(
  fc.constantFrom(...TEXTS),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 10 }),
);

type Edit =
  | { op: 'text'; at: number; value: string }
  | { op: 'flip'; at: number }
  | { op: 'drop'; at: number }
  | { op: 'tags'; value: string[] }
  | { op: 'remove-step'; at: number }
  | { op: 'add-step'; at: number; channel: 'in_app' | 'sms'; content: string }
  | { op: 'swap-steps'; at: number }
  | { op: 'group'; value: string | undefined }
  | { op: 'preference'; channel: 'email' | 'sms' | 'in_app'; value: boolean };

const edit: fc.Arbitrary<Edit> = fc.oneof(
  fc.record({ op: fc.constant('text' as const), at: fc.nat(), value: text }),
  fc.record({ op: fc.constant('flip' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('drop' as const), at: fc.nat() }),
  fc.record({ op: fc.constant('tags' as const), value: fc.uniqueArray(text, { maxLength: 3 }) }),
  fc.record({ op: fc.constant('remove-step' as const), at: fc.nat() }),
  fc.record({
    op: fc.constant('add-step' as const),
    at: fc.nat(),
    channel: fc.constantFrom('in_app' as const, 'sms' as const),
    content: text,
  }),
  fc.record({ op: fc.constant('swap-steps' as const), at: fc.nat() }),
  fc.record({
    op: fc.constant('group' as const),
    value: fc.constantFrom('group:transactional', OTHER_GROUP_ID, undefined),
  }),
  fc.record({
    op: fc.constant('preference' as const),
    channel: fc.constantFrom('email' as const, 'sms' as const, 'in_app' as const),
    value: fc.boolean(),
  }),
);

type Path = Array<string | number>;

/** Keys an edit leaves alone: what names the workflow and the shape a template needs. */
const KEPT = new Set([
  'identifier',
  'type',
  'name',
  'steps',
  'triggers',
  'template',
  'content',
  'notificationGroupId',
]);

function leaves(node: unknown, at: Path = []): Array<{ path: Path; value: unknown }> {
  if (typeof node !== 'object' || node === null) return [{ path: at, value: node }];
  const entries: Array<[string | number, unknown]> = Array.isArray(node)
    ? node.map((item, i) => [i, item])
    : Object.entries(node);
  return entries.flatMap(([key, child]) => leaves(child, [...at, key]));
}

function keys(node: unknown, at: Path = []): Path[] {
  if (typeof node !== 'object' || node === null) return [];
  if (Array.isArray(node)) return node.flatMap((item, i) => keys(item, [...at, i]));
  return Object.entries(node).flatMap(([key, child]) => [[...at, key], ...keys(child, [...at, key])]);
}

function parentOf(root: unknown, path: Path): Record<string | number, unknown> {
  return path
    .slice(0, -1)
    .reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], root) as Record<
    string | number,
    unknown
  >;
}

function pick<T>(list: readonly T[], at: number): T | undefined {
  return list.length === 0 ? undefined : list[at % list.length];
}

function apply(def: WorkflowDefinition, e: Edit): void {
  const root = def as unknown as Record<string, unknown>;
  const steps = def.steps as unknown[];
  if (e.op === 'text' || e.op === 'flip') {
    const kind = e.op === 'text' ? 'string' : 'boolean';
    const chosen = pick(
      leaves(root).filter(({ path, value }) => typeof value === kind && !KEPT.has(String(path.at(-1)))),
      e.at,
    );
    if (chosen) parentOf(root, chosen.path)[chosen.path.at(-1)!] = e.op === 'text' ? e.value : !chosen.value;
  } else if (e.op === 'drop') {
    const chosen = pick(
      keys(root).filter((path) => !KEPT.has(String(path.at(-1)))),
      e.at,
    );
    if (chosen) delete parentOf(root, chosen)[chosen.at(-1)!];
  } else if (e.op === 'tags') {
    def.tags = e.value;
  } else if (e.op === 'remove-step' && steps.length > 1) {
    steps.splice(e.at % steps.length, 1);
  } else if (e.op === 'add-step') {
    steps.splice(e.at % (steps.length + 1), 0, {
      name: `added ${e.at}`,
      template: { type: e.channel, content: e.content },
    });
  } else if (e.op === 'swap-steps' && steps.length > 1) {
    const i = e.at % steps.length;
    const j = (i + 1) % steps.length;
    [steps[i], steps[j]] = [steps[j], steps[i]];
  } else if (e.op === 'group') {
    if (e.value === undefined) delete def.notificationGroupId;
    else def.notificationGroupId = e.value;
  } else if (e.op === 'preference') {
    def.preferenceSettings = { ...def.preferenceSettings, [e.channel]: e.value };
  }
}

const layout = fc.record({ crlf: fc.boolean(), bom: fc.boolean() });

describe('buildFileDiff: properties', () => {
  it('every hunk of every file diff maps to the file’s real lines, and its --- side plans in sync', () => {
    const kinds = { file: 0, projection: 0 };
    fc.assert(
      fc.property(
        fc.constantFrom(...EXAMPLES),
        layout,
        fc.array(edit, { minLength: 1, maxLength: 4 }),
        (example, { crlf, bom }, edits) => {
          const text = (bom ? '\uFEFF' : '') + (crlf ? example.text.replace(/\n/g, '\r\n') : example.text);
          const definition = loaded(example.file, text);
          let plan: ReturnType<typeof compared>;
          try {
            plan = compared(definition, (def) => {
              for (const e of edits) apply(def, e);
            });
          } catch {
            // The edits made a body the service's builder refuses: not a workflow the service could hold.
            fc.pre(false);
            return;
          }
          fc.pre(plan.changes.length > 0);
          const built = buildFileDiff({
            definition,
            changes: plan.changes,
            serviceName: plan.serviceName,
            groups: GROUPS,
          });
          kinds[built.kind]++;
          if (built.kind !== 'file') return;
          const lines = fileLines(text);
          const hunks = hunksOf(built.diff);
          expect(hunks.length).toBeGreaterThan(0);
          for (const hunk of hunks) {
            expect(hunk.fileSide).toHaveLength(hunk.newLines);
            expect(hunk.newStart).toBeLessThanOrEqual(lines.length);
            for (const { line, text: shown } of hunk.fileSide) expect(shown).toBe(lines[line - 1]);
          }
          expect(built.line).toBeGreaterThanOrEqual(1);
          expect(built.endLine).toBeGreaterThanOrEqual(built.line);
          expect(built.endLine).toBeLessThanOrEqual(lines.length);
          // The --- side: the file as it would be if it matched the service.
          const [patch] = parsePatch(built.diff);
          const reverted = applyPatch(
            text.replace(/^\uFEFF/, '').replace(/\r\n/g, '\n'),
            reversePatch(patch!),
          );
          expect(reverted).not.toBe(false);
          const again = desiredOf(parseFile(example.file, reverted as string), { file: example.file });
          expect(compareWorkflow(again, plan.stored).changes).toEqual([]);
        },
      ),
      { numRuns: runs(200) },
    );
    // Most edits are merged in place; the fallback is for what cannot be (and every run makes some file diffs).
    expect(kinds.file).toBeGreaterThan(kinds.projection);
  });
});
