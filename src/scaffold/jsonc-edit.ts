/**
 * Text edits on JSON-with-comments that add one member to an object or array and leave every other byte as it
 * was (comments, order, trailing commas, line endings), matching the surrounding indentation. Pure; callers
 * re-parse the result to check it (vscode-settings.ts does).
 */
import { type JsoncArray, type JsoncObject, type Span, skipTrivia } from './jsonc.js';

/** How new members are laid out: the file's indent unit and line ending. */
export interface JsoncLayout {
  unit: string;
  eol: string;
}

/** The file's indent unit (from its first indented line) and line ending; two spaces and LF by default. */
export function detectLayout(text: string): JsoncLayout {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  // The indentation of the first indented key: comment lines may be indented any way.
  const indented = /^([ \t]+)"/m.exec(text);
  const unit = indented?.[1]?.startsWith('\t') ? '\t' : (indented?.[1] ?? '  ');
  return { unit, eol };
}

/** Adds `"key": value` as the last property of `object`. */
export function insertProperty(
  text: string,
  object: JsoncObject,
  entry: { key: string; value: unknown },
  layout: JsoncLayout,
): string {
  const members = object.properties.map((p) => ({ start: p.keyStart, end: p.value.end }));
  return insertMember(text, object, members, `${JSON.stringify(entry.key)}: `, entry.value, layout);
}

/** Adds `value` as the last item of `array`. */
export function appendItem(text: string, array: JsoncArray, value: unknown, layout: JsoncLayout): string {
  return insertMember(text, array, array.items, '', value, layout);
}

/** Replaces a node's text with `value` (for a node that holds no comments, such as a string). */
export function replaceNode(text: string, node: Span, value: unknown, layout: JsoncLayout): string {
  const formatted = formatJson(value, lineIndentAt(text, node.start), layout);
  return text.slice(0, node.start) + formatted + text.slice(node.end);
}

/** Adds `prefix` + `value` (a key and its value, or an item) as the last member of the container `node`. */
function insertMember(
  text: string,
  node: Span,
  members: readonly Span[],
  prefix: string,
  value: unknown,
  layout: JsoncLayout,
): string {
  const { eol, unit } = layout;
  const close = node.end - 1;
  const last = members.at(-1);
  // Where a comma after the last member would be, if the file has one there (a trailing comma).
  const afterLast = last === undefined ? undefined : skipTrivia(text, last.end);
  const hasTrailingComma = afterLast !== undefined && text[afterLast] === ',';
  const commaAt = last !== undefined && !hasTrailingComma ? last.end : undefined;
  // Insert after the last non-blank character before the closing bracket (after any comment there).
  let at = close;
  while (at > node.start + 1 && /[ \t\r\n]/.test(text[at - 1] ?? '')) at--;

  const singleLine = !text.slice(node.start, node.end).includes('\n');
  if (singleLine && last !== undefined) {
    // `["a", "b"]` → `["a", "b", "c"]`: a one-line container stays on one line.
    const inline = prefix + JSON.stringify(value);
    if (commaAt !== undefined) return `${text.slice(0, commaAt)}, ${inline}${text.slice(commaAt)}`;
    return `${text.slice(0, at)} ${inline}${text.slice(at)}`;
  }
  const parentIndent = lineIndentAt(text, node.start);
  const first = members[0];
  const memberIndent =
    first !== undefined && startsLine(text, first.start)
      ? lineIndentAt(text, first.start)
      : parentIndent + unit;
  const tail = text.slice(at, close);
  const closing = tail.includes('\n') ? tail : eol + parentIndent;
  const member = eol + memberIndent + prefix + formatJson(value, memberIndent, layout);
  const head =
    commaAt === undefined ? text.slice(0, at) : `${text.slice(0, commaAt)},${text.slice(commaAt, at)}`;
  return head + member + closing + text.slice(close);
}

/** JSON for `value`, nested lines indented one unit past `indent`. */
function formatJson(value: unknown, indent: string, layout: JsoncLayout): string {
  return JSON.stringify(value, null, layout.unit)
    .split('\n')
    .join(layout.eol + indent);
}

/** The spaces and tabs that start the line holding `offset`. */
function lineIndentAt(text: string, offset: number): string {
  return /^[ \t]*/.exec(text.slice(text.lastIndexOf('\n', offset - 1) + 1))?.[0] ?? '';
}

/** Whether only indentation precedes `offset` on its line. */
function startsLine(text: string, offset: number): boolean {
  return /(^|\n)[ \t]*$/.test(text.slice(0, offset));
}
