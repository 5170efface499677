import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../../src/emulator/rate-limit.js';
import { readRateLimitHeaders } from '../../../src/remote/rate-limit-headers.js';
import { call, get, post, start, workflowBody } from './helpers.js';

const POLICY_TAIL = 'comment="token bucket";category="global";cost="single";serviceLevel="free"';

describe('RateLimiter (token bucket)', () => {
  it("sends the contract's headers for its free tier: 30 requests/s, 5-s window, 10% burst", () => {
    // service-contract.md: `RateLimit-Policy: 150;w=5;burst=165;…`; the quota is per window, not per second.
    const limiter = new RateLimiter({ limit: 30, windowSeconds: 5, burst: 165 });
    const t0 = 1_000_000;
    expect(limiter.take('env', t0).headers).toEqual({
      'RateLimit-Limit': '150',
      'RateLimit-Remaining': '164',
      'RateLimit-Reset': '5',
      'RateLimit-Policy': `150;w=5;burst=165;${POLICY_TAIL}`,
    });
    for (let i = 0; i < 163; i++) limiter.take('env', t0 + 1000);
    const last = limiter.take('env', t0 + 2300);
    expect([last.allowed, last.headers['RateLimit-Remaining'], last.headers['RateLimit-Reset']]).toEqual([
      true,
      '0',
      '3',
    ]);
    expect(last.headers['Retry-After']).toBeUndefined();
    const refused = limiter.take('env', t0 + 2300);
    expect(refused.allowed).toBe(false);
    expect(refused.headers).toEqual({
      'RateLimit-Limit': '150',
      'RateLimit-Remaining': '0',
      'RateLimit-Reset': '3',
      'RateLimit-Policy': `150;w=5;burst=165;${POLICY_TAIL}`,
      'Retry-After': '3',
    });
    // The window turns at t0 + 5 s and refills one quota (150), not the whole bucket.
    expect(limiter.take('env', t0 + 4999).allowed).toBe(false);
    const refilled = limiter.take('env', t0 + 5000);
    expect([
      refilled.allowed,
      refilled.headers['RateLimit-Remaining'],
      refilled.headers['RateLimit-Reset'],
    ]).toEqual([true, '149', '5']);
  });

  it('is read by the client as the policy it announces (150 per 5 s = 30/s, a bucket of 165)', () => {
    const limiter = new RateLimiter({ limit: 30, windowSeconds: 5, burst: 165 });
    const headers = limiter.take('env', 0).headers;
    const lower = new Map(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
    const read = readRateLimitHeaders((name) => lower.get(name), 0);
    expect(read).toEqual({ requestsPerSecond: 30, resetMs: 5000 });
  });

  it('holds one window quota by default and never more than the bucket', () => {
    const limiter = new RateLimiter({ limit: 3, windowSeconds: 5 });
    const first = limiter.take('env', 0);
    expect(first.headers['RateLimit-Limit']).toBe('15');
    expect(first.headers['RateLimit-Policy']).toBe(`15;w=5;burst=15;${POLICY_TAIL}`);
    expect(first.headers['RateLimit-Remaining']).toBe('14');
    for (let i = 0; i < 14; i++) expect(limiter.take('env', 100).allowed).toBe(true);
    expect(limiter.take('env', 100).allowed).toBe(false);
    // Three windows later the bucket is full again (15), not 3 × 15.
    const later = limiter.take('env', 15_000);
    expect(later.headers['RateLimit-Remaining']).toBe('14');
  });

  it('keeps one bucket per key', () => {
    const limiter = new RateLimiter({ limit: 1, windowSeconds: 5, burst: 2 });
    expect(limiter.take('a', 0).allowed).toBe(true);
    expect(limiter.take('a', 0).allowed).toBe(true);
    expect(limiter.take('a', 0).allowed).toBe(false);
    expect(limiter.take('b', 0).headers['RateLimit-Remaining']).toBe('1');
    limiter.clear();
    expect(limiter.take('a', 0).allowed).toBe(true);
  });

  it('rejects nonsense settings', () => {
    expect(() => new RateLimiter({ limit: 0, windowSeconds: 1 })).toThrow(/limit/);
    expect(() => new RateLimiter({ limit: 1, windowSeconds: Number.NaN })).toThrow(/windowSeconds/);
    expect(() => new RateLimiter({ limit: 1, windowSeconds: 1, burst: -1 })).toThrow(/burst/);
    // Less than one whole request per window, or a bucket that holds none, could never answer anything but 429.
    expect(() => new RateLimiter({ limit: 0.5, windowSeconds: 1 })).toThrow(/at least 1/);
    expect(() => new RateLimiter({ limit: 1, windowSeconds: 1, burst: 0.5 })).toThrow(/at least 1/);
  });

  it('property: announces its settings, never lets through more than the bucket plus one quota per window, and a 429 waited out for Retry-After is answered', () => {
    const settings = fc.record({
      limit: fc.integer({ min: 1, max: 40 }),
      windowSeconds: fc.integer({ min: 1, max: 10 }),
      extraBurst: fc.option(fc.integer({ min: 0, max: 50 }), { nil: undefined }),
    });
    const gaps = fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 1, maxLength: 300 });
    fc.assert(
      fc.property(settings, gaps, ({ limit, windowSeconds, extraBurst }, steps) => {
        const quota = limit * windowSeconds;
        const burst = extraBurst === undefined ? undefined : quota + extraBurst;
        const capacity = burst ?? quota;
        const limiter = new RateLimiter({ limit, windowSeconds, ...(burst === undefined ? {} : { burst }) });
        const t0 = 1_700_000_000_000;
        let now = t0;
        let allowedSoFar = 0;
        for (const gap of steps) {
          now += gap;
          const { allowed, headers } = limiter.take('env', now);
          if (allowed) allowedSoFar++;
          expect(headers['RateLimit-Limit']).toBe(String(quota));
          expect(headers['RateLimit-Policy']).toBe(
            `${quota};w=${windowSeconds};burst=${capacity};${POLICY_TAIL}`,
          );
          const remaining = Number(headers['RateLimit-Remaining']);
          expect(Number.isInteger(remaining) && remaining >= 0 && remaining < capacity).toBe(true);
          const reset = Number(headers['RateLimit-Reset']);
          expect(Number.isInteger(reset) && reset >= 0 && reset <= windowSeconds).toBe(true);
          const windowsTurned = Math.floor((now - t0) / (windowSeconds * 1000));
          expect(allowedSoFar).toBeLessThanOrEqual(capacity + quota * windowsTurned);
          expect(headers['Retry-After']).toBe(allowed ? undefined : headers['RateLimit-Reset']);
          if (!allowed) {
            // What a client does with a 429: wait Retry-After seconds, then ask again.
            now += reset * 1000;
            expect(limiter.take('env', now).allowed).toBe(true);
            allowedSoFar++;
          }
        }
      }),
    );
  });
});

