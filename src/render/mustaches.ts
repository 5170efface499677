/**
 * The mustaches of a template as `/\{\{\{?~?\s*([\s\S]*?)\s*~?\}?\}\}/g` finds them (the reference the tests hold
 * this to), without the expression: its lazy group tried the closing part at every character, which cost validate's
 * render checks more than the rest of deciding whether a template calls a helper. Pure.
 */
import { isUnicodeSpace } from '../derive/fast-template.js';

const OPEN = 0x7b; // {
const CLOSE = 0x7d; // }
const TILDE = 0x7e;

/** One mustache: its inner text (spaces and `~` around it left out, as the expression's group) and where it ends. */
export interface Mustache {
  inner: string;
  end: number;
}

/**
 * The first mustache at or after `from`: the leftmost `{{`, an optional third `{` and `~` and spaces skipped, then
 * the shortest inner text after which spaces, an optional `~` and `}}` (or `}}}`) follow. That closing is the first
 * `}}` after the opening (anything between else holds a `}`, which neither spaces nor `~` are), and the inner text
 * ends before the spaces and `~` in front of it. Undefined when there is none: with no `}}` after a `{{`, no later
 * `{{` has one either.
 */
export function nextMustache(source: string, from: number): Mustache | undefined {
  const start = source.indexOf('{{', from);
  if (start === -1) return undefined;
  let j = start + 2;
  if (source.charCodeAt(j) === OPEN) j++;
  if (source.charCodeAt(j) === TILDE) j++;
  while (isSpace(source.charCodeAt(j))) j++;
  const close = source.indexOf('}}', j);
  if (close === -1) return undefined;
  let k = close;
  if (k > j && source.charCodeAt(k - 1) === TILDE) k--;
  while (k > j && isSpace(source.charCodeAt(k - 1))) k--;
  // `\}?` is greedy: a third `}` is taken when there is one.
  const end = source.charCodeAt(close + 2) === CLOSE ? close + 3 : close + 2;
  return { inner: source.slice(j, k), end };
}

/** JavaScript's `\s`. */
function isSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d) || isUnicodeSpace(c);
}
