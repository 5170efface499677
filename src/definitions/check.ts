import {
  type Alias,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  type Pair,
  type Scalar,
  type YAMLMap,
  type YAMLSeq,
} from 'yaml';
import { type Diagnostic, joinPointer, type Span } from '../diagnostic.js';
import type { Positions } from './positions.js';

/**
 * What yaml accepts but a workflow file must not hold, found in one pass over the document without recursion:
 * nesting deeper than the limit (aliases count where they are used), duplicate keys, keys that are not
 * strings, aliases without an anchor or inside their own anchor, bad merge keys, and numbers JSON cannot carry.
 * Plain non-string keys (`1:`, `true:`) are rewritten in place to the text the author wrote, so toJS, locate and
 * duplicate detection all see the same string.
 */
export interface CheckResult {
  diagnostics: Diagnostic[];
  /** The first alias in document order: where an alias-expansion error is reported. */
  firstAlias: Alias | undefined;
}

type Collection = YAMLMap | YAMLSeq;

interface Frame {
  /** A map, a sequence, or a single pair written inside a flow sequence (`[a: 1]`, a one-key object). */
  node: Collection | Pair;
  items: readonly unknown[];
  index: number;
  /** Nesting of this collection in the JSON value; the root is 1. */
  depth: number;
  /** Levels of collections seen below this one so far. */
  below: number;
  parent: Frame | undefined;
  /** Pointer segment from the parent; undefined for a mapping merged in with `<<` (its pairs join the parent). */
  segment: string | undefined;
  /** Merged in with `<<`: same depth as the parent, no pointer segment of its own. */
  merged: boolean;
  keys: Map<string, Scalar> | undefined;
}

