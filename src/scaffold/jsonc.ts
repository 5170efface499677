/**
 * A small parser for JSON with comments and trailing commas (what VS Code accepts in settings.json) that keeps
 * the offsets of every node, so a setting can be added without rewriting (and losing the comments of) the rest.
 * Strict otherwise: anything VS Code itself would complain about is an error, never a guess. Pure.
 */

export interface Span {
  /** Offset of the node's first character. */
  start: number;
  /** Offset just past its last character. */
  end: number;
}

export interface JsoncProperty {
  key: string;
  keyStart: number;
  value: JsoncNode;
}

export interface JsoncObject extends Span {
  kind: 'object';
  properties: JsoncProperty[];
}

export interface JsoncArray extends Span {
  kind: 'array';
  items: JsoncNode[];
}

export interface JsoncScalar extends Span {
  kind: 'scalar';
  value: string | number | boolean | null;
}

export type JsoncNode = JsoncObject | JsoncArray | JsoncScalar;

export type JsoncParse = { ok: true; root: JsoncNode } | { ok: false; message: string; offset: number };

/** Deeper nesting than any settings file has: refuse rather than risk the stack. */
const MAX_DEPTH = 200;

class JsoncSyntaxError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(message);
  }
}

export function parseJsonc(text: string): JsoncParse {
  const parser = new Parser(text);
  try {
    return { ok: true, root: parser.parseDocument() };
  } catch (error) {
    if (error instanceof JsoncSyntaxError) return { ok: false, message: error.message, offset: error.offset };
    throw error;
  }
}

/** The plain value of a node (for a duplicate key, the last one wins, as in JSON.parse and VS Code). */
export function jsoncValue(node: JsoncNode): unknown {
  if (node.kind === 'scalar') return node.value;
  if (node.kind === 'array') return node.items.map(jsoncValue);
  // fromEntries defines own properties: a `__proto__` key stays data, never a prototype.
  return Object.fromEntries(node.properties.map((p) => [p.key, jsoncValue(p.value)]));
}

/** 1-based line and column of an offset, for messages. */
export function lineColumnOf(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const LITERALS: ReadonlyArray<[string, boolean | null]> = [
  ['true', true],
  ['false', false],
  ['null', null],
];

class Parser {
  private pos = 0;

  constructor(private readonly text: string) {
    if (text.charCodeAt(0) === 0xfeff) this.pos = 1;
  }

  parseDocument(): JsoncNode {
    this.skipTrivia();
    if (this.pos >= this.text.length) throw new JsoncSyntaxError('no value', this.pos);
    const root = this.parseValue(0);
    this.skipTrivia();
    if (this.pos < this.text.length) throw new JsoncSyntaxError('unexpected text after the value', this.pos);
    return root;
  }

  private parseValue(depth: number): JsoncNode {
    if (depth > MAX_DEPTH) throw new JsoncSyntaxError('nested too deeply', this.pos);
    const char = this.text[this.pos];
    if (char === '{') return this.parseObject(depth);
    if (char === '[') return this.parseArray(depth);
    const start = this.pos;
    if (char === '"') return { kind: 'scalar', value: this.parseString(), start, end: this.pos };
    NUMBER.lastIndex = this.pos;
    const number = NUMBER.exec(this.text);
    if (number) {
      this.pos += number[0].length;
      return { kind: 'scalar', value: Number(number[0]), start, end: this.pos };
    }
    for (const [word, value] of LITERALS) {
      if (this.text.startsWith(word, this.pos)) {
        this.pos += word.length;
        return { kind: 'scalar', value, start, end: this.pos };
      }
    }
    throw new JsoncSyntaxError(char === undefined ? 'unexpected end of file' : 'expected a value', this.pos);
  }

  private parseObject(depth: number): JsoncObject {
    const start = this.pos++;
    const properties: JsoncProperty[] = [];
    for (;;) {
      this.skipTrivia();
      if (this.text[this.pos] === '}') break;
      if (this.text[this.pos] !== '"')
        throw new JsoncSyntaxError('expected a property name or "}"', this.pos);
      const keyStart = this.pos;
      const key = this.parseString();
      this.skipTrivia();
      this.expect(':');
      this.skipTrivia();
      properties.push({ key, keyStart, value: this.parseValue(depth + 1) });
      this.skipTrivia();
      if (this.text[this.pos] === ',') this.pos++;
      else if (this.text[this.pos] !== '}') throw new JsoncSyntaxError('expected "," or "}"', this.pos);
    }
    this.pos++;
    return { kind: 'object', properties, start, end: this.pos };
  }

  private parseArray(depth: number): JsoncArray {
    const start = this.pos++;
    const items: JsoncNode[] = [];
    for (;;) {
      this.skipTrivia();
      if (this.text[this.pos] === ']') break;
      items.push(this.parseValue(depth + 1));
      this.skipTrivia();
      if (this.text[this.pos] === ',') this.pos++;
      else if (this.text[this.pos] !== ']') throw new JsoncSyntaxError('expected "," or "]"', this.pos);
    }
    this.pos++;
    return { kind: 'array', items, start, end: this.pos };
  }

  /** A JSON string literal; JSON.parse checks its escapes. */
  private parseString(): string {
    const start = this.pos++;
    for (;;) {
      const char = this.text[this.pos];
      if (char === undefined || char === '\n') throw new JsoncSyntaxError('unterminated string', start);
      if (char === '\\') this.pos += 2;
      else {
        this.pos++;
        if (char === '"') break;
      }
    }
    try {
      return JSON.parse(this.text.slice(start, this.pos)) as string;
    } catch {
      throw new JsoncSyntaxError('invalid string', start);
    }
  }

  private expect(char: string): void {
    if (this.text[this.pos] !== char) throw new JsoncSyntaxError(`expected "${char}"`, this.pos);
    this.pos++;
  }

  private skipTrivia(): void {
    this.pos = skipTrivia(this.text, this.pos);
    if (this.text.startsWith('/*', this.pos)) throw new JsoncSyntaxError('unterminated comment', this.pos);
  }
}

/**
 * The offset of the first character at or after `pos` that is not whitespace or a comment (`// line`,
 * `/* block *\/`). A block comment that is never closed is not skipped: the offset is that of its `/*`.
 */
export function skipTrivia(text: string, pos: number): number {
  let at = pos;
  for (;;) {
    const char = text[at];
    if (char === ' ' || char === '\t' || char === '\n' || char === '\r') at++;
    else if (text.startsWith('//', at)) {
      const end = text.indexOf('\n', at);
      at = end === -1 ? text.length : end;
    } else if (text.startsWith('/*', at)) {
      const end = text.indexOf('*/', at + 2);
      if (end === -1) return at;
      at = end + 2;
    } else return at;
  }
}
