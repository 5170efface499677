import type { Alias, Document, Pair, YAMLMap } from 'yaml';
import { FILE_START, type Span, splitPointer } from '../diagnostic.js';
import { compose, parseTokens } from './compose.js';
import type { Positions } from './positions.js';
import { isAlias, isMap, isPair, isScalar, isSeq, type Ranged } from './yaml-lib.js';
import { checkDocument } from './yaml-shape.js';

export type Locate = (pointer: string, target?: 'value' | 'key') => Span;

/**
 * `LoadedDefinition.locate`: walks the YAML tree along an RFC 6901 pointer. A pointer that goes through an
 * alias stops at the alias (the anchor is shared, the alias is where this value comes from). For a path
 * that does not exist it answers with the nearest existing ancestor: a collection's own key when it has
 * one, else the collection's first line. Never throws.
 */
export function createLocate(doc: Document, root: YAMLMap, positions: Positions): Locate {
  const span = (node: Ranged): Span =>
    node.range ? positions.span(node.range[0], node.range[1]) : positions.lineSpan(0);
  const firstLine = (node: Ranged): Span => positions.lineSpan(node.range?.[0] ?? 0);
  /** A missing child of `node`: point at the key that holds `node`, or else at its first line. */
  const missing = (node: Ranged, key: Ranged | undefined): Span => (key ? span(key) : firstLine(node));
  /** An implicit null (`key:` with nothing after it) has an empty range: its key is what can be shown. */
  const valueSpan = (node: Ranged, key: Ranged | undefined): Span =>
    key && node.range && node.range[0] === node.range[1] ? span(key) : span(node);

  const walk = (pointer: string, target: 'value' | 'key'): Span => {
    if (pointer === '') return target === 'key' ? firstLine(root) : span(root);
    if (typeof pointer !== 'string' || !pointer.startsWith('/')) return firstLine(root);
    const segments = splitPointer(pointer);
    let node: unknown = root;
    let key: Ranged | undefined;
    for (let i = 0; i < segments.length; i++) {
      const segment = segments[i]!;
      const last = i === segments.length - 1;
      if (isAlias(node)) return span(node);
      if (isMap(node) || isPair(node)) {
        const pairs: readonly unknown[] = isMap(node) ? node.items : [node];
        const pair = findPair(pairs, segment);
        if (!pair) {
          const via = findMerged(doc, pairs, segment);
          if (via === undefined) return missing(node as Ranged, key);
          if (isAlias(via)) return span(via);
          node = via; // an inline `<<: {…}` mapping: look for the same segment inside it
          i--;
          continue;
        }
        const pairKey = pair.key as Ranged;
        if (last && target === 'key') return span(pairKey);
        if (pair.value === null || pair.value === undefined) return span(pairKey);
        key = pairKey;
        node = pair.value;
        continue;
      }
      if (isSeq(node)) {
        const item = /^(0|[1-9][0-9]*)$/.test(segment) ? node.items[Number(segment)] : undefined;
        if (item === undefined || item === null) return missing(node, key);
        key = undefined;
        node = item;
        continue;
      }
      // A scalar has no children: it is the nearest existing ancestor.
      return valueSpan(node as Ranged, key);
    }
    return valueSpan(node as Ranged, key);
  };

  return (pointer, target = 'value') => {
    try {
      return walk(pointer, target);
    } catch {
      // A locate that throws would turn one misplaced diagnostic into a crash of the whole report.
      return FILE_START;
    }
  };
}

/**
 * A locate that builds the tree from the text on its first call. The text parsed cleanly once with the same
 * options, so this cannot fail; if it somehow did, spans fall back to the start of the file.
 */
export function createLazyLocate(text: string, positions: Positions, maxDepth: number): Locate {
  let locate: Locate | undefined;
  return (pointer, target) => {
    if (locate === undefined) {
      const parsed = parseTokens(text, maxDepth);
      const doc = 'tokens' in parsed ? compose(parsed.tokens, text.length).doc : undefined;
      const root = doc?.contents;
      if (doc === undefined || !isMap(root)) locate = () => FILE_START;
      else {
        // The check rewrites non-string keys (`1:`) to their text, as it did when the value was built.
        checkDocument(root, { file: '', positions, maxDepth });
        locate = createLocate(doc, root, positions);
      }
    }
    return locate(pointer, target);
  };
}

/** The pair for a key; the last one wins, as in the JSON value (duplicates are reported separately). */
function findPair(pairs: readonly unknown[], segment: string): Pair | undefined {
  for (let i = pairs.length - 1; i >= 0; i--) {
    const pair = pairs[i];
    if (isPair(pair) && isScalar(pair.key) && pair.key.value === segment) return pair;
  }
  return undefined;
}

/** A key that only exists through a merge (`<<: *base`): the alias or inline mapping that brings it in. */
function findMerged(doc: Document, pairs: readonly unknown[], segment: string): Alias | YAMLMap | undefined {
  const seen = new Set<unknown>();
  const search = (items: readonly unknown[]): Alias | YAMLMap | undefined => {
    for (const pair of items) {
      if (!isPair(pair) || !isScalar(pair.key) || typeof pair.key.value !== 'symbol') continue;
      const sources = isSeq(pair.value) ? pair.value.items : [pair.value];
      for (const source of sources) {
        const map = isAlias(source) ? source.resolve(doc) : source;
        if (!isMap(map) || seen.has(map)) continue;
        seen.add(map);
        if (findPair(map.items, segment) || search(map.items)) return isAlias(source) ? source : map;
      }
    }
    return undefined;
  };
  return search(pairs);
}
