import { describe, expect, it } from 'vitest';
import {
  parsePolicyRate,
  parseRateLimitReset,
  parseRetryAfter,
  readRateLimitHeaders,
} from '../../../src/remote/rate-limit-headers.js';

const NOW = Date.parse('2024-10-01T12:00:00.000Z');
const read = (values: Record<string, string>) => readRateLimitHeaders((name) => values[name], NOW);

describe('readRateLimitHeaders', () => {
  it('reads what the service sends (the contract’s free tier): 150 per 5 s is 30 per second', () => {
    expect(
      read({
        'ratelimit-limit': '150',
        'ratelimit-remaining': '149',
        'ratelimit-reset': '4',
        'ratelimit-policy':
          '150;w=5;burst=165;comment="token bucket";category="global";cost="single";serviceLevel="free"',
      }),
    ).toEqual({ requestsPerSecond: 30, resetMs: 4000 });
  });

  it('adds Retry-After on a 429', () => {
    expect(read({ 'ratelimit-remaining': '0', 'ratelimit-reset': '1', 'retry-after': '1' })).toEqual({
      resetMs: 1000,
      retryAfterMs: 1000,
    });
  });

  it('reads a bare RateLimit-Limit as requests per second', () => {
    expect(read({ 'ratelimit-limit': '30' }).requestsPerSecond).toBe(30);
    expect(read({ 'ratelimit-limit': '100, 100;w=60' }).requestsPerSecond).toBe(100);
    expect(read({ 'ratelimit-limit': 'lots' }).requestsPerSecond).toBeUndefined();
  });

  it('prefers RateLimit-Policy to RateLimit-Limit', () => {
    expect(read({ 'ratelimit-limit': '150', 'ratelimit-policy': '150;w=5' }).requestsPerSecond).toBe(30);
  });
});

describe('parsePolicyRate', () => {
  it('takes the slowest of several policies', () => {
    expect(parsePolicyRate('10;w=1, 300;w=60')).toBe(5);
  });

  it('does not split inside a quoted comment', () => {
    expect(parsePolicyRate('150;w=5;comment="bucket, per environment";burst=165')).toBe(30);
    expect(parsePolicyRate('150;w=5;comment="a \\" quote, 1;w=100"')).toBe(30);
  });

  it('reads the later drafts’ named form (q=)', () => {
    expect(parsePolicyRate('"default";q=100;w=10')).toBe(10);
  });

  it('a window of one second when w is missing; nothing when the numbers are unusable', () => {
    expect(parsePolicyRate('30')).toBe(30);
    expect(parsePolicyRate('30;w=0')).toBeUndefined();
    expect(parsePolicyRate('0;w=1')).toBeUndefined();
    expect(parsePolicyRate('x;w=1')).toBeUndefined();
    expect(parsePolicyRate('')).toBeUndefined();
    expect(parsePolicyRate(undefined)).toBeUndefined();
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
