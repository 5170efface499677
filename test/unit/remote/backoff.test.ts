import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
  parseNonNegativeInteger,
  parseRateLimitReset,
  parseRetryAfter,
  RateLimitStreak,
  RetryBudget,
} from '../../../src/remote/backoff.js';

const settings = { baseDelayMs: 500, maxDelayMs: 30_000 };
const NOW = Date.parse('2024-10-01T12:00:00.000Z');

describe('backoffDelay', () => {
  it('draws from [0, base·2^(n-1)) with full jitter', () => {
    expect(backoffDelay(1, settings, () => 0)).toBe(0);
    expect(backoffDelay(1, settings, () => 0.999)).toBe(499);
    expect(backoffDelay(3, settings, () => 0.5)).toBe(1000);
  });

  it.each([
    [1, 499],
    [2, 999],
    [3, 1998],
    [4, 3996],
    [7, 29_970],
    [40, 29_970],
  ])('retry %i: at most %i (the ceiling doubles, then stops at maxDelayMs)', (attempt, highest) => {
    expect(backoffDelay(attempt, settings, () => 0.999)).toBe(highest);
    expect(backoffDelay(attempt, settings, () => 0)).toBe(0);
  });

  it('a retry number below 1 is treated as the first retry', () => {
    expect(backoffDelay(0, settings, () => 0.999)).toBe(499);
    expect(backoffDelay(-3, settings, () => 0.999)).toBe(499);
  });

  it('never exceeds maxDelayMs, whatever the attempt and the server hint', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.double({ min: 0, max: 0.9999, noNaN: true }),
        fc.option(fc.nat()),
        (n, r, hint) => {
          const delay = backoffDelay(n, settings, () => r, hint ?? undefined);
          expect(delay).toBeGreaterThanOrEqual(0);
          expect(delay).toBeLessThanOrEqual(settings.maxDelayMs);
        },
      ),
    );
  });

  it('waits at least as long as the server asked (up to the cap)', () => {
    expect(backoffDelay(1, settings, () => 0, 2000)).toBe(2000);
    expect(backoffDelay(1, settings, () => 0, 90_000)).toBe(30_000);
  });

  it('a server hint below the jitter draw does not shorten the wait', () => {
    expect(backoffDelay(3, settings, () => 0.5, 100)).toBe(1000);
    expect(backoffDelay(3, settings, () => 0.5, 0)).toBe(1000);
    expect(backoffDelay(3, settings, () => 0.5, 1500)).toBe(1500);
  });

  it('with maxDelayMs 0 there is no wait at all', () => {
    const none = { baseDelayMs: 500, maxDelayMs: 0 };
    expect(backoffDelay(3, none, () => 0.999, 5000)).toBe(0);
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

describe('RetryBudget', () => {
  it('hands out exactly `total` retries', () => {
    const budget = new RetryBudget(2);
    expect(budget.total).toBe(2);
    expect(budget.remaining).toBe(2);
    expect([budget.take(), budget.take(), budget.take()]).toEqual([true, true, false]);
    expect(budget.remaining).toBe(0);
    expect(budget.total).toBe(2);
  });

  it('a budget of 0 allows no retry', () => {
    const budget = new RetryBudget(0);
    expect(budget.take()).toBe(false);
    expect(budget.remaining).toBe(0);
  });
});

describe('RateLimitStreak', () => {
  it('counts new waits in a row; echoes of a wait and 429s without a hint do not count; any other answer resets', () => {
    const streak = new RateLimitStreak(2);
    expect(streak.total).toBe(2);
    streak.record(429, 'new');
    streak.record(429, 'ongoing');
    streak.record(429, undefined);
    streak.record(429, 'new');
    expect(streak.exceeded).toBe(false);
    streak.record(429, 'new');
    expect(streak.exceeded).toBe(true);
    streak.record(404, undefined);
    expect(streak.exceeded).toBe(false);
  });

  it('any other status ends the streak, even one that says "new"', () => {
    const streak = new RateLimitStreak(1);
    streak.record(429, 'new');
    streak.record(503, 'new');
    streak.record(429, 'new');
    expect(streak.exceeded).toBe(false);
    streak.record(429, 'new');
    expect(streak.exceeded).toBe(true);
  });

  it('with none allowed, the first new wait is one too many', () => {
    const streak = new RateLimitStreak(0);
    expect(streak.exceeded).toBe(false);
    streak.record(429, 'new');
    expect(streak.exceeded).toBe(true);
  });
});
