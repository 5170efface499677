import { describe, expect, it } from 'vitest';
import { checkDataShape, parseJsonText, previewsFileOf } from '../../../src/preview/preview-input.js';

describe('parseJsonText', () => {
  it.each([
    ['{"a": 1,\n  "b": }', 2, 8, "not JSON: Unexpected token '}'"],
    ['{"a": 1', 1, 8, 'not JSON: Expected'],
    ['{"padding-padding-padding": 1, "x": tru }', 1, 40, "not JSON: Unexpected token ' '"],
    ['', 1, 1, 'not JSON: Unexpected end of JSON input'],
    ['{"a": 1} x', 1, 10, 'not JSON: Unexpected non-whitespace character after JSON'],
  ])('places the error in %j at %i:%i', (text, line, column, message) => {
    const parsed = parseJsonText(text, 'p.json');
    if ('value' in parsed) throw new Error('parsed');
    expect([parsed.diagnostic.line, parsed.diagnostic.column]).toEqual([line, column]);
    expect(parsed.diagnostic.message.startsWith(message)).toBe(true);
    expect(parsed.diagnostic.message).not.toMatch(/is not valid JSON|at position/);
    expect(parsed.diagnostic.file).toBe('p.json');
  });

  it('parses JSON', () => {
    expect(parseJsonText('{"a": [1]}', 'p.json')).toEqual({ value: { a: [1] } });
  });
});

describe('checkDataShape', () => {
  it('wants objects for payload and subscriber, an array of objects for events', () => {
    expect(checkDataShape('payload', { a: 1 }, 'f')).toBeUndefined();
    expect(checkDataShape('payload', [1], 'f')?.message).toBe('the payload must be a JSON object');
    expect(checkDataShape('subscriber', 'x', 'f')?.message).toBe('the subscriber must be a JSON object');
    expect(checkDataShape('events', [{}, {}], 'f')).toBeUndefined();
    expect(checkDataShape('events', {}, 'f')?.message).toMatch(/must be an array/);
    expect(checkDataShape('events', [{}, 3], 'f')).toMatchObject({
      pointer: '/1',
      message: 'event 1 is not an object (a trigger payload)',
    });
  });
});

describe('previewsFileOf', () => {
  it('keeps the named payloads next to the definition, as JSON', () => {
    expect(previewsFileOf('/p/workflows/order.yaml')).toBe('/p/workflows/order.previews.json');
    expect(previewsFileOf('/p/workflows/order.YML')).toBe('/p/workflows/order.previews.json');
  });
});
