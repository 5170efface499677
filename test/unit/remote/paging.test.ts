import { describe, expect, it } from 'vitest';
import { MAX_PAGES, readAllPages } from '../../../src/remote/paging.js';
import type { Page } from '../../../src/remote/types.js';

const fail = (message: string) => new Error(message);

/** A list of `total` numbers served `limit` at a time, noting each page asked for. */
function served(total: number, options: { totalCount?: number | 'absent' } = {}) {
  const asked: number[] = [];
  const fetchPage = async (page: number, limit: number): Promise<Page<number>> => {
    asked.push(page);
    const data = Array.from({ length: total }, (_, i) => i).slice(page * limit, (page + 1) * limit);
    const totalCount = options.totalCount === undefined ? total : options.totalCount;
    return totalCount === 'absent' ? { data } : { data, totalCount };
  };
  return { fetchPage, asked };
}

describe('readAllPages', () => {
  it('reads every page until the total is reached, and no further', async () => {
    const list = served(250);
    const all = await readAllPages(list.fetchPage, { limit: 100, what: 'changes', fail });
    expect(all).toEqual(Array.from({ length: 250 }, (_, i) => i));
    expect(list.asked).toEqual([0, 1, 2]);
  });

  it('an exact multiple of the page size stops on the total, without asking for an empty page', async () => {
    const list = served(200);
    expect(await readAllPages(list.fetchPage, { limit: 100, what: 'changes', fail })).toHaveLength(200);
    expect(list.asked).toEqual([0, 1]);
  });

  it('without a totalCount: stops at the first short page', async () => {
    const list = served(120, { totalCount: 'absent' });
    expect(await readAllPages(list.fetchPage, { limit: 50, what: 'changes', fail })).toHaveLength(120);
    expect(list.asked).toEqual([0, 1, 2]);
  });

  it('a service that answers full pages forever is stopped at MAX_PAGES, with an error', async () => {
    let asked = 0;
    const endless = async (): Promise<Page<number>> => {
      asked++;
      return { data: Array.from({ length: 10 }, () => 1) };
    };
    await expect(readAllPages(endless, { limit: 10, what: 'changes', fail })).rejects.toThrow(
      `the service kept answering full pages of changes after ${MAX_PAGES} pages (${MAX_PAGES * 10} entries): stopped reading`,
    );
    expect(asked).toBe(MAX_PAGES);
  });

  it('a totalCount that understates the list bounds the pages read to what it calls for, plus one', async () => {
    let asked = 0;
    const lying = async (): Promise<Page<number>> => {
      asked++;
      return { data: Array.from({ length: 10 }, () => 1), totalCount: 25 };
    };
    // 25 entries at 10 a page: 3 pages; the third is full and the total is passed, so it stops there.
    expect(await readAllPages(lying, { limit: 10, what: 'changes', fail })).toHaveLength(30);
    expect(asked).toBe(3);
  });

  it('a totalCount that overstates it: full pages past the count it first gave are an error', async () => {
    let asked = 0;
    const growing = async (page: number): Promise<Page<number>> => {
      asked++;
      return {
        data: Array.from({ length: 10 }, () => page),
        totalCount: 10_000_000 * (page === 0 ? 0 : 1) + 15,
      };
    };
    await expect(readAllPages(growing, { limit: 10, what: 'workflows', fail })).rejects.toThrow(
      'the service kept answering full pages of workflows after 3 pages',
    );
    expect(asked).toBe(3);
  });
});
