import type { Page } from './types.js';

/** The largest page the service's paged lists answer (`limit` ≤ 100). */
export const PAGE_LIMIT = 100;

/** However the service answers, no listing reads more than this many pages (100,000 entries at 100 a page). */
export const MAX_PAGES = 1000;

/**
 * Every entry of a paged list, page 0 onwards, bounded whatever the service answers: it stops at a short or empty
 * page, or once `totalCount` entries are read; it never reads more pages than the first answer's `totalCount` calls
 * for (plus one, for entries added meanwhile), nor more than `maxPages`. A service that keeps answering full pages
 * past that is an error, never an endless loop; so is a page longer than `limit` (the service never answers one), so
 * at most `maxPages × limit` entries are ever held.
 */
export async function readAllPages<T>(
  fetchPage: (page: number, limit: number) => Promise<Page<T>>,
  options: { limit?: number; maxPages?: number; what: string; fail: (message: string) => Error },
): Promise<T[]> {
  const limit = options.limit ?? PAGE_LIMIT;
  let maxPages = options.maxPages ?? MAX_PAGES;
  const all: T[] = [];
  for (let page = 0; ; page++) {
    if (page >= maxPages) {
      throw options.fail(
        `the service kept answering full pages of ${options.what} after ${page} pages (${all.length} entries): stopped reading`,
      );
    }
    const answer = await fetchPage(page, limit);
    if (answer.data.length > limit) {
      throw options.fail(
        `the service answered ${answer.data.length} ${options.what} to a page of at most ${limit}: stopped reading`,
      );
    }
    all.push(...answer.data);
    if (page === 0 && answer.totalCount !== undefined)
      maxPages = Math.min(maxPages, Math.ceil(answer.totalCount / limit) + 1);
    if (answer.data.length < limit) return all;
    if (answer.totalCount !== undefined && all.length >= answer.totalCount) return all;
  }
}
