/**
 * JSON with comments and trailing commas (what VS Code accepts in settings.json), read and edited with VS Code's own
 * `jsonc-parser`: an edit changes only the text it adds, so comments, order and every other setting are kept. Strict
 * on reading: anything the parser reports is an error, never a recovered guess. Pure.
 */
import {
  applyEdits,
  createScanner,
  findNodeAtLocation,
  format,
  type JSONPath,
  modify,
  type Node,
  type ParseError,
  parseTree,
  printParseErrorCode,
} from 'jsonc-parser';

export type { Node as JsoncNode } from 'jsonc-parser';

export type JsoncRead =
  | { ok: true; root: Node }
  | { ok: false; message: string; line: number; column: number };

/** Deeper nesting than any settings file has: refused, as the parser recurses per level. */
const MAX_DEPTH = 200;

/** A byte order mark, which VS Code accepts and the parser does not: read as a space, kept in edits. */
const BOM = '\uFEFF';
const blankBom = (text: string): string => (text.startsWith(BOM) ? ` ${text.slice(1)}` : text);

/** The parser's error codes, in words. */
const MESSAGES: Record<ReturnType<typeof printParseErrorCode>, string> = {
  InvalidSymbol: 'unexpected character',
  InvalidNumberFormat: 'invalid number',
  PropertyNameExpected: 'expected a property name or "}"',
  ValueExpected: 'expected a value',
  ColonExpected: 'expected ":"',
  CommaExpected: 'expected ","',
  CloseBraceExpected: 'expected "}"',
  CloseBracketExpected: 'expected "]"',
  EndOfFileExpected: 'unexpected text after the value',
  InvalidCommentToken: 'invalid comment',
  UnexpectedEndOfComment: 'unterminated comment',
  UnexpectedEndOfString: 'unterminated string',
  UnexpectedEndOfNumber: 'unterminated number',
  InvalidUnicode: 'invalid unicode escape',
  InvalidEscapeCharacter: 'invalid escape character',
  InvalidCharacter: 'invalid character in a string',
  '<unknown ParseErrorCode>': 'syntax error',
};

/** The syntax tree of `text`, or its first error (1-based line and column). */
export function readJsonc(text: string): JsoncRead {
  const errors: ParseError[] = [];
  const deep = tooDeepAt(blankBom(text));
  if (deep !== undefined) return { ok: false, message: 'nested too deeply', ...lineColumnOf(text, deep) };
  const root = parseTree(blankBom(text), errors, { allowTrailingComma: true, disallowComments: false });
  const first = errors[0];
  if (first !== undefined || root === undefined) {
    const offset = first?.offset ?? 0;
    const message = first === undefined ? 'no value' : MESSAGES[printParseErrorCode(first.error)];
    return { ok: false, message, ...lineColumnOf(text, offset) };
  }
  return { ok: true, root };
}

/** The offset of the first bracket that opens a level past MAX_DEPTH, if any (the scanner skips strings, comments). */
function tooDeepAt(text: string): number | undefined {
  const scanner = createScanner(text, true);
  let depth = 0;
  // A token's first character tells a bracket from a string or anything else (the scanner's kinds are a const enum).
  for (scanner.scan(); scanner.getTokenLength() > 0; scanner.scan()) {
    const char = text[scanner.getTokenOffset()];
    if (char === '{' || char === '[') {
      if (++depth > MAX_DEPTH) return scanner.getTokenOffset();
    } else if (char === '}' || char === ']') depth--;
  }
  return undefined;
}

/**
 * The plain value of a node. A duplicate key: the last one wins (as in JSON.parse and VS Code); fromEntries defines
 * own properties, so a `__proto__` key stays data, never a prototype.
 */
export function jsoncValue(node: Node): unknown {
  if (node.type === 'object') {
    return Object.fromEntries(
      (node.children ?? []).map((p) => [p.children?.[0]?.value, jsoncValue(p.children?.[1] as Node)]),
    );
  }
  if (node.type === 'array') return (node.children ?? []).map(jsoncValue);
  return node.value;
}

/** The properties of an object node: each key with its value node. */
export function propertiesOf(node: Node): Array<{ key: string; value: Node }> {
  return (node.children ?? []).map((p) => ({
    key: p.children?.[0]?.value as string,
    value: p.children?.[1] as Node,
  }));
}

/**
 * `text` with the value at `path` set (a path ending in -1 appends to an array). Every byte but the edit's stays as
 * it was (the parser's own formatting of an edit reformats the whole lines it touches, a neighbour's value
 * included). What is added is laid out in the file's indentation and line ending, except in a container written on
 * one line with members already, which stays on one line (`["a", "b"]` → `["a", "b", "c"]`).
 */
export function setJsonc(text: string, path: JSONPath, value: unknown): string {
  const body = blankBom(text);
  const root = parseTree(body);
  const parent = root && findNodeAtLocation(root, path.slice(0, -1));
  const oneLine =
    parent !== undefined && !body.slice(parent.offset, parent.offset + parent.length).includes('\n');
  const edits = modify(body, path, value, { isArrayInsertion: path.at(-1) === -1 });
  let edited: string;
  if (oneLine && (parent.children?.length ?? 0) > 0) {
    edited = applyEdits(
      body,
      edits.map((edit) => ({ ...edit, content: edit.content.replace(/^,/, ', ') })),
    );
  } else {
    const added = applyEdits(body, edits);
    // The added text and the blank before it; an empty one-line container (`{}`) as a whole.
    const ranges = edits.map((edit) =>
      oneLine
        ? { offset: parent.offset, length: parent.length + edit.content.length - edit.length }
        : { offset: edit.offset - 1, length: edit.content.length + 1 },
    );
    edited = applyEdits(
      added,
      ranges.flatMap((range) => format(added, range, layoutOf(body))),
    );
  }
  return body === text ? edited : BOM + edited.slice(1);
}

/** The file's indent (from its first indented key) and line ending; two spaces and LF by default. */
function layoutOf(text: string): { insertSpaces: boolean; tabSize: number; eol: string } {
  const indent = /^([ \t]+)"/m.exec(text)?.[1] ?? '  ';
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  return indent.startsWith('\t')
    ? { insertSpaces: false, tabSize: 4, eol }
    : { insertSpaces: true, tabSize: indent.length, eol };
}

function lineColumnOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}
