import { describe, expect, it } from 'vitest';
import { parsePolicy, policyRate, readRateLimitHeaders } from '../../../src/remote/rate-limit-headers.js';

const NOW = Date.parse('2024-10-01T12:00:00.000Z');
const read = (values: Record<string, string>) => readRateLimitHeaders((name) => values[name], NOW);

describe('readRateLimitHeaders', () => {
  it('reads what the service sends (the contract’s free tier)', () => {
    expect(
      read({
        'ratelimit-limit': '150',
        'ratelimit-remaining': '149',
        'ratelimit-reset': '4',
        'ratelimit-policy':
          '150;w=5;burst=165;comment="token bucket";category="global";cost="single";serviceLevel="free"',
      }),
    ).toEqual({
      window: { remaining: 149, resetMs: 4000 },
      resetMs: 4000,
      policy: { quota: 150, windowSeconds: 5, burst: 165 },
    });
  });

  it('adds Retry-After on a 429', () => {
    expect(read({ 'ratelimit-remaining': '0', 'ratelimit-reset': '1', 'retry-after': '1' })).toEqual({
      window: { remaining: 0, resetMs: 1000 },
      resetMs: 1000,
      retryAfterMs: 1000,
    });
  });

  it('uses a count only with its reset', () => {
    expect(read({ 'ratelimit-remaining': '3' })).toEqual({});
    expect(read({ 'ratelimit-reset': '3' })).toEqual({ resetMs: 3000 });
    expect(read({ 'ratelimit-remaining': 'three', 'ratelimit-reset': '3' })).toEqual({ resetMs: 3000 });
  });

  it('reads a bare RateLimit-Limit as requests per second', () => {
    expect(read({ 'ratelimit-limit': '30' }).policy).toEqual({ quota: 30, windowSeconds: 1 });
    expect(read({ 'ratelimit-limit': '100, 100;w=60' }).policy).toEqual({ quota: 100, windowSeconds: 1 });
    expect(read({ 'ratelimit-limit': 'lots' }).policy).toBeUndefined();
  });

  it('prefers RateLimit-Policy to RateLimit-Limit', () => {
    expect(read({ 'ratelimit-limit': '150', 'ratelimit-policy': '150;w=5' }).policy).toEqual({
      quota: 150,
      windowSeconds: 5,
    });
  });
});

describe('parsePolicy', () => {
  it('takes the slowest of several policies', () => {
    expect(parsePolicy('10;w=1, 300;w=60')).toEqual({ quota: 300, windowSeconds: 60 });
    expect(policyRate(parsePolicy('10;w=1, 300;w=60')!)).toBe(5);
  });

  it('does not split inside a quoted comment', () => {
    expect(parsePolicy('150;w=5;comment="bucket, per environment";burst=165')).toEqual({
      quota: 150,
      windowSeconds: 5,
      burst: 165,
    });
    expect(parsePolicy('150;w=5;comment="a \\" quote, and a comma"')).toEqual({
      quota: 150,
      windowSeconds: 5,
    });
  });

  it('reads the later drafts’ named form (q=)', () => {
    expect(parsePolicy('"default";q=100;w=10')).toEqual({ quota: 100, windowSeconds: 10 });
  });

  it('a window of one second when w is missing; nothing when the numbers are unusable', () => {
    expect(parsePolicy('30')).toEqual({ quota: 30, windowSeconds: 1 });
    expect(parsePolicy('30;w=0')).toBeUndefined();
    expect(parsePolicy('0;w=1')).toBeUndefined();
    expect(parsePolicy('x;w=1')).toBeUndefined();
    expect(parsePolicy('')).toBeUndefined();
    expect(parsePolicy(undefined)).toBeUndefined();
  });
});
