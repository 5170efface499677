import { describe, expect, it } from 'vitest';
import { jsoncValue, lineColumnOf, parseJsonc } from '../../../src/scaffold/jsonc.js';

function plainValue(text: string): unknown {
  const parsed = parseJsonc(text);
  if (!parsed.ok) throw new Error(`${parsed.message} at ${parsed.offset}`);
  return jsoncValue(parsed.root);
}

function errorOf(text: string): { message: string; line: number; column: number } {
  const parsed = parseJsonc(text);
  if (parsed.ok) throw new Error('expected a syntax error');
  return { message: parsed.message, ...lineColumnOf(text, parsed.offset) };
}

describe('parseJsonc', () => {
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

  it('keeps the offsets of keys and values', () => {
    const text = '{ "a": [1, 2], "b": "x" }';
    const parsed = parseJsonc(text);
    if (!parsed.ok || parsed.root.kind !== 'object') throw new Error('expected an object');
    const [a, b] = parsed.root.properties;
    expect(text.slice(a!.keyStart, a!.value.end)).toBe('"a": [1, 2]');
    expect(text.slice(b!.value.start, b!.value.end)).toBe('"x"');
    expect([parsed.root.start, parsed.root.end]).toEqual([0, text.length]);
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
    ['', 'no value', 1, 1],
    ['// only a comment\n', 'no value', 2, 1],
    ['{"a": 1', 'expected "," or "}"', 1, 8],
    ['{"a" 1}', 'expected ":"', 1, 6],
    ['{a: 1}', 'expected a property name or "}"', 1, 2],
    ['{,}', 'expected a property name or "}"', 1, 2],
    ['[1,,2]', 'expected a value', 1, 4],
    ['{"a": "x\n"}', 'unterminated string', 1, 7],
    ['{"a": "\\q"}', 'invalid string', 1, 7],
    ['{} {}', 'unexpected text after the value', 1, 4],
    ['{ /* open', 'unterminated comment', 1, 3],
    ["{'a': 1}", 'expected a property name or "}"', 1, 2],
    ['{"a": undefined}', 'expected a value', 1, 7],
    ['{"a": 01}', 'expected "," or "}"', 1, 8],
  ])('%j is an error: %s at %i:%i', (text, message, line, column) => {
    expect(errorOf(text)).toEqual({ message, line, column });
  });

  it('refuses nesting deeper than any settings file has, instead of overflowing the stack', () => {
    expect(errorOf(`${'['.repeat(100_000)}${']'.repeat(100_000)}`).message).toBe('nested too deeply');
  });
});
