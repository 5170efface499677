/**
 * Handlebars parsing for derive: the service's own parser, a loose view of its AST, and parse errors turned into a
 * one-line message with a 0-based offset.
 *
 * Only the compiler's parser module is loaded, not `handlebars` itself: the main entry also loads the runtime,
 * the code generator and a `require.extensions` hook, which roughly doubles the import cost (about 10 ms against
 * 20-25 ms on Node 20) for nothing derive needs. And it is loaded on first use: fast-template.ts answers for most
 * templates, so many runs never need it.
 */
import { messageOf } from '../errors.js';
import { MAX_DEFINITION_DEPTH } from '../json.js';
import { fastParseTemplate } from './fast-template.js';
import { onFirstUse } from './first-use.js';
import { BoundedMemo } from './memo.js';
import { findTooDeepToken } from './template-depth.js';
import type { HbsNode, HbsProgram, TemplateScan } from './types.js';

const handlebars = onFirstUse<typeof import('handlebars/dist/cjs/handlebars/compiler/base.js')>(
  'handlebars/dist/cjs/handlebars/compiler/base.js',
);

export type ParsedTemplate =
  | {
      ok: true;
      program: HbsProgram;
      offsetOf: (node: HbsNode | undefined) => number;
      /** Built by Handlebars' own parser (not fast-template.ts): a program Handlebars can compile. */
      handlebars?: true;
    }
  /** `tooDeep`: refused before parsing, nested deeper than MAX_DEFINITION_DEPTH (template-depth.ts). */
  | { ok: false; message: string; offset: number; tooDeep?: true };

// Only the last string is kept (a rule locating a variable scans the same string twice in a row). The rules do
// read each template two or three times while checking a workflow, but parsing again is cheaper than keeping parsed
// templates alive: kept past a young-generation GC, they (and the file text their strings are cut from) are copied
// and promoted. Measured at 10,000 files: a memo of 512 templates made validate ~10% slower than none. The walkers
// never mutate the result.
const cache = new BoundedMemo<ParsedTemplate>(1);
let fastFirst = true;

/**
 * Parses like the service does (`Handlebars.parseWithoutProcessing`). Never throws.
 * fast-template.ts answers first for the templates it knows, with the same nodes; Handlebars takes everything else,
 * except a template nested deeper than MAX_DEFINITION_DEPTH, refused unparsed: so every AST the walkers see is
 * within that depth (fast-template.ts declines deeper blocks).
 */
export function parseTemplate(source: string): ParsedTemplate {
  return cache.get(source, parseUncached);
}

/**
 * Whether parseTemplate tries fast-template.ts before Handlebars (the default). For the tests that compare the two
 * through the walkers; clears the cache so that no answer of the other mode is reused.
 */
export function setFastTemplateParsing(enabled: boolean): void {
  fastFirst = enabled;
  cache.clear();
}

function parseUncached(source: string): ParsedTemplate {
  const fast = fastFirst ? fastParseTemplate(source) : undefined;
  // Handlebars' line starts are only needed for an offset, which most templates are never asked for.
  let lineStarts = fast?.lineStarts;
  const toOffset = (line: unknown, column: unknown): number => {
    lineStarts ??= lineStartsOf(source);
    return offsetAt(source, lineStarts, line, column);
  };
  const offsetOf = (node: HbsNode | undefined) => toOffset(node?.loc?.start?.line, node?.loc?.start?.column);
  if (fast !== undefined) return { ok: true, program: fast.program, offsetOf };
  const { parser } = handlebars();
  const tooDeep = findTooDeepToken(source, parser.lexer, parser.terminals_, MAX_DEFINITION_DEPTH);
  if (tooDeep !== undefined) {
    return {
      ok: false,
      message: `Handlebars nested deeper than ${MAX_DEFINITION_DEPTH} levels (blocks, \`{{else if}}\` chains and sub-expressions)`,
      offset: toOffset(tooDeep.line, tooDeep.column),
      tooDeep: true,
    };
  }
  let program: unknown;
  try {
    program = handlebars().parseWithoutProcessing(source);
  } catch (error) {
    return { ok: false, ...describeError(source, error, toOffset) };
  }
  if (typeof program !== 'object' || program === null) return { ok: true, program: {}, offsetOf };
  return { ok: true, program: program as HbsProgram, offsetOf, handlebars: true };
}

/**
 * The program Handlebars' parser built for `source` when it is the one parseTemplate last answered, taken out of the
 * memo; undefined otherwise (another string, a failed parse, or fast-template.ts's nodes, which lack what the
 * compiler reads). For the renderer, which compiles it instead of parsing the same text again
 * (`Handlebars.compile(program)`): the compiler's whitespace pass rewrites the program, so no walker may see it after.
 */
export function takeHandlebarsProgram(source: string): HbsProgram | undefined {
  const parsed = cache.take(source);
  if (parsed?.ok === true && parsed.handlebars === true) return parsed.program;
  if (parsed !== undefined) cache.get(source, () => parsed);
  return undefined;
}

/** A failed parse as a scan's error. */
export function scanError(
  failed: Extract<ParsedTemplate, { ok: false }>,
): NonNullable<TemplateScan['error']> {
  const { message, offset, tooDeep } = failed;
  return tooDeep ? { message, offset, tooDeep } : { message, offset };
}

/** The offset of a Handlebars line/column pair, clamped into the source (0 without a position). */
function offsetAt(source: string, lineStarts: readonly number[], line: unknown, column: unknown): number {
  if (typeof line !== 'number' || typeof column !== 'number') return 0;
  const start = lineStarts[Math.max(0, Math.min(line - 1, lineStarts.length - 1))] ?? 0;
  return Math.max(0, Math.min(start + column, source.length));
}

/**
 * Offsets where each line starts, breaking lines where Handlebars' lexer does (`\r\n`, `\r` or `\n`), so that its
 * line/column pairs map back to the right character.
 */
export function lineStartsOf(source: string): number[] {
  const starts = [0];
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (c === 13 && source.charCodeAt(i + 1) === 10) i++;
    if (c === 10 || c === 13) starts.push(i + 1);
  }
  return starts;
}

function describeError(
  source: string,
  error: unknown,
  toOffset: (line: unknown, column: unknown) => number,
): { message: string; offset: number } {
  const raw = messageOf(error);
  const located = error as { lineNumber?: unknown; column?: unknown };
  if (typeof located.lineNumber === 'number') {
    // A Handlebars Exception (`if doesn't match each - 2:9`): the location of the node is on the error.
    return {
      message: firstLine(raw).replace(/ - \d+:\d+$/, ''),
      offset: toOffset(located.lineNumber, located.column),
    };
  }
  if (raw.startsWith('Parse error')) {
    // Jison puts an excerpt and a caret between the first line and `Expecting …, got …`; the lexer still holds the
    // location of the token it could not use.
    const expecting = /\n(Expecting [^\n]*)$/.exec(raw)?.[1];
    const loc = handlebars().parser.lexer.yylloc;
    return {
      message: expecting ? `${firstLine(raw)} ${expecting}` : firstLine(raw),
      offset: toOffset(loc?.first_line, loc?.first_column),
    };
  }
  if (raw.startsWith('Lexical error')) {
    // The lexer stopped in front of the text it could not recognize.
    const rest = handlebars().parser.lexer._input;
    const offset = typeof rest === 'string' ? source.length - rest.length : 0;
    return { message: firstLine(raw), offset: Math.max(0, Math.min(offset, source.length)) };
  }
  return { message: firstLine(raw), offset: 0 };
}

function firstLine(message: string): string {
  return (message.split(/\r?\n/)[0] ?? message).trim();
}
