import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  backoffDelay,
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
});

describe('parseRetryAfter', () => {
  it('reads delta seconds', () => {
    expect(parseRetryAfter('3', NOW)).toBe(3000);
    expect(parseRetryAfter(' 0 ', NOW)).toBe(0);
    expect(parseRetryAfter('1.5', NOW)).toBe(1500);
  });

  it('reads an HTTP date relative to now, never negative', () => {
    expect(parseRetryAfter('Tue, 01 Oct 2024 12:00:05 GMT', NOW)).toBe(5000);
    expect(parseRetryAfter('Tue, 01 Oct 2024 11:00:00 GMT', NOW)).toBe(0);
  });

  it('ignores what it cannot read', () => {
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
    expect(parseRetryAfter('-3', NOW)).toBeUndefined();
    expect(parseRetryAfter('1 2', NOW)).toBeUndefined();
  });
});

describe('parseRateLimitReset', () => {
  it('reads delta seconds, and epoch seconds when the value is that large', () => {
    expect(parseRateLimitReset('4', NOW)).toBe(4000);
    expect(parseRateLimitReset(String(NOW / 1000 + 7), NOW)).toBe(7000);
    expect(parseRateLimitReset('x', NOW)).toBeUndefined();
    expect(parseRateLimitReset(undefined, NOW)).toBeUndefined();
  });
});

describe('RetryBudget', () => {
  it('hands out exactly `total` retries', () => {
    const budget = new RetryBudget(2);
    expect([budget.take(), budget.take(), budget.take()]).toEqual([true, true, false]);
    expect(budget.remaining).toBe(0);
  });
});

describe('RateLimitStreak', () => {
  it('counts new waits in a row; echoes of a wait and 429s without a hint do not count; any other answer resets', () => {
    const streak = new RateLimitStreak(2);
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

  it('with none allowed, the first new wait is one too many', () => {
    const streak = new RateLimitStreak(0);
    streak.record(429, 'new');
    expect(streak.exceeded).toBe(true);
  });
});
