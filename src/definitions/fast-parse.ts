/**
 * The fast path for valid definitions: js-yaml parses ~10× cheaper than yaml, so a file that provably reads the
 * same in both is parsed with js-yaml, and yaml only runs if a position is ever asked for (never for a file without
 * findings). The proof has two halves: the text holds none of the constructs where the parsers may part ways
 * (fastPathObstacle), and while js-yaml reads it, every node is one whose value yaml would build the same
 * (checkNode). Anything else, a js-yaml error or warning included, answers undefined: the caller then uses
 * parseDefinition, the reference, so every diagnostic stays exactly what it is. A property test holds the two to
 * the same value wherever this one answers.
 */
import { CORE_SCHEMA, type LoadOptions, load } from 'js-yaml';
import { fastPathObstacle } from './fast-text.js';
import { type LoadLimits, resolveLoadLimits } from './limits.js';
import { createLazyLocate } from './locate.js';
import { createPositions } from './positions.js';
import type { LoadedDefinition } from './types.js';
import { decodeUtf8 } from './utf8.js';

/** What js-yaml's parse-event listener sees of its state (the published types leave `tag` and `anchor` out). */
interface NodeState {
  input: string;
  position: number;
  kind: string | null;
  tag: string | null;
  anchor: string | null;
  result: unknown;
}

/** `maxDepth` is read by js-yaml 4.3 (package.json asks for ^4.3.2) but missing from @types/js-yaml 4.0.9. */
interface FastLoadOptions extends LoadOptions {
  maxDepth: number;
}

/** js-yaml's tag for a plain scalar that no implicit type claimed: a string. */
const PLAIN_STRING = '?';

