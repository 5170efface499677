/**
 * A one-pass parser for the Handlebars that real templates use, about 20 times cheaper than Handlebars' Jison parser.
 * It answers only for this subset, and builds exactly the nodes `parseWithoutProcessing` builds there (on every field
 * of HbsNode: type, loc.start, path, params, program, inverse, parts, original, depth, data):
 *
 *   template  := (content | `{{` path params `}}` | `{{{` path params `}}}` | block)*
 *   block     := `{{#` path params `}}` template (`{{else}}` template)? `{{/` path `}}`   (same path text)
 *   params    := (spaces path)* spaces?          path := segment (`.` segment)*
 *   segment   := [A-Za-z_$:?] [A-Za-z0-9_$:?-]*  and any non-ASCII character but white space; not `this`,
 *                `true`, `false`, `null` or `undefined`
 *
 * Spaces are the ASCII ones. Everything else returns undefined so that Handlebars decides, errors included: `\{{`,
 * comments, `~`, `../`, `this`, `@data`, `[literal]` segments, partials, decorators, `{{^`, `{{else if}}`,
 * sub-expressions, hashes, literals, block params, a stray `}}}`, an unclosed or mismatched block, NUL, U+2028 and
 * U+2029 (Handlebars' lexer miscounts columns after those), control characters in names.
 * Why each restriction holds is written next to the check, with the lexer rule it follows (parser.js, `lexer.rules`).
 */
import { MAX_DEFINITION_DEPTH } from '../json.js';
import type { HbsNode, HbsProgram } from './types.js';

export interface FastTemplate {
  program: HbsProgram;
  /** Offsets where each line starts, lines broken at `\r\n`, `\r` or `\n` as Handlebars' lexer counts them. */
  lineStarts: number[];
}

/** The template's AST as Handlebars would build it, or undefined when `source` is outside the subset. */
export function fastParseTemplate(source: string): FastTemplate | undefined {
  return new Scanner(source).run();
}

const LF = 10;
const CR = 13;
const SPACE = 32;
const BACKSLASH = 92;
const DOT = 46;
const HASH = 35;
const SLASH = 47;
const OPEN = 123;
const CLOSE = 125;