describe('rate limiting over HTTP', () => {
  it('puts the headers on every authenticated answer and answers 429 when the bucket is empty', async () => {
    let now = Date.UTC(2024, 0, 1);
    const emulator = await start({ rateLimit: { limit: 2, windowSeconds: 1 }, clock: () => now });
    const created = await post(emulator, workflowBody(emulator));
    expect(created.status).toBe(201);
    expect(created.headers.get('ratelimit-limit')).toBe('2');
    expect(created.headers.get('ratelimit-remaining')).toBe('1');
    expect(created.headers.get('ratelimit-reset')).toBe('1');
    expect(created.headers.get('ratelimit-policy')).toMatch(/^2;w=1;burst=2;/);
    const notFound = await get(emulator, 'nope');
    expect(notFound.status).toBe(404);
    expect(notFound.headers.get('ratelimit-remaining')).toBe('0');
    const limited = await post(emulator, workflowBody(emulator, { name: 'Second' }));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(limited.body).toEqual({
      statusCode: 429,
      timestamp: new Date(now).toISOString(),
      path: '/v1/workflows',
      message: 'API rate limit exceeded',
    });
    expect(emulator.workflows()).toHaveLength(1);
    now += 1000;
    expect((await post(emulator, workflowBody(emulator, { name: 'Second' }))).status).toBe(201);
  });

  it("answers with the contract's header shape for its free tier", async () => {
    const emulator = await start({ rateLimit: { limit: 30, windowSeconds: 5, burst: 165 }, clock: () => 0 });
    const reply = await get(emulator, 'order-shipped');
    expect(reply.status).toBe(404);
    const names = [
      'ratelimit-limit',
      'ratelimit-remaining',
      'ratelimit-reset',
      'ratelimit-policy',
      'retry-after',
    ];
    expect(names.map((name) => reply.headers.get(name))).toEqual([
      '150',
      '164',
      '5',
      `150;w=5;burst=165;${POLICY_TAIL}`,
      null,
    ]);
  });

  it('does not count or decorate answers given before the key is known (404 routes, 401)', async () => {
    const emulator = await start({ rateLimit: { limit: 1, windowSeconds: 60, burst: 1 } });
    const unauthenticated = await get(emulator, 'x', { key: 'wrong' });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('ratelimit-limit')).toBeNull();
    expect((await call(emulator, 'GET', '/nowhere')).headers.get('ratelimit-limit')).toBeNull();
    expect((await get(emulator, 'x')).status).toBe(404);
    expect((await get(emulator, 'x')).status).toBe(429);
  });

  it('sends no rate-limit headers when the feature is off', async () => {
    const emulator = await start();
    const reply = await post(emulator, workflowBody(emulator));
    expect(reply.headers.get('ratelimit-limit')).toBeNull();
    expect(reply.headers.get('ratelimit-policy')).toBeNull();
  });
});
