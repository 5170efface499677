import { describe, expect, it } from 'vitest';
import { readWholeEnvironment } from '../../../src/remote/listed-identifiers.js';

const listed = (...identifiers: string[]) =>
  identifiers.map((identifier, i) => ({ _id: `${i}`, triggers: [{ type: 'event', identifier }] }));

/** The value read: a set of identifiers when the page proves absence, `undefined` when it cannot. */
function read(body: unknown): string[] | undefined {
  const result = readWholeEnvironment(body);
  if (!('value' in result)) throw new Error(result.problem);
  return result.value === undefined ? undefined : [...result.value].sort();
}

describe('readWholeEnvironment: one page that proves a workflow absent, or nothing', () => {
  it('every trigger identifier of a page that holds the whole environment', () => {
    expect(read({ data: listed('b', 'a'), totalCount: 2, page: 0, pageSize: 100 })).toEqual(['a', 'b']);
    expect(read({ data: [], totalCount: 0 })).toEqual([]);
    // Without a count, a short page is the last one.
    expect(read({ data: listed('a') })).toEqual(['a']);
  });

  it('every trigger of an entry counts', () => {
    const entry = { _id: '1', triggers: [{ identifier: 'a' }, { identifier: 'b' }] };
    expect(read({ data: [entry], totalCount: 1 })).toEqual(['a', 'b']);
  });

  it('nothing when more may exist than the page holds', () => {
    const full = listed(...Array.from({ length: 100 }, (_, i) => `w${i}`));
    expect(read({ data: full, totalCount: 101 })).toBeUndefined();
    expect(read({ data: full })).toBeUndefined();
    expect(read({ data: listed('a'), totalCount: 2 })).toBeUndefined();
    expect(read({ data: [...full, ...listed('x')], totalCount: 101 })).toBeUndefined();
  });

  it('nothing when an entry does not name its identifier, or the body is not a page', () => {
    for (const entry of [{ _id: '1' }, { _id: '1', triggers: [] }, { _id: '1', triggers: [{}] }, null, 'x'])
      expect(read({ data: [...listed('a'), entry], totalCount: 2 })).toBeUndefined();
    for (const body of [null, [], { data: {} }, { items: [] }]) expect(read(body)).toBeUndefined();
  });
});
