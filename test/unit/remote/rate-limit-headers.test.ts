import { describe, expect, it } from 'vitest';
import {
  parseNonNegativeInteger,
  parsePolicy,
  parseRateLimitReset,
  parseRetryAfter,
  policyRate,
  readRateLimitHeaders,
} from '../../../src/remote/rate-limit-headers.js';

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

describe('parseRetryAfter', () => {
  it('reads delta seconds', () => {
    expect(parseRetryAfter('3', NOW)).toBe(3000);
    expect(parseRetryAfter('120', NOW)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', NOW)).toBe(0);
    expect(parseRetryAfter('1.5', NOW)).toBe(1500);
    expect(parseRetryAfter('0.0001', NOW)).toBe(1);
    expect(parseRetryAfter(' 5', NOW)).toBe(5000);
    expect(parseRetryAfter('5 ', NOW)).toBe(5000);
  });

  it.each([
    ['Tue, 01 Oct 2024 12:00:05 GMT', 5000],
    ['tue, 01 oct 2024 12:00:05 gmt', 5000],
    ['Tuesday, 01-Oct-24 12:00:05 GMT', 5000],
    ['tuesday, 01-oct-24 12:00:05 gmt', 5000],
    ['Tue Oct  1 12:00:05 2024', 5000],
    ['tue oct  1 12:00:05 2024', 5000],
    ['Tue Oct 11 12:00:00 2024', 10 * 86_400_000],
    ['Tue, 01 Oct 2024 11:00:00 GMT', 0],
  ])('reads the HTTP date %j relative to now, never negative', (value, ms) => {
    expect(parseRetryAfter(value, NOW)).toBe(ms);
  });

  it('reads an asctime date as GMT whatever the local time zone', () => {
    const zone = process.env.TZ;
    process.env.TZ = 'America/New_York';
    try {
      expect(parseRetryAfter('Tue Oct  1 12:00:05 2024', NOW)).toBe(5000);
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });

  it.each([
    'soon',
    '-3',
    '1 2',
    '5abc',
    'abc5',
    '+5',
    '5.',
    '.5',
    '1e3',
    '0x10',
    '',
    'Infinity',
    'Tue 5',
    '1 Oct',
    'abc 1',
    'now 2',
    'abc 2024',
    'Oct 1 2024 12:00:05 GMT',
    '2024-10-01T12:00:05Z',
    'Tue, 01 Oct 2024 12:00:05 GMT junk',
    'junk Tue, 01 Oct 2024 12:00:05 GMT',
    'Tue, 01 Oct 2024 12:00:05',
    'Tue, 32 Oct 2024 12:00:05 GMT',
    'Tue, 01 Oct 2024 25:00:00 GMT',
    'Tuesday, 01-Oct-2024 12:00:05 GMT',
    'Tue Oct  1 12:00:05 2024 junk',
    'Tue Oct  1 12:00:05 24',
  ])('ignores what is not delta seconds or an HTTP date: %j', (value) => {
    expect(parseRetryAfter(value, NOW)).toBeUndefined();
  });

  it('ignores an absent header', () => {
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
  });
});
describe('parseRateLimitReset', () => {
  it('reads delta seconds, and epoch seconds when the value is that large', () => {
    expect(parseRateLimitReset('4', NOW)).toBe(4000);
    expect(parseRateLimitReset('60', NOW)).toBe(60_000);
    expect(parseRateLimitReset(' 4 ', NOW)).toBe(4000);
    expect(parseRateLimitReset('0', NOW)).toBe(0);
    expect(parseRateLimitReset('1.5', NOW)).toBe(1500);
    expect(parseRateLimitReset('0.0001', NOW)).toBe(1);
    expect(parseRateLimitReset(String(NOW / 1000 + 7), NOW)).toBe(7000);
    expect(parseRateLimitReset(String(NOW / 1000 + 7.5), NOW)).toBe(7500);
    expect(parseRateLimitReset(String(NOW / 1000 - 60), NOW)).toBe(0);
    expect(parseRateLimitReset(undefined, NOW)).toBeUndefined();
  });

  it('the epoch threshold: 1e9 seconds and above are epoch seconds, below are delta seconds', () => {
    const now = 1_000_000_000_000 - 5000;
    expect(parseRateLimitReset('1000000000', now)).toBe(5000);
    expect(parseRateLimitReset('1000000001', now)).toBe(6000);
    expect(parseRateLimitReset('999999999', now)).toBe(999_999_999_000);
  });

  it.each(['x', '5abc', 'abc5', '-1', '+5', '5.', '.5', '1e3', '', '5 5', 'Tue, 01 Oct 2024 12:00:05 GMT'])(
    'ignores %j',
    (value) => {
      expect(parseRateLimitReset(value, NOW)).toBeUndefined();
    },
  );
});
describe('parseNonNegativeInteger', () => {
  it.each([
    ['0', 0],
    ['7', 7],
    [' 7 ', 7],
    [' 12', 12],
    ['12 ', 12],
    ['150', 150],
  ])('reads %j as %i', (value, n) => {
    expect(parseNonNegativeInteger(value)).toBe(n);
  });

  it.each([undefined, '', '5abc', 'abc5', '5.5', '-1', '+1', '1e3', '5 5', 'five'])('ignores %j', (value) => {
    expect(parseNonNegativeInteger(value)).toBeUndefined();
  });
});
