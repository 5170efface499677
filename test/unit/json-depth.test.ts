import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  JsonTooDeepError,
  jsonDepthExceeds,
  MAX_DEFINITION_DEPTH,
  MAX_JSON_DEPTH,
  parseJson,
} from '../../src/json.js';

/** `depth` arrays inside each other: `[[…]]`, its depth exactly `depth`. */
function arrays(depth: number, inner = ''): string {
  return '['.repeat(depth) + inner + ']'.repeat(depth);
}

/** `{"a":{"a":…1}}`, depth `depth`. */
function objects(depth: number): string {
  return `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
}

/** Arrays and objects taking turns, `[{"a":[{"a":…}]}]`, depth `depth` (even). */
function mixed(depth: number): string {
  return `${'[{"a":'.repeat(depth / 2)}null${'}]'.repeat(depth / 2)}`;
}

/** The depth of a JSON value, recursively (the tests' own reference: only used on shallow values). */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  const children = Array.isArray(value) ? value : Object.values(value);
  return 1 + Math.max(0, ...children.map(depthOf));
}

describe('the nesting limits', () => {
  it('leave JSON room for the envelopes around a definition at its limit', () => {
    expect(MAX_DEFINITION_DEPTH).toBe(64);
    expect(MAX_JSON_DEPTH).toBe(128);
  });
});

describe('parseJson', () => {
  it.each([
    ['arrays', arrays],
    ['objects', objects],
    ['arrays and objects', mixed],
  ])('reads %s nested exactly to the limit, refuses one level more', (_name, build) => {
    expect(() => parseJson(build(MAX_JSON_DEPTH))).not.toThrow();
    expect(() => parseJson(build(MAX_JSON_DEPTH + 2))).toThrow(JsonTooDeepError);
    expect(() => parseJson(build(8), 8)).not.toThrow();
    expect(() => parseJson(build(10), 9)).toThrow('nested deeper than 9 levels');
  });

  it('refuses one level past the limit, counting the root as 1', () => {
    expect(() => parseJson(arrays(MAX_JSON_DEPTH + 1))).toThrow(
      `nested deeper than ${MAX_JSON_DEPTH} levels`,
    );
    expect(parseJson('[]', 1)).toEqual([]);
    expect(() => parseJson('[[]]', 1)).toThrow(JsonTooDeepError);
    expect(parseJson('"a"', 0)).toBe('a');
  });

  it.each([
    ['arrays', arrays(100_000)],
    ['objects', objects(100_000)],
    ['arrays and objects', mixed(100_000)],
    ['arrays inside a wide, valid document', `{"data":{"steps":[1,2,3],"x":${arrays(100_000, '1')}}}`],
  ])('refuses %s 100,000 deep without overflowing the stack', (_name, text) => {
    expect(() => parseJson(text)).toThrow(JsonTooDeepError);
  });

  it("keeps JSON.parse's own error for text that is not JSON", () => {
    expect(() => parseJson('{"a":')).toThrow(SyntaxError);
    expect(() => parseJson(`${arrays(200)}x`)).toThrow(SyntaxError);
  });

  it('parses what JSON.parse parses, when within the limit', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        const text = JSON.stringify(value);
        expect(parseJson(text)).toEqual(JSON.parse(text));
      }),
    );
  });
});

describe('jsonDepthExceeds', () => {
  it('agrees with the recursive depth on any value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 10 }), (value, max) => {
        expect(jsonDepthExceeds(value, max)).toBe(depthOf(value) > max);
      }),
    );
  });

  it('looks past shallow siblings for the deep one', () => {
    const value = { a: [1, 2, { b: 'x' }], c: { d: { e: { f: [] } } }, g: null };
    expect(depthOf(value)).toBe(5);
    expect(jsonDepthExceeds(value, 5)).toBe(false);
    expect(jsonDepthExceeds(value, 4)).toBe(true);
  });

  it('answers for a value 100,000 deep', () => {
    let value: unknown = {};
    for (let i = 0; i < 100_000; i++) value = i % 2 === 0 ? [value] : { a: value };
    expect(jsonDepthExceeds(value, MAX_JSON_DEPTH)).toBe(true);
    expect(jsonDepthExceeds(value, 200_000)).toBe(false);
  });
});