/** Every plain scalar yaml's core schema reads as a number (from yaml's own int and float tests). */
const YAML_CORE_NUMBER =
  /^(?:[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?|0o[0-7]+|0x[0-9a-fA-F]+|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;

/** Thrown from the listener to stop js-yaml at the first node the fast path cannot vouch for (no stack needed). */
const REFUSED = Object.freeze({ refused: true });

/**
 * The definition, parsed by js-yaml, when the fast path can vouch that yaml would give the same value and no
 * diagnostic at all; undefined otherwise (the file may still be perfectly valid). Never throws.
 */
export function parseDefinitionFast(
  file: string,
  bytes: Uint8Array,
  limits?: Partial<LoadLimits>,
): LoadedDefinition | undefined {
  const { maxBytes, maxDepth } = resolveLoadLimits(limits);
  if (bytes.length > maxBytes) return undefined;
  const decoded = decodeUtf8(bytes);
  if (!decoded.ok || fastPathObstacle(decoded.text) !== undefined) return undefined;
  const text = decoded.text;
  // Every mapping and sequence js-yaml builds must end up in the value: one that does not was a key.
  const built: object[] = [];
  let value: unknown;
  try {
    value = load(text, fastOptions(maxDepth, built));
  } catch {
    // A refusal, a syntax error, a duplicate key, nesting past the limit: the slow path will say which.
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  if (!accountsFor(value, built)) return undefined;
  return { file, text, value, locate: createLazyLocate(text, createPositions(text), maxDepth) };
}

/**
 * Whether the value reaches every collection in `built` (none was used as a key: js-yaml turns such a key into
 * text, yaml reports it), and no list holds a null: js-yaml lets an empty entry (`-` alone) run on into a less
 * indented `-` line as if it belonged to the same list, where yaml reports bad indentation. Each collection must be
 * found itself, not merely counted: js-yaml builds the one-pair mapping of a flow list entry (`[a: b]`) without
 * reporting it, which let a mapping used as a key elsewhere in the file balance a count.
 *
 * js-yaml closes a collection after everything in it, in order, so a walk of the value that visits a node after
 * its children meets the `built` collections in the order they closed: the common answer costs one walk and no
 * hashing (a Set of every collection, the obvious check, cost validate ~2% at 2,000 files). Only when that order
 * does not hold (a mapping whose integer-like keys JavaScript reorders) does the Set decide.
 */
function accountsFor(value: object, built: readonly object[]): boolean {
  const walk = { next: 0, built };
  if (!walkInOrder(value, walk)) return false;
  return walk.next === built.length || reachesAll(value, built);
}

/**
 * The walk after the children: false at a null list entry; `walk.next` moves past each `built` collection met in
 * order. Recursive: js-yaml refused the file deeper than the nesting limit, and itself recursed that deep.
 */
function walkInOrder(node: object, walk: { next: number; built: readonly object[] }): boolean {
  if (Array.isArray(node)) {
    for (const child of node) {
      if (child === null) return false;
      if (typeof child === 'object' && !walkInOrder(child, walk)) return false;
    }
  } else {
    for (const child of Object.values(node)) {
      if (child !== null && typeof child === 'object' && !walkInOrder(child, walk)) return false;
    }
  }
  if (walk.built[walk.next] === node) walk.next++;
  return true;
}

/** Whether the value reaches every collection in `built`, whatever the order (walkInOrder found no null entry). */
function reachesAll(value: object, built: readonly object[]): boolean {
  const missing = new Set(built);
  const pending: object[] = [value];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    missing.delete(node);
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (child !== null && typeof child === 'object') pending.push(child);
    }
  }
  return missing.size === 0;
}

/**
 * Core schema (YAML 1.2: no timestamps, `yes` is text), duplicate keys are errors (`json: false`), any warning
 * refuses. js-yaml counts every node a level deeper than its parent and refuses one at `maxDepth`: a collection
 * with content stays at least one level within wfsync's limit, so yaml never finds the file too deep. `built`
 * collects every mapping and sequence js-yaml closes, in the order it closes them.
 */
function fastOptions(maxDepth: number, built: object[]): FastLoadOptions {
  return {
    maxDepth,
    schema: CORE_SCHEMA,
    json: false,
    onWarning: refuse,
    listener(event, state) {
      if (event !== 'close') return;
      const node = state as unknown as NodeState;
      checkNode(node);
      // A flow collection that is a block list's entry closes twice in a row: kept once.
      if ((node.kind === 'mapping' || node.kind === 'sequence') && node.result !== built[built.length - 1]) {
        built.push(node.result as object);
      }
    },
  };
}

function refuse(): never {
  throw REFUSED;
}

/**
 * One node, just read (`position` is right after it). Refused: an anchor (so no alias can resolve either); a
 * comment glued to the node (`"a"#b`, an error to yaml); a plain scalar js-yaml kept as text but yaml reads as a
 * number (`-.5`, `1e999`); a plain scalar js-yaml read as a number, boolean or null that is not written exactly as
 * JavaScript prints that value (`0x1F`, `-0`, `1.0`, `~`, `True`): yaml may read those differently, and as keys
 * yaml keeps the text where js-yaml prints the value.
 */
function checkNode(state: NodeState): void {
  const { input, position: end, tag } = state;
  if (state.anchor !== null) refuse();
  if (input.charCodeAt(end) === 0x23 /* # */ && !isSpace(input.charCodeAt(end - 1))) refuse();
  if (state.kind !== 'scalar' || tag === null) return;
  if (tag === PLAIN_STRING) {
    const text = state.result as string;
    if (mayBeNumber(text.charCodeAt(0)) && YAML_CORE_NUMBER.test(text)) refuse();
  } else if (plainTokenBefore(input, end) !== String(state.result)) refuse();
}

/**
 * The run of characters a plain number, boolean or null can be written with, ending where the node ends (before
 * any blanks js-yaml read past). Quoted and block scalars never get here: explicit tags are refused by the text
 * check, so a scalar with a tag is a plain one an implicit type claimed.
 */
function plainTokenBefore(input: string, end: number): string {
  let stop = end;
  while (stop > 0 && input.charCodeAt(stop - 1) === 0x20) stop--;
  let start = stop;
  while (start > 0 && isTokenChar(input.charCodeAt(start - 1))) start--;
  return input.slice(start, stop);
}

function isTokenChar(code: number): boolean {
  return (
    (code >= 0x30 && code <= 0x39) || // 0-9
    (code >= 0x41 && code <= 0x5a) || // A-Z
    (code >= 0x61 && code <= 0x7a) || // a-z
    code === 0x2b || // +
    code === 0x2d || // -
    code === 0x2e || // .
    code === 0x5f || // _
    code === 0x7e // ~
  );
}

/** A digit, a sign or a dot: how every number yaml recognizes starts. */
function mayBeNumber(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || code === 0x2b || code === 0x2d || code === 0x2e;
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d;
}
