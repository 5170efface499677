import { describe, expect, it } from 'vitest';
import { jsoncValue, readJsonc, setJsonc } from '../../../src/scaffold/jsonc.js';

function plainValue(text: string): unknown {
  const read = readJsonc(text);
  if (!read.ok) throw new Error(`${read.message} at ${read.line}:${read.column}`);
  return jsoncValue(read.root);
}

function errorOf(text: string): { message: string; line: number; column: number } {
  const read = readJsonc(text);
  if (read.ok) throw new Error('expected a syntax error');
  return { message: read.message, line: read.line, column: read.column };
}

describe('readJsonc', () => {
  it('reads what JSON.parse reads, with the same values', () => {
    const text = JSON.stringify({
      a: 1,
      b: [true, false, null, -1.5e3, 'x\n"y"\u00e9'],
      c: { d: {}, e: [] },
      '': 0,
    });
    expect(plainValue(text)).toEqual(JSON.parse(text));
  });

  it('skips line and block comments and accepts trailing commas, as VS Code settings do', () => {
    const text = `// settings
{
  /* block
     comment */ "editor.tabSize": 2, // after a value
  "files.exclude": { "**/.git": true, },
  "list": [1, 2,],
}
// end`;
    expect(plainValue(text)).toEqual({
      'editor.tabSize': 2,
      'files.exclude': { '**/.git': true },
      list: [1, 2],
    });
  });

  it('skips a byte order mark', () => {
    expect(plainValue('\uFEFF{"a": 1}')).toEqual({ a: 1 });
  });

  it('a duplicate key: the last value wins, as in JSON.parse; __proto__ is an ordinary key', () => {
    expect(plainValue('{"a": 1, "a": 2}')).toEqual({ a: 2 });
    const value = plainValue('{"__proto__": {"polluted": true}}') as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it.each([
    ['', 'expected a value', 1, 1],
    ['// only a comment\n', 'expected a value', 2, 1],
    ['{"a": 1', 'expected "}"', 1, 8],
    ['{"a" 1}', 'expected ":"', 1, 6],
    ['{a: 1}', 'unexpected character', 1, 2],
    ['{,}', 'expected a value', 1, 2],
    ['[1,,2]', 'expected a value', 1, 4],
    ['{"a": "x\n"}', 'unterminated string', 1, 7],
    ['{"a": "\\q"}', 'invalid escape character', 1, 7],
    ['{} {}', 'unexpected text after the value', 1, 4],
    ['{ /* open', 'unterminated comment', 1, 3],
    ["{'a': 1}", 'unexpected character', 1, 2],
    ['{"a": undefined}', 'unexpected character', 1, 7],
    ['{"a": 01}', 'expected ","', 1, 8],
  ])('%j is an error: %s at %i:%i', (text, message, line, column) => {
    expect(errorOf(text)).toEqual({ message, line, column });
  });

  it('refuses nesting deeper than any settings file has, instead of overflowing the stack', () => {
    expect(errorOf(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)).toEqual({
      message: 'nested too deeply',
      line: 1,
      column: 201,
    });
    // Brackets inside strings and comments are not nesting.
    expect(plainValue(`{"a": "${'['.repeat(500)}" /* ${'{'.repeat(500)} */}`)).toEqual({
      a: '['.repeat(500),
    });
  });
});

describe('setJsonc', () => {
  // A comment after the last member follows the new one, as in VS Code's own settings edits (the same library).
  it('sets a value in the file’s own indentation and line ending, keeping its comments and byte order mark', () => {
    expect(setJsonc('\uFEFF{\r\n\t"a": 1 /* one */\r\n}\r\n', ['b'], { c: [true] })).toBe(
      '\uFEFF{\r\n\t"a": 1,\r\n\t"b": {\r\n\t\t"c": [\r\n\t\t\ttrue\r\n\t\t]\r\n\t} /* one */\r\n}\r\n',
    );
  });

  it('a path ending in -1 appends to the array', () => {
    expect(setJsonc('{\n    "a": [\n        1, // one\n        2\n    ]\n}', ['a', -1], 3)).toBe(
      '{\n    "a": [\n        1, // one\n        2,\n        3\n    ]\n}',
    );
  });
});
