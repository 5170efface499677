/**
 * The plan's diff on the definition file's own lines: the file as it would be if it said what the service holds
 * (`--- service: <name>`) against the file as it is (`+++ <file>`), the first made by the in-place merge `wfsync pull`
 * does (merge.ts), so every hunk's `+` side is the file's real lines, numbered as an editor numbers them.
 *
 * The merge is given the file's own value with each change the comparison listed set to the service's value, so it
 * can only touch compared fields; whatever it changes anyway, or cannot change in place, or a change that lives in an
 * included file (`{file: …}`), leaves the comparison's own diff (of the compared fields, not the file's lines) in
 * place, marked as such, and the line of the first change located in the file. Pure.
 */
import type * as Diff from 'diff';
import { includesOf } from '../definitions/include-references.js';
import type { LoadedDefinition } from '../definitions/types.js';
import { onFirstUse } from '../derive/first-use.js';
import { splitPointer } from '../diagnostic.js';
import type { WorkflowDefinition } from '../generated/workflow.js';
import { groupReferenceOf, type TargetGroups } from '../plan/create-body.js';
import { diffHeaderName } from '../plan/diff.js';
import { type PutBack, putBack } from '../plan/put-back.js';
import type { DifferingItem, FieldChange, UpdateItem } from '../plan/types.js';
import { mergePulledDefinition } from './merge.js';

/** jsdiff, loaded the first time a diff is made: a plan with nothing differing never needs it. */
const diffLib = onFirstUse<typeof Diff>('diff');

export type FileDiff =
  | {
      kind: 'file';
      /** Unified diff, 3 lines of context, no timestamps. */
      diff: string;
      /** 1-based lines of the file where the first hunk's changes start and end. */
      line: number;
      endLine: number;
    }
  | { kind: 'projection'; reason: string };

export interface FileDiffInput {
  /** The definition as loaded: its text (BOM removed), its value (included texts put in) and their references. */
  definition: LoadedDefinition;
  /** The comparison's changes (service → file), not empty. */
  changes: readonly FieldChange[];
  /** The workflow's name on the service, for the `--- service: <name>` header. */
  serviceName: string;
  /** The target's groups: a changed group id is written as the file would name it. */
  groups: TargetGroups;
}

/** Never read: the merge's fallback text is refused below, whatever it holds. */
const NO_FRESH_TEXT = '';

export function buildFileDiff(input: FileDiffInput): FileDiff {
  const { definition, changes } = input;
  if (changes.length === 0) return projection('nothing differs');
  // Editors and GitHub count lines at line feeds; a lone carriage return is a line break to some and not to others.
  if (/\r(?!\n)/.test(definition.text))
    return projection('the file has a carriage return without a line feed');
  const includes = includesOf(definition);
  const included = changes.find((change) =>
    includes.some(({ pointer }) => within(change.pointer, pointer) || replaces(change, pointer)),
  );
  if (included !== undefined) return projection(`${included.path} is kept in an included file`);
  // The file's value with its references as written, so the fields kept in files are left as they are.
  const own = structuredClone(definition.value);
  putBack(
    own,
    includes.map(({ pointer, path }) => ({ segments: splitPointer(pointer), value: { file: path } })),
  );
  const target = applyChanges(own, changes, input.groups);
  if (target === undefined) return projection('a change has no place in the file');
  const merged = mergePulledDefinition(definition.text, target as WorkflowDefinition, {
    freshText: NO_FRESH_TEXT,
  });
  if (merged.rewritten !== undefined)
    return projection(`the file cannot be edited in place: ${merged.rewritten}`);
  const stray = merged.changed.find((path) => !changes.some((change) => related(path, change.path)));
  if (stray !== undefined) return projection(`merging would also change ${stray}`);
  const before = asLines(merged.text);
  const after = asLines(definition.text);
  if (before === after) return projection('the merge changes no line of the file');
  const patch = diffLib().structuredPatch(
    diffHeaderName(`service: ${input.serviceName}`),
    diffHeaderName(definition.file),
    before,
    after,
    undefined,
    undefined,
    {
      context: 3,
    },
  );
  const first = patch.hunks[0];
  if (first === undefined) return projection('the merge changes no line of the file');
  const lines = changedLines(first, countLines(after));
  // After changedLines: formatPatch renumbers, in place, a side with no lines to the line before (`12,0`).
  return { kind: 'file', diff: diffLib().formatPatch(patch, diffLib().FILE_HEADERS_ONLY), ...lines };
}

