import { describe, expect, it } from 'vitest';
import { RateLimiter, type RateLimiterOptions, type Ticket } from '../../../src/remote/rate-limiter.js';
import { VirtualClock } from '../../helpers/remote.js';

type Headers = Record<string, string>;

function setup(options: Partial<RateLimiterOptions> = {}) {
  const clock = new VirtualClock();
  const limiter = new RateLimiter({ maxHoldMs: 60_000, fallbackPerSecond: 20, ...options, now: clock.now });
  const starts: number[] = [];
  const reasons: string[] = [];
  // As the client waits: at most `ms`, cut short by `wake`; without `ms`, until `wake`.
  const wait = async (ms: number | undefined, reason: string, wake?: Promise<void>) => {
    reasons.push(reason);
    if (ms === undefined) return wake;
    const woken = new AbortController();
    void wake?.then(() => woken.abort());
    await clock.sleep(ms, woken.signal).catch(() => undefined);
  };
  const acquire = async (): Promise<Ticket> => {
    const ticket = await limiter.acquire(wait);
    starts.push(clock.now());
    return ticket;
  };
  /** A request answered at once, with `headers`. */
  const go = async (headers: Headers = {}, status = 200) => {
    const ticket = await acquire();
    return limiter.observe(ticket, status, (name) => headers[name]);
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
    expect(Math.max(...starts) - t0).toBe(10 * 200);
  });

  it('sends the first request alone: the others wait for its answer, not for time', async () => {
    const { limiter, acquire, starts, reasons, clock } = setup({ requestsPerSecond: 0 });
    const first = acquire();
    const others = Promise.all([acquire(), acquire()]);
    const ticket = await first;
    await new Promise((resolve) => setImmediate(resolve));
    expect(starts).toHaveLength(1);
    expect(reasons).toContain("waiting for a first answer to learn the service's rate limit");
    limiter.observe(ticket, 200, () => undefined);
    await others;
    expect(starts).toEqual([clock.now(), clock.now(), clock.now()]);
  });

  it('with no rate configured: 20/s while the service says nothing', async () => {
    const { go, starts, clock } = setup();
    const t0 = clock.now();
    await go();
    await Promise.all(Array.from({ length: 30 }, () => go()));
    expect(busiestWindow(starts, 1000)).toBeLessThanOrEqual(20 + 20);
    expect(Math.max(...starts) - t0).toBeGreaterThanOrEqual(10 * 50);
  });

  it('with no rate configured: the advertised policy when the service sends no counts', async () => {
    const { go, starts, clock } = setup();
    await go({ 'ratelimit-policy': '10;w=2;burst=3' });
    const t1 = clock.now();
    await Promise.all(Array.from({ length: 9 }, () => go()));
    // 5 per second: a burst, then one every 200 ms.
    expect(Math.max(...starts) - t1).toBeGreaterThanOrEqual((9 - 3) * 200);
    expect(busiestWindow(starts.slice(1), 1000)).toBeLessThanOrEqual(3 + 5);
  });

  it('with no rate configured: no pacing at all while the service counts', async () => {
    const { go, starts, clock } = setup();
    await go({ ...counts(1000, 1), 'ratelimit-policy': '1;w=1' });
    await Promise.all(Array.from({ length: 50 }, () => go()));
    expect(new Set(starts)).toEqual(new Set([clock.now()]));
  });

  it('with no rate configured: back to 20/s when the service stops counting', async () => {
    const { go, starts, clock } = setup();
    await go(counts(1, 1));
    await go();
    // The window's end has passed: this probe comes back without a count.
    await go();
    const t1 = clock.now();
    await Promise.all(Array.from({ length: 30 }, () => go()));
    expect(Math.max(...starts) - t1).toBeGreaterThanOrEqual(10 * 50);
  });

  it('holds new requests until the reset when the count is used up', async () => {
    const { starts, reasons, go, clock } = setup();
    const t0 = clock.now();
    await go(counts(0, 3));
    await go();
    expect(starts).toEqual([t0, t0 + 3000]);
    expect(reasons).toEqual(['RateLimit-Remaining is used up: waiting for the window to reset']);
  });

  it('a wait for the reset ends early when an answer shows a refill', async () => {
    const { limiter, acquire, go, starts, clock } = setup();
    const t0 = clock.now();
    await go(counts(1, 10));
    const inFlight = await acquire();
    const blocked = acquire();
    await clock.sleep(100);
    limiter.observe(inFlight, 200, (name) => counts(5, 9)[name]);
    await blocked;
    expect(starts).toEqual([t0, t0, t0 + 100]);
  });

  it('holds everyone after a 429 with Retry-After, capped by maxHoldMs', async () => {
    const { go, starts, clock } = setup({ maxHoldMs: 10_000 });
    const t0 = clock.now();
    await go({ 'retry-after': '2' }, 429);
    await Promise.all([go(), go()]);
    expect(starts).toEqual([t0, t0 + 2000, t0 + 2000]);
    await go({ 'retry-after': '3600' }, 429);
    await go();
    expect(starts[4]).toBe(t0 + 2000 + 10_000);
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

  it('a released probe (the request failed) lets another request probe', async () => {
    const { limiter, acquire, starts } = setup({ requestsPerSecond: 0 });
    const probe = await acquire();
    const next = acquire();
    limiter.release(probe);
    const second = await next;
    expect(second.slot.probe).toBe(true);
    expect(starts).toHaveLength(2);
  });

  it('ignores partial or malformed headers', async () => {
    const { go, starts, clock } = setup({ requestsPerSecond: 0 });
    await go({ 'ratelimit-remaining': '0' });
    await go({ 'ratelimit-remaining': 'none', 'ratelimit-reset': '5' });
    await go();
    expect(starts).toEqual([clock.now(), clock.now(), clock.now()]);
  });
});
