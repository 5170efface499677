/**
 * The in-place edit behind `mergePulledDefinition`: walks the file's YAML nodes beside the value they hold and the
 * value wanted, and changes only the nodes whose values differ, so the nodes left alone keep their comments,
 * quoting and flow style. Pure.
 * Recursive, on depth-checked data: the pulled workflow came through parseJson (MAX_JSON_DEPTH), the file's value
 * through readDocument (merge.ts), within the loader's depth limit (MAX_DEFINITION_DEPTH).
 */
import type * as Diff from 'diff';
import type { Document, Node, Pair, YAMLMap, YAMLSeq } from 'yaml';
import { yamlLib } from '../definitions/yaml-lib.js';
import { onFirstUse } from '../derive/first-use.js';
import { canonicalJson, isRecord, type Json } from '../json.js';
import type { ListShape, Shape } from '../plan/shape.js';
import { isImplied, sameDeclared } from './merge-equal.js';

/** jsdiff, loaded the first time a diff is made: a plan with nothing differing never needs it. */
const diffLib = onFirstUse<typeof Diff>('diff');

/** A file the walk cannot edit safely; the caller writes the freshly generated text instead. */
export class UnmergeableError extends Error {}

export interface MergeWalk {
  doc: Document;
  /** Dotted paths changed so far, in the order met. */
  changed: string[];
}

/** New nodes: no anchors for repeated values (the file never had them). */
const CREATE = { aliasDuplicateObjects: false } as const;

/** The node to hold `target` where `node` (holding `current`) stands: `node` itself, edited, or a replacement. */
export function mergeNode(
  walk: MergeWalk,
  node: unknown,
  current: unknown,
  target: unknown,
  shape: Shape | undefined,
  path: string,
): unknown {
  if (sameDeclared(current, target, shape)) return node;
  if (yamlLib().isNode(node) && node.anchor) {
    // Its aliases elsewhere in the file would change with it.
    throw new UnmergeableError(`${path || 'the file'} is an anchor (&${node.anchor}) whose value changed`);
  }
  if (yamlLib().isMap(node) && isRecord(current) && isRecord(target) && !hasMergeKey(node)) {
    mergeMap(walk, node, current, target, shape, path);
    return node;
  }
  if (yamlLib().isSeq(node) && Array.isArray(current) && Array.isArray(target)) {
    if (shape?.kind === 'list' && shape.match !== 'index') mergeSet(walk, node, current, target, shape, path);
    else mergeList(walk, node, current, target, shape?.kind === 'list' ? shape.items : undefined, path);
    return node;
  }
  walk.changed.push(path);
  if (yamlLib().isScalar(node) && typeof node.value === 'string' && typeof target === 'string') {
    // Same node, new text: its quoting and comments stay; yaml quotes the text where the old style cannot hold it.
    if (node.value.includes('\n') !== target.includes('\n')) node.type = undefined;
    node.value = target;
    return node;
  }
  return replacement(walk.doc, node, target);
}

/**
 * Every alias still comes after its anchor. A key or element the service no longer has, or a value replaced whole,
 * may have held the anchor an alias elsewhere refers to: such a document cannot be printed.
 */
export function checkAliases(doc: Document): void {
  // A node without an anchor adds undefined, which no alias names.
  const anchors = new Set<string | undefined>();
  yamlLib().visit(doc, {
    Alias(_key, alias) {
      if (!anchors.has(alias.source)) {
        throw new UnmergeableError(`*${alias.source} refers to an anchor the service's changes remove`);
      }
    },
    Node(_key, node) {
      anchors.add(node.anchor);
    },
  });
}

function mergeMap(
  walk: MergeWalk,
  map: YAMLMap,
  current: Json,
  target: Json,
  shape: Shape | undefined,
  path: string,
) {
  const keys = map.items.map(keyOf);
  if (new Set(keys).size !== keys.length) throw new UnmergeableError(`${path || 'the file'} repeats a key`);
  for (const pair of [...map.items]) {
    const key = keyOf(pair);
    if (Object.hasOwn(target, key) || isImplied(current[key], key, shape)) continue;
    map.items.splice(map.items.indexOf(pair), 1);
    walk.changed.push(join(path, key));
  }
  const fields = shape?.kind === 'object' ? shape.fields : {};
  // New keys go after the last key that precedes them in the target's (the schema's) order.
  let after = -1;
  for (const key of inSchemaOrder(Object.keys(target), fields)) {
    const value = target[key];
    const index = map.items.findIndex((pair) => keyOf(pair) === key);
    if (index >= 0) {
      const pair = map.items[index]!;
      pair.value = mergeNode(walk, pair.value, current[key], value, fields[key], join(path, key));
      after = Math.max(after, index);
      continue;
    }
    const pair = walk.doc.createPair(key, value, CREATE) as Pair;
    const first = map.items[0];
    if (after < 0 && first !== undefined && yamlLib().isNode(first.key) && path === '') {
      // The file's top comment (the schema modeline) stays on top.
      (pair.key as Node).commentBefore = first.key.commentBefore;
      first.key.commentBefore = undefined;
    }
    after++;
    map.items.splice(after, 0, pair);
    walk.changed.push(join(path, key));
  }
}

/**
 * Lists where order means something (steps, filters, tags): elements equal on both sides are anchors, kept as they
 * are; between anchors, changed elements are edited in place pairwise and the rest deleted or inserted.
 */