/**
 * A plan item with its diff on the file's lines where that can be made (`diffKind: 'file'`), else the comparison's
 * diff kept (`diffKind: 'projection'`); either way `line`/`endLine` say where in the file the first change is.
 */
export function withFileDiff<T extends DifferingItem | UpdateItem>(
  item: T,
  definition: LoadedDefinition | undefined,
  groups: TargetGroups,
): T {
  if (item.diff === undefined || item.diff === '' || item.changes.length === 0 || definition === undefined)
    return item;
  const serviceName = serviceNameOf(item);
  const built = buildFileDiff({ definition, changes: item.changes, serviceName, groups });
  if (built.kind === 'file') {
    return { ...item, diff: built.diff, diffKind: 'file', line: built.line, endLine: built.endLine };
  }
  const span = definition.locate(item.changes[0]!.pointer);
  return { ...item, diffKind: 'projection', line: span.line, endLine: span.line };
}

function projection(reason: string): FileDiff {
  return { kind: 'projection', reason };
}

/** The service's name: the changed one when the name differs, else the file's (which is the same). */
function serviceNameOf(item: DifferingItem | UpdateItem): string {
  const named = item.changes.find((change) => change.pointer === '/name');
  if (named !== undefined && typeof named.actual === 'string') return named.actual;
  return item.name ?? item.identifier;
}

/** `pointer` is `base` or inside it. */
function within(pointer: string, base: string): boolean {
  return pointer === base || pointer.startsWith(`${base}/`);
}

/** The change puts the service's value where the file has a reference below it (a whole template or step). */
function replaces(change: FieldChange, include: string): boolean {
  return change.kind !== 'only-in-file' && within(include, change.pointer);
}

/** Dotted paths `a` and `b` are the same field or one holds the other (`steps[0]`, `steps[0].template.subject`). */
function related(a: string, b: string): boolean {
  const holds = (outer: string, inner: string) =>
    outer === '' || inner === outer || inner.startsWith(`${outer}.`) || inner.startsWith(`${outer}[`);
  return holds(a, b) || holds(b, a);
}

/**
 * The file's value with each change put back: the service's value where it differs or only the service has it (a
 * group id as the file names groups), removed where only the file has it. Undefined when a change has no place.
 */
function applyChanges(own: unknown, changes: readonly FieldChange[], groups: TargetGroups): unknown {
  const edits = changes.map((change): PutBack => {
    const segments = splitPointer(change.pointer);
    if (change.kind === 'only-in-file') return { segments, remove: true };
    if (change.pointer !== '/notificationGroupId' || typeof change.actual !== 'string')
      return { segments, value: change.actual };
    const value = groupReferenceOf(change.actual, groups);
    return value === undefined ? { segments, remove: true } : { segments, value };
  });
  if (edits.some(({ segments }) => segments.length === 0)) return undefined;
  return putBack(own, edits) ? own : undefined;
}

/** The text with line feeds only: a CRLF file's lines are the same lines (the BOM is already gone). */
function asLines(text: string): string {
  return text.replace(/\r\n/g, '\n');
}

function countLines(text: string): number {
  if (text === '') return 0;
  const breaks = text.split('\n').length - 1;
  return text.endsWith('\n') ? breaks : breaks + 1;
}

/**
 * Where the first hunk's changes are in the file: the first and last line it adds (the file's own), or, when it
 * only takes lines away, the line they would stand before (the last line when they would end the file).
 */
function changedLines(hunk: Diff.StructuredPatchHunk, lineCount: number): { line: number; endLine: number } {
  let at = hunk.newStart;
  let first: number | undefined;
  let last: number | undefined;
  let insertion: number | undefined;
  for (const line of hunk.lines) {
    const mark = line[0];
    if (mark === '+') {
      first ??= at;
      last = at;
      at++;
    } else if (mark === '-') {
      insertion ??= at;
    } else if (mark === ' ') {
      at++;
    }
  }
  const clamp = (n: number) => Math.min(Math.max(1, n), Math.max(1, lineCount));
  if (first === undefined) {
    const line = clamp(insertion ?? hunk.newStart);
    return { line, endLine: line };
  }
  // A hunk that takes lines away before it adds any: the change starts where they stood.
  const start = insertion !== undefined && insertion < first ? insertion : first;
  return { line: clamp(start), endLine: clamp(last ?? first) };
}
