import { badRequest } from './http-error.js';

/**
 * The service's paged lists: `page` from 0 (default 0), `limit` 1–100 (default 10), both integers, checked as its
 * query DTOs do (all messages in one 400); the answer is `{data, totalCount, page, pageSize}` at the top level.
 */

export interface Paging {
  page: number;
  limit: number;
}

export interface PagedAnswer<T> {
  data: T[];
  totalCount: number;
  page: number;
  pageSize: number;
}

export function readPaging(query: URLSearchParams, extra: string[] = []): Paging {
  const messages = [...extra];
  const number = (name: string, fallback: number, min: number, max?: number): number => {
    const raw = query.get(name);
    if (raw === null || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value)) messages.push(`${name} must be an integer number`);
    else if (value < min) messages.push(`${name} must not be less than ${min}`);
    else if (max !== undefined && value > max) messages.push(`${name} must not be greater than ${max}`);
    return value;
  };
  const page = number('page', 0, 0);
  const limit = number('limit', 10, 1, 100);
  if (messages.length > 0) throw badRequest(messages);
  return { page, limit };
}

export function pageOf<T>(items: readonly T[], paging: Paging): PagedAnswer<T> {
  const start = paging.page * paging.limit;
  return {
    data: items.slice(start, start + paging.limit),
    totalCount: items.length,
    page: paging.page,
    pageSize: paging.limit,
  };
}
