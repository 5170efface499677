/**
 * A value with a comparison's changes (service → file) put back: the service's value set where it differs or only the
 * service has it, creating the objects and lists on the way (a list where an index follows), and what only the file
 * has removed. Used to make the service's version of a definition from the file's (rendered-changes.ts) and the
 * file's value that says what the service holds (pull/file-diff.ts). Pure.
 */
import { isRecord } from '../json.js';

/** One change, at the segments of its pointer: the value to set there, or the removal of what is there. */
export type PutBack =
  | { segments: readonly string[]; value: unknown }
  | { segments: readonly string[]; remove: true };

const INDEX = /^(0|[1-9][0-9]*)$/;

/**
 * Puts the changes into `root`, in place. Removals last, deepest and highest list index first, so that the places
 * the changes name stay those of the file. False when a change has no place in `root` (what was done stays done).
 */
export function putBack(root: unknown, changes: readonly PutBack[]): boolean {
  const removals: Array<readonly string[]> = [];
  for (const change of changes) {
    if ('remove' in change) removals.push(change.segments);
    else if (!setAt(root, change.segments, change.value)) return false;
  }
  removals.sort((a, b) => compareSegments(b, a));
  return removals.every((segments) => removeAt(root, segments));
}

/** Orders pointers so that within one list a higher index comes later, and a pointer before those inside it. */
function compareSegments(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    if (INDEX.test(x) && INDEX.test(y)) return Number(x) - Number(y);
    return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

function setAt(root: unknown, segments: readonly string[], value: unknown): boolean {
  let node = root;
  for (const [i, key] of segments.entries()) {
    const last = i === segments.length - 1;
    if (Array.isArray(node)) {
      if (!INDEX.test(key) || Number(key) > node.length) return false;
    } else if (!isRecord(node)) {
      return false;
    }
    const container = node as Record<string, unknown>;
    if (last) container[key] = value;
    else {
      if (!Object.hasOwn(container, key) || container[key] === undefined)
        container[key] = INDEX.test(segments[i + 1]!) ? [] : {};
      node = container[key];
    }
  }
  return true;
}

function removeAt(root: unknown, segments: readonly string[]): boolean {
  let node = root;
  for (const key of segments.slice(0, -1))
    node = Array.isArray(node) || isRecord(node) ? (node as Record<string, unknown>)[key] : undefined;
  const last = segments.at(-1)!;
  if (Array.isArray(node)) {
    if (!INDEX.test(last) || Number(last) >= node.length) return false;
    node.splice(Number(last), 1);
    return true;
  }
  if (!isRecord(node) || !Object.hasOwn(node, last)) return false;
  delete node[last];
  return true;
}