export function checkDocument(
  root: YAMLMap,
  context: { file: string; positions: Positions; maxDepth: number },
): CheckResult {
  const { file, positions, maxDepth } = context;
  const diagnostics: Diagnostic[] = [];
  /** Anchor name → the latest node carrying it, in document order (the node an alias at this point means). */
  const anchors = new Map<string, unknown>();
  /** Completed anchored nodes → their height in collection levels; an anchor not here yet is still open. */
  const heights = new Map<unknown, number>();
  let firstAlias: Alias | undefined;

  const report = (
    code: string,
    message: string,
    span: Span,
    frame: Frame | undefined,
    segment?: string | undefined,
  ) => {
    diagnostics.push({ code, severity: 'error', message, file, pointer: pointerOf(frame, segment), ...span });
  };
  const nodeSpan = (node: { range?: [number, number, number] | null }) =>
    node.range ? positions.span(node.range[0], node.range[1]) : positions.lineSpan(0);
  const startSpan = (node: { range?: [number, number, number] | null }) =>
    positions.lineSpan(node.range?.[0] ?? 0);

  const stack: Frame[] = [frameFor(root, undefined, '', 1, false)];
  if (root.anchor !== undefined) anchors.set(root.anchor, root);

  const visitChild = (frame: Frame, child: unknown, segment: string | undefined, merged: boolean) => {
    if (child === null || child === undefined) return;
    if (isScalar(child)) {
      if (child.anchor !== undefined) {
        anchors.set(child.anchor, child);
        heights.set(child, 0);
      }
      checkScalarValue(child, frame, segment);
      return;
    }
    if (isAlias(child)) {
      firstAlias ??= child;
      const source = anchors.get(child.source);
      if (source === undefined) {
        report(
          'yaml-unresolved-alias',
          `alias *${child.source} has no anchor &${child.source} before it`,
          nodeSpan(child),
          frame,
          segment,
        );
        return;
      }
      const height = heights.get(source);
      if (height === undefined) {
        report(
          'yaml-recursive-alias',
          `alias *${child.source} is inside its own anchor, which would make the value infinite`,
          nodeSpan(child),
          frame,
          segment,
        );
        return;
      }
      // A merged mapping lends its pairs to this mapping rather than nesting one level down.
      const reach = frame.depth + height - (merged && height > 0 ? 1 : 0);
      if (reach > maxDepth) {
        report(
          'yaml-too-deep',
          `alias *${child.source} nests the document ${reach} levels deep; the limit is ${maxDepth}`,
          nodeSpan(child),
          frame,
          segment,
        );
        return;
      }
      frame.below = Math.max(frame.below, height - (merged && height > 0 ? 1 : 0));
      return;
    }
    if (isMap(child) || isSeq(child) || isPair(child)) {
      const depth = frame.depth + (merged && isMap(child) ? 0 : 1);
      if (!isPair(child) && child.anchor !== undefined) anchors.set(child.anchor, child);
      if (depth > maxDepth) {
        report(
          'yaml-too-deep',
          `nesting is deeper than ${maxDepth} levels`,
          startSpan(isPair(child) ? (child.key as Scalar) : child),
          frame,
          segment,
        );
        if (!isPair(child)) heights.set(child, maxDepth);
        return;
      }
      stack.push(frameFor(child, frame, segment, depth, merged && isMap(child)));
    }
  };

  const checkScalarValue = (node: Scalar, frame: Frame, segment: string | undefined) => {
    const value: unknown = node.value;
    if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
    if (typeof value === 'number' && Number.isFinite(value)) return;
    report(
      'yaml-non-json-value',
      `${node.source ?? String(value)} is not a JSON value; quote it if you mean the text`,
      nodeSpan(node),
      frame,
      segment,
    );
  };

  /** The key as a JSON property name, or undefined after reporting why it cannot be one. `null` marks `<<`. */
  const keyOf = (pair: Pair, frame: Frame): string | null | undefined => {
    const key = pair.key;
    if (isScalar(key)) {
      if (key.anchor !== undefined) {
        anchors.set(key.anchor, key);
        heights.set(key, 0);
      }
      if (typeof key.value === 'string') return key.value;
      if (typeof key.value === 'symbol') return null;
      const source = key.source ?? '';
      if (source === '' || key.type !== 'PLAIN') {
        const at = key.range && key.range[0] === key.range[1] && isScalar(pair.value) ? pair.value : key;
        report('yaml-non-string-key', 'empty key: every key needs a name', nodeSpan(at), frame);
        return undefined;
      }
      // `1:`, `true:`, `null:`: JSON keys are strings, so keep exactly what the author typed (`1.0`, not `1`).
      key.value = source;
      return source;
    }
    const what = isAlias(key) ? 'an alias' : isSeq(key) ? 'a list' : isMap(key) ? 'a mapping' : 'not text';
    const at =
      key && typeof key === 'object' && 'range' in key
        ? startSpan(key as Scalar)
        : startSpan(frame.node as Collection);
    report('yaml-non-string-key', `a key must be plain text, but this key is ${what}`, at, frame);
    return undefined;
  };

  const visitPair = (frame: Frame, pair: Pair) => {
    const key = keyOf(pair, frame);
    if (key === undefined) return;
    if (key === null) {
      visitMerge(frame, pair);
      return;
    }
    frame.keys ??= new Map();
    const first = frame.keys.get(key);
    if (first === undefined) frame.keys.set(key, pair.key as Scalar);
    else {
      const line = positions.lineOf(first.range?.[0] ?? 0);
      report(
        'yaml-duplicate-key',
        `duplicate key "${key}": it is already set on line ${line}`,
        nodeSpan(pair.key as Scalar),
        frame,
        key,
      );
    }
    visitChild(frame, pair.value, key, false);
  };

  /** `<<` takes a mapping, an alias of one, or a list of those (YAML 1.1 merge keys); their pairs join this map. */
  const visitMerge = (frame: Frame, pair: Pair) => {
    const value = pair.value;
    const sources = isSeq(value) ? value.items : [value];
    if (isSeq(value) && value.anchor !== undefined) {
      anchors.set(value.anchor, value);
      heights.set(value, 1);
    }
    for (const source of sources) {
      if (isAlias(source) || isMap(source)) visitChild(frame, source, undefined, true);
      const target = isAlias(source) ? anchors.get(source.source) : source;
      if (target === undefined && isAlias(source)) continue; // already reported as unresolved
      if (!isMap(target)) {
        const at =
          source && typeof source === 'object' && 'range' in source
            ? (source as Scalar)
            : (pair.key as Scalar);
        report(
          'yaml-invalid-merge',
          'a merge key (<<) takes a mapping, an alias of one, or a list of those',
          nodeSpan(at),
          frame,
        );
      }
    }
  };

  while (stack.length > 0) {
    const frame = stack[stack.length - 1]!;
    if (frame.index >= frame.items.length) {
      stack.pop();
      const height = frame.below + 1;
      if (frame.parent)
        frame.parent.below = Math.max(frame.parent.below, frame.merged ? frame.below : height);
      if (!isPair(frame.node) && frame.node.anchor !== undefined) heights.set(frame.node, height);
      continue;
    }
    const index = frame.index++;
    const item = frame.items[index];
    if (isSeq(frame.node)) visitChild(frame, item, String(index), false);
    else if (isPair(item)) visitPair(frame, item);
  }
  return { diagnostics, firstAlias };
}

function frameFor(
  node: Collection | Pair,
  parent: Frame | undefined,
  segment: string | undefined,
  depth: number,
  merged: boolean,
): Frame {
  const items = isPair(node) ? [node] : node.items;
  return { node, items, index: 0, depth, below: 0, parent, segment, merged, keys: undefined };
}

function pointerOf(frame: Frame | undefined, segment: string | undefined): string {
  const segments: string[] = segment === undefined ? [] : [segment];
  for (let f = frame; f?.parent; f = f.parent)
    if (!f.merged && f.segment !== undefined) segments.push(f.segment);
  return joinPointer('', ...segments.reverse());
}
