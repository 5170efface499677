import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../../src/remote/rate-limiter.js';
import { VirtualClock } from './helpers.js';

function setup(options: { requestsPerSecond?: number; burst?: number; maxHoldMs?: number } = {}) {
  const clock = new VirtualClock();
  const limiter = new RateLimiter({ maxHoldMs: 60_000, ...options, now: clock.now });
  const starts: number[] = [];
  const reasons: string[] = [];
  const wait = (ms: number, reason: string) => {
    reasons.push(reason);
    return clock.sleep(ms);
  };
  const go = async () => {
    await limiter.acquire(wait);
    starts.push(clock.now());
  };
  return { clock, limiter, starts, reasons, go };
}

/** The most starts in any window [t, t + windowMs). */
function busiestWindow(starts: readonly number[], windowMs: number): number {
  return Math.max(...starts.map((t) => starts.filter((s) => s >= t && s < t + windowMs).length));
}

const headers = (values: Record<string, string>) => (name: string) => values[name];

describe('RateLimiter', () => {
  it('spaces concurrent callers at the cap after the burst', async () => {
    const { starts, go, clock } = setup({ requestsPerSecond: 5, burst: 2 });
    const t0 = clock.now();
    await Promise.all(Array.from({ length: 12 }, go));
    expect(starts).toHaveLength(12);
    expect(busiestWindow(starts, 1000)).toBeLessThanOrEqual(2 + 5 - 1);
    expect(starts.slice(0, 2)).toEqual([t0, t0]);
    // After the burst, one start per 200 ms.
    expect(starts[11]! - t0).toBe(10 * 200);
  });

  it('with no cap lets everything through at once', async () => {
    const { starts, go, clock } = setup({ requestsPerSecond: 0 });
    await Promise.all(Array.from({ length: 50 }, go));
    expect(new Set(starts)).toEqual(new Set([clock.now()]));
  });

  it('holds new requests until the reset when RateLimit-Remaining reaches 0', async () => {
    const { limiter, starts, reasons, go, clock } = setup();
    const t0 = clock.now();
    limiter.observe(headers({ 'ratelimit-remaining': '0', 'ratelimit-reset': '3' }));
    await go();
    expect(starts).toEqual([t0 + 3000]);
    expect(reasons).toEqual(['RateLimit-Remaining is 0: waiting for the window to reset']);
  });

  it('counts the remaining requests down across concurrent callers', async () => {
    const { limiter, starts, go, clock } = setup();
    const t0 = clock.now();
    limiter.observe(headers({ 'ratelimit-remaining': '2', 'ratelimit-reset': '5' }));
    await Promise.all([go(), go(), go(), go()]);
    expect(starts).toEqual([t0, t0, t0 + 5000, t0 + 5000]);
  });

  it('holds everyone after a 429 with Retry-After, capped by maxHoldMs', async () => {
    const { limiter, starts, go, clock } = setup({ maxHoldMs: 10_000 });
    const t0 = clock.now();
    limiter.observe(headers({}), 2000);
    await Promise.all([go(), go()]);
    expect(starts).toEqual([t0 + 2000, t0 + 2000]);
    limiter.observe(headers({ 'ratelimit-remaining': '0', 'ratelimit-reset': '3600' }));
    await go();
    expect(starts[2]).toBe(t0 + 2000 + 10_000);
  });

  it('ignores partial or malformed headers', async () => {
    const { limiter, starts, go, clock } = setup();
    limiter.observe(headers({ 'ratelimit-remaining': '0' }));
    limiter.observe(headers({ 'ratelimit-remaining': 'none', 'ratelimit-reset': '5' }));
    await go();
    expect(starts).toEqual([clock.now()]);
  });
});
