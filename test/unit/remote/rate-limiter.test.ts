import { describe, expect, it } from 'vitest';
import { RateLimiter, type RateLimiterOptions, type Ticket } from '../../../src/remote/rate-limiter.js';
import { VirtualClock } from '../../helpers/remote.js';

type Headers = Record<string, string>;

function setup(options: Partial<RateLimiterOptions> = {}) {
  const clock = new VirtualClock();
  const limiter = new RateLimiter({ maxHoldMs: 60_000, fallbackPerSecond: 20, ...options, now: clock.now });
  const starts: number[] = [];
  const reasons: string[] = [];
  const wait = async (ms: number, reason: string) => {
    reasons.push(reason);
    await clock.sleep(ms);
  };
  const acquire = async (): Promise<Ticket> => {
    const ticket = await limiter.acquire(wait);
    starts.push(clock.now());
    return ticket;
  };
  /** A request answered at once, with `headers`, and ended. */
  const go = async (headers: Headers = {}, status = 200) => {
    const ticket = await acquire();
    const limited = limiter.observe(ticket, status, (name) => headers[name]);
    limiter.settle();
    return limited;
  };
  return { clock, limiter, starts, reasons, acquire, go };
}

/** The most starts in any window [t, t + windowMs). */
function busiestWindow(starts: readonly number[], windowMs: number): number {
  return Math.max(...starts.map((t) => starts.filter((s) => s >= t && s < t + windowMs).length));
}

const counts = (remaining: number, reset: number): Headers => ({
  'ratelimit-remaining': String(remaining),
  'ratelimit-reset': String(reset),
});

describe('RateLimiter', () => {
  it('paces concurrent callers at the configured rate after the burst', async () => {
    const { starts, go, clock } = setup({ requestsPerSecond: 5, burst: 2 });
    const t0 = clock.now();
    await Promise.all(Array.from({ length: 12 }, () => go()));
    expect(starts).toHaveLength(12);
    expect(busiestWindow(starts, 1000)).toBeLessThanOrEqual(2 + 5 - 1);
    expect(starts.slice(0, 2)).toEqual([t0, t0]);
    // 200 ms and 2% to spare for the network's jitter.
    expect(Math.max(...starts) - t0).toBe(10 * 204);
  });

  it('the first request goes alone: the others wait for it to end, answered or not', async () => {
    const { limiter, acquire, starts, clock } = setup({ requestsPerSecond: 0 });
    const first = acquire();
    const others = Promise.all([acquire(), acquire()]);
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    expect(starts).toHaveLength(1);
    await clock.sleep(500);
    limiter.settle();
    await others;
    expect(starts).toEqual([starts[0], clock.now(), clock.now()]);
  });

  it('a configured rate holds whatever the service advertises', async () => {
    const { go, starts, clock } = setup({ requestsPerSecond: 5 });
    const t0 = clock.now();
    await go({ 'ratelimit-policy': '1000;w=1' });
    await Promise.all(Array.from({ length: 5 }, () => go()));
    // One every 204 ms: 200 and 2% to spare.
    expect(starts.map((t) => t - t0)).toEqual([0, 204, 408, 612, 816, 1020]);
  });

  it('with no rate configured: 20/s, a second’s worth at once, while the service says nothing', async () => {
    const { go, starts, clock } = setup();
    const t0 = clock.now();
    await Promise.all(Array.from({ length: 40 }, () => go()));
    expect(starts.filter((t) => t === t0)).toHaveLength(20);
    expect(busiestWindow(starts, 1000)).toBeLessThanOrEqual(20 + 20 - 1);
    expect(Math.max(...starts) - t0).toBe(20 * 51);
  });

  it('with no rate configured: the advertised policy, evenly spaced (its burst is not used)', async () => {
    const { go, starts, clock, reasons } = setup();
    await go({ 'ratelimit-policy': '10;w=2;burst=3' });
    const t1 = clock.now();
    await Promise.all(Array.from({ length: 9 }, () => go()));
    // 5 per second, one every 204 ms (2% to spare), counted from the first request (sent at the 20/s of the unknown).
    expect(starts.slice(1).map((t) => t - t1)).toEqual([204, 408, 612, 816, 1020, 1224, 1428, 1632, 1836]);
    expect(reasons.at(-1)).toBe('pacing requests to 5/s');
  });

  it.each([
    ['30 per 1 s', '30;w=1', 1000, 30],
    ['the contract’s free tier, 150 per 5 s (a bucket of 165)', '150;w=5;burst=165', 5000, 150],
  ])(
    'at the advertised rate (%s), no window of the service’s sees more than its quota',
    async (_, policy, windowMs, quota) => {
      const { go, starts } = setup();
      await go({ 'ratelimit-policy': policy });
      await Promise.all(Array.from({ length: 400 }, () => go({ 'ratelimit-policy': policy })));
      expect(busiestWindow(starts.slice(1), windowMs)).toBeLessThanOrEqual(quota);
      // 2% to spare for the network's jitter, not more.
      expect(busiestWindow(starts.slice(1), windowMs)).toBeGreaterThanOrEqual(Math.floor(quota / 1.02));
    },
  );

  it('RateLimit-Remaining alone holds nothing: the pace keeps within the policy, a 429 says when to wait', async () => {
    const { go, starts, clock } = setup({ requestsPerSecond: 0 });
    await go(counts(0, 3));
    await go(counts(0, 3));
    expect(starts).toEqual([clock.now(), clock.now()]);
  });

  it('holds everyone after a 429 with Retry-After, capped by maxHoldMs', async () => {
    const { go, starts, clock, reasons } = setup({ maxHoldMs: 10_000 });
    const t0 = clock.now();
    await go({ 'retry-after': '2' }, 429);
    await Promise.all([go(), go()]);
    expect(starts).toEqual([t0, t0 + 2000, t0 + 2000]);
    expect(reasons[0]).toBe('rate limited: waiting for Retry-After');
    await go({ 'retry-after': '3600' }, 429);
    await go();
    expect(starts[4]).toBe(starts[3]! + 10_000);
  });

  it('a 429 without Retry-After holds until RateLimit-Reset', async () => {
    const { go, starts, clock } = setup({ requestsPerSecond: 0 });
    const t0 = clock.now();
    await go(counts(0, 3), 429);
    await go();
    expect(starts).toEqual([t0, t0 + 3000]);
  });

  it('tells a new 429 from one of a burst already being waited out', async () => {
    const { limiter, acquire, go } = setup({ requestsPerSecond: 0 });
    await go();
    const [a, b] = await Promise.all([acquire(), acquire()]);
    const limited = (ticket: Ticket, headers: Headers) => limiter.observe(ticket, 429, (n) => headers[n]);
    expect(limited(a, { 'retry-after': '1' })).toBe('new');
    expect(limited(b, { 'retry-after': '1' })).toBe('ongoing');
    expect(limited(await acquire(), counts(0, 1))).toBe('new');
    expect(limited(await acquire(), { 'ratelimit-reset': '1' })).toBe('new');
    // No hint: not a wait at all (a failure, retried with backoff).
    expect(limited(await acquire(), {})).toBeUndefined();
  });

  it('ignores malformed headers', async () => {
    const { go, starts, clock } = setup({ requestsPerSecond: 0 });
    await go({ 'retry-after': 'soon', 'ratelimit-reset': 'later' }, 429);
    await go({ 'ratelimit-policy': 'lots;w=0' });
    await go();
    expect(starts).toEqual([clock.now(), clock.now(), clock.now()]);
  });
});
