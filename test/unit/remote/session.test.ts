import { describe, expect, it } from 'vitest';
import { RateLimitStreak, RetryBudget } from '../../../src/remote/session.js';

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