// The ASCII characters of a Handlebars ID (`[^\s!"#%-,\.\/;->@\[-\^`\{-~]`) minus control characters.
const ID_ASCII = new Uint8Array(128);
for (const c of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$:?-')
  ID_ASCII[c.charCodeAt(0)] = 1;

/** Beyond ASCII an ID takes anything but JavaScript's `\s` (which U+2028/U+2029 belong to). NaN (past the end) is not. */
function isIdChar(c: number): boolean {
  return c < 0x80 ? ID_ASCII[c] === 1 : c >= 0x80 && !isUnicodeSpace(c);
}

/** JavaScript's `\s` beyond ASCII: the Unicode space separators, U+2028, U+2029 and the BOM. */
export function isUnicodeSpace(c: number): boolean {
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/** `\t \n \v \f \r` and space. */
function isAsciiSpace(c: number): boolean {
  return c === SPACE || (c >= 9 && c <= 13);
}

/** `\w`, for the `\b` of `{{else\b` (rule 18). */
function isWordChar(c: number): boolean {
  return c < 0x80 && ID_ASCII[c] === 1 && c !== 36 && c !== 58 && c !== 63 && c !== 45; // not $ : ? -
}

interface Frame {
  block: HbsNode & { path: HbsNode; inverse?: HbsProgram };
  parent: HbsNode[];
}

type Loc = { start: { line: number; column: number } };

interface Call {
  path: HbsNode;
  params: HbsNode[];
}

class Scanner {
  private i = 0;
  private line = 1;
  private lineStart = 0;
  private readonly lineStarts = [0];
  private readonly root: HbsNode[] = [];
  /** Where statements go: the root, a block's program or its inverse. */
  private body = this.root;
  private readonly open: Frame[] = [];

  constructor(private readonly source: string) {}

  run(): FastTemplate | undefined {
    const { source } = this;
    while (this.i < source.length) {
      const start = this.i;
      const loc = this.loc();
      if (!this.skipContent()) return undefined;
      if (this.i > start)
        this.body.push({ type: 'ContentStatement', original: source.slice(start, this.i), loc });
      if (this.i < source.length && !this.tag()) return undefined;
    }
    if (this.open.length > 0) return undefined;
    return { program: { type: 'Program', body: this.root }, lineStarts: this.lineStarts };
  }

  /**
   * At `{{`. Handlebars tries its opening tokens in rule order (9-23); the ones outside the subset (`{{{{`, `{{#>`,
   * `{{#*`, `{{~`, `{{>`, `{{^`, `{{&`, `{{!`, `{{*`) all put a character no name takes where the name is read.
   */
  private tag(): boolean {
    const { source } = this;
    const loc = this.loc();
    const kind = source.charCodeAt(this.i + 2);
    if (kind === OPEN) {
      this.i += 3;
      return this.mustache(loc, 3);
    }
    if (kind === HASH) {
      this.i += 3;
      const call = this.call();
      if (call === undefined || !this.close(2)) return false;
      // Deeper is refused by parseTemplate, before Handlebars parses it.
      if (this.open.length >= MAX_DEFINITION_DEPTH) return false;
      const inner: HbsNode[] = [];
      const program = { type: 'Program', body: inner, blockParams: undefined };
      const block = {
        type: 'BlockStatement',
        path: call.path,
        params: call.params,
        program,
        inverse: undefined,
        loc,
      };
      this.body.push(block);
      this.open.push({ block, parent: this.body });
      this.body = inner;
      return true;
    }
    if (kind === SLASH) {
      this.i += 3;
      this.skipSpace();
      const path = this.path();
      this.skipSpace();
      const frame = this.open.pop();
      // validateClose compares the paths' source text; a close without an open is a parse error.
      if (path === undefined || frame === undefined || !this.close(2)) return false;
      if (frame.block.path.original !== path.original) return false;
      this.body = frame.parent;
      return true;
    }
    const word = this.elseTag();
    if (word === 'inverse') return this.inverse();
    if (word === 'chain') return false;
    this.i += 2;
    return this.mustache(loc, 2);
  }

  private mustache(loc: Loc, braces: 2 | 3): boolean {
    const call = this.call();
    if (call === undefined || !this.close(braces)) return false;
    this.body.push({ type: 'MustacheStatement', path: call.path, params: call.params, loc });
    return true;
  }

  /** `{{ else }}`, once per block. */
  private inverse(): boolean {
    const frame = this.open[this.open.length - 1];
    if (frame === undefined || frame.block.inverse !== undefined) return false;
    this.i += 2;
    this.skipSpace();
    this.i += 4;
    this.skipSpace();
    this.i += 2;
    const body: HbsNode[] = [];
    frame.block.inverse = { type: 'Program', body };
    this.body = body;
    return true;
  }

  private loc(): Loc {
    return { start: { line: this.line, column: this.i - this.lineStart } };
  }

  /** Content runs to the next `{{` (rules 0 and 1); false where it ends in `\` (rule 0 escapes) or holds NUL. */
  private skipContent(): boolean {
    const { source } = this;
    const start = this.i;
    for (;;) {
      const c = source.charCodeAt(this.i);
      if (c === OPEN && source.charCodeAt(this.i + 1) === OPEN) {
        return !(this.i > start && source.charCodeAt(this.i - 1) === BACKSLASH);
      }
      if (c === LF || c === CR) this.newLine(c);
      else if (c === 0 || c === 0x2028 || c === 0x2029) return false;
      else if (Number.isNaN(c)) return true;
      else this.i++;
    }
  }

  private newLine(c: number): void {
    this.i += c === CR && this.source.charCodeAt(this.i + 1) === LF ? 2 : 1;
    this.line++;
    this.lineStart = this.i;
    this.lineStarts.push(this.i);
  }

  /** Rule 28 skips `\s+` inside a mustache; a non-ASCII space stops here and the next check declines it. */
  private skipSpace(): void {
    for (let c = this.source.charCodeAt(this.i); isAsciiSpace(c); c = this.source.charCodeAt(this.i)) {
      if (c === LF || c === CR) this.newLine(c);
      else this.i++;
    }
  }

  /**
   * Rules 16 and 18, tried before a plain `{{`: `{{ else }}` is an inverse; `{{else` followed by anything else but a
   * word character (`\b`) opens an `{{else if …}}` chain. Undefined for a mustache (`{{elsewhere}}`).
   */
  private elseTag(): 'inverse' | 'chain' | undefined {
    const { source } = this;
    let k = this.i + 2;
    while (isAsciiSpace(source.charCodeAt(k))) k++;
    if (!source.startsWith('else', k) || isWordChar(source.charCodeAt(k + 4))) return undefined;
    k += 4;
    while (isAsciiSpace(source.charCodeAt(k))) k++;
    return source.charCodeAt(k) === CLOSE && source.charCodeAt(k + 1) === CLOSE ? 'inverse' : 'chain';
  }

  /** `path (spaces path)* spaces?` up to a `}`. */
  private call(): Call | undefined {
    this.skipSpace();
    const path = this.path();
    if (path === undefined) return undefined;
    const params: HbsNode[] = [];
    for (;;) {
      this.skipSpace();
      if (this.source.charCodeAt(this.i) === CLOSE) return { path, params };
      const param = this.path();
      if (param === undefined) return undefined;
      params.push(param);
    }
  }

  /**
   * Dotted ID segments (rules 41 and 27), as preparePath builds them. The ID rule needs one of `=~}\s/.)|` after
   * it; of those only a space, `}` or a `.` before another segment stay in the subset.
   */
  private path(): HbsNode | undefined {
    const { source } = this;
    const start = this.i;
    const loc = this.loc();
    const parts: string[] = [];
    for (;;) {
      const from = this.i;
      while (isIdChar(source.charCodeAt(this.i))) this.i++;
      if (!this.isPlainSegment(from, this.i)) return undefined;
      parts.push(source.slice(from, this.i));
      // `.` before a non-ID character is an ID of its own (rules 25, 26): the next segment comes out empty.
      if (source.charCodeAt(this.i) !== DOT) break;
      this.i++;
    }
    const next = source.charCodeAt(this.i);
    if (next !== CLOSE && !isAsciiSpace(next)) return undefined;
    const original = parts.length === 1 ? (parts[0] as string) : source.slice(start, this.i);
    return { type: 'PathExpression', data: false, depth: 0, parts, original, loc };
  }

  /**
   * Not empty, and lexed as an ID: the number rule (38) takes a leading digit or `-` before `~}\s)`, rules 34-37
   * take `true`/`false`/`undefined`/`null` there; `this` is dropped from `parts` by preparePath.
   */
  private isPlainSegment(from: number, to: number): boolean {
    if (to === from) return false;
    const first = this.source.charCodeAt(from);
    if ((first >= 48 && first <= 57) || first === 45) return false;
    const length = to - from;
    if (length < 4 || length > 9) return true;
    const word = this.source.slice(from, to);
    return word !== 'true' && word !== 'false' && word !== 'null' && word !== 'this' && word !== 'undefined';
  }

  /**
   * `}}` or `}}}`, not followed by another `}`: rules 10 (`}}}}`) and 29 (`}~?}}`) come before rule 30 (`~?}}`), so
   * `{{x}}}` closes with a `}}}` that a `{{` cannot take.
   */
  private close(braces: 2 | 3): boolean {
    const { source } = this;
    const end = this.i + braces;
    for (let k = this.i; k < end; k++) if (source.charCodeAt(k) !== CLOSE) return false;
    if (source.charCodeAt(end) === CLOSE) return false;
    this.i = end;
    return true;
  }
}