function mergeList(
  walk: MergeWalk,
  seq: YAMLSeq,
  current: unknown[],
  target: unknown[],
  items: Shape | undefined,
  path: string,
) {
  // A list of plain values (tags, week days) changes as a whole: one path for it.
  const scalars = [...current, ...target].every((item) => typeof item !== 'object' || item === null);
  // Stryker disable next-line ArrayDeclaration: the paths of a plain list's elements are not reported
  const inner: MergeWalk = scalars ? { doc: walk.doc, changed: [] } : walk;
  const nodes: unknown[] = [];
  let i = 0;
  let j = 0;
  let removed = 0;
  let added = 0;
  const flush = () => {
    for (let k = 0; k < Math.max(removed, added); k++) {
      const at = i - removed + k;
      const to = j - added + k;
      if (k < removed && k < added) {
        nodes.push(mergeNode(inner, seq.items[at], current[at], target[to], items, `${path}[${to}]`));
      } else if (k < added) {
        nodes.push(styledLike(replacement(walk.doc, undefined, target[to]), nodes, seq.items[0]));
        inner.changed.push(`${path}[${to}]`);
      } else {
        inner.changed.push(`${path}[${at}]`);
      }
    }
    removed = 0;
    added = 0;
  };
  for (const change of diffLib().diffArrays(current.map(canonicalJson), target.map(canonicalJson))) {
    if (change.removed) {
      removed += change.count;
      i += change.count;
    } else if (change.added) {
      added += change.count;
      j += change.count;
    } else {
      flush();
      nodes.push(...seq.items.slice(i, i + change.count));
      i += change.count;
      j += change.count;
    }
  }
  flush();
  seq.items = nodes;
  // The list differs (or the walk would not be here): its one path.
  if (scalars) walk.changed.push(path);
}

/**
 * Lists that are sets (template and trigger variables): elements matched by name wherever they stand keep the
 * file's order; the service's new ones are appended, the ones it no longer has deleted. One path for the list.
 */
function mergeSet(
  walk: MergeWalk,
  seq: YAMLSeq,
  current: unknown[],
  target: unknown[],
  shape: ListShape,
  path: string,
) {
  // Stryker disable next-line ArrayDeclaration: the paths of a set's elements are not reported
  const inner: MergeWalk = { doc: walk.doc, changed: [] };
  const unused = new Set(target.keys());
  const nodes: unknown[] = [];
  current.forEach((item, i) => {
    const match = [...unused].find((j) => identityOf(target[j]) === identityOf(item));
    if (match === undefined) return; // the service no longer has it
    unused.delete(match);
    nodes.push(mergeNode(inner, seq.items[i], item, target[match], shape.items, `${path}[${match}]`));
  });
  for (const j of unused) {
    nodes.push(styledLike(replacement(walk.doc, undefined, target[j]), nodes, seq.items[0]));
  }
  seq.items = nodes;
  // The set differs (or the walk would not be here): its one path.
  walk.changed.push(path);
}

/** The schema's keys first, in its order, then any others as they come. */
function inSchemaOrder(keys: string[], fields: Record<string, Shape>): string[] {
  const known = Object.keys(fields).filter((key) => keys.includes(key));
  return [...known, ...keys.filter((key) => !Object.hasOwn(fields, key))];
}

function identityOf(item: unknown): string {
  return isRecord(item) && typeof item.name === 'string' ? `name:${item.name}` : canonicalJson(item);
}

/** A new node for `target`, keeping the comments, blank line and flow style of the node it replaces. */
function replacement(doc: Document, old: unknown, target: unknown): Node {
  const created = doc.createNode(target, CREATE) as Node;
  if (yamlLib().isNode(old)) {
    created.commentBefore = old.commentBefore;
    created.comment = old.comment;
    created.spaceBefore = old.spaceBefore;
    // Stryker disable next-line ConditionalExpression,LogicalOperator: yaml ignores `flow` on a scalar
    if (yamlLib().isCollection(old) && yamlLib().isCollection(created) && old.flow) created.flow = true;
  }
  return created;
}

/** A new list element written the way the one before it is (`- { name: x, type: String }` stays flow). */
function styledLike(created: Node, before: readonly unknown[], fallback: unknown): Node {
  const model = before.at(-1) ?? fallback;
  // Stryker disable next-line ConditionalExpression,LogicalOperator: yaml ignores `flow` on a scalar
  if (yamlLib().isCollection(model) && yamlLib().isCollection(created)) created.flow = model.flow;
  // Elements set apart by blank lines: the new one too (the first element's blank line belongs to its key).
  if (before.length > 1 && yamlLib().isNode(model) && model.spaceBefore) created.spaceBefore = true;
  return created;
}

function keyOf(pair: Pair): string {
  const key = pair.key;
  if (yamlLib().isScalar(key) && (typeof key.value === 'string' || typeof key.value === 'number'))
    return String(key.value);
  throw new UnmergeableError('a key is not plain text');
}

/** `<<: *defaults` brings in keys the map does not hold itself: such a map is replaced whole when it changes. */
function hasMergeKey(map: YAMLMap): boolean {
  return map.items.some((pair) => yamlLib().isScalar(pair.key) && typeof pair.key.value === 'symbol');
}

function join(path: string, key: string): string {
  return path === '' ? key : `${path}.${key}`;
}
