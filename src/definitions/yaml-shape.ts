import type { Alias, Pair, Scalar, YAMLMap, YAMLSeq } from 'yaml';
import { type Diagnostic, joinPointer, type Span } from '../diagnostic.js';
import { propertyName } from './keys.js';
import type { Positions } from './positions.js';
import { isAlias, isMap, isPair, isScalar, isSeq } from './yaml-lib.js';

/**
 * What yaml accepts but a workflow file must not hold, found in one pass over the document without recursion:
 * nesting deeper than the limit (aliases count where they are used), duplicate keys, keys that are not
 * strings, aliases without an anchor or inside their own anchor, bad merge keys, and numbers JSON cannot carry.
 * Non-string keys are rewritten to their text on the way (see propertyName).
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

  const report = (code: string, message: string, span: Span, frame: Frame, segment?: string) => {
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
        const message = `alias *${child.source} has no anchor &${child.source} before it`;
        report('yaml-unresolved-alias', message, nodeSpan(child), frame, segment);
        return;
      }
      const height = heights.get(source);
      if (height === undefined) {
        const message = `alias *${child.source} is inside its own anchor, which would make the value infinite`;
        report('yaml-recursive-alias', message, nodeSpan(child), frame, segment);
        return;
      }
      // A merged mapping lends its pairs to this mapping rather than nesting one level down.
      const below = merged && height > 0 ? height - 1 : height;
      const reach = frame.depth + below;
      if (reach > maxDepth) {
        const message = `alias *${child.source} nests the document ${reach} levels deep; the limit is ${maxDepth}`;
        report('yaml-too-deep', message, nodeSpan(child), frame, segment);
        return;
      }
      frame.below = Math.max(frame.below, below);
      return;
    }
    if (isMap(child) || isSeq(child) || isPair(child)) {
      const depth = frame.depth + (merged && isMap(child) ? 0 : 1);
      if (!isPair(child) && child.anchor !== undefined) anchors.set(child.anchor, child);
      if (depth > maxDepth) {
        const at = startSpan(isPair(child) ? (child.key as Scalar) : child);
        report('yaml-too-deep', `nesting is deeper than ${maxDepth} levels`, at, frame, segment);
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
    const message = `${node.source ?? String(value)} is not a JSON value; quote it if you mean the text`;
    report('yaml-non-json-value', message, nodeSpan(node), frame, segment);
  };

  const visitPair = (frame: Frame, pair: Pair) => {
    if (isScalar(pair.key) && pair.key.anchor !== undefined) {
      anchors.set(pair.key.anchor, pair.key);
      heights.set(pair.key, 0);
    }
    const property = propertyName(pair);
    if ('problem' in property) {
      const at = property.at ?? (frame.node as Collection);
      report('yaml-non-string-key', property.problem, isScalar(at) ? nodeSpan(at) : startSpan(at), frame);
      return;
    }
    if ('merge' in property) {
      visitMerge(frame, pair);
      return;
    }
    const key = property.name;
    frame.keys ??= new Map();
    const first = frame.keys.get(key);
    if (first === undefined) frame.keys.set(key, pair.key as Scalar);
    else {
      const line = positions.lineOf(first.range?.[0] ?? 0);
      const message = `duplicate key "${key}": it is already set on line ${line}`;
      report('yaml-duplicate-key', message, nodeSpan(pair.key as Scalar), frame, key);
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

function pointerOf(frame: Frame, segment: string | undefined): string {
  const segments: string[] = segment === undefined ? [] : [segment];
  for (let f = frame; f?.parent; f = f.parent)
    if (!f.merged && f.segment !== undefined) segments.push(f.segment);
  return joinPointer('', ...segments.reverse());
}
