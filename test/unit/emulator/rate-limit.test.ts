import { describe, expect, it } from 'vitest';
import { RateLimiter } from '../../../src/emulator/rate-limit.js';
import { call, get, post, start, workflowBody } from './helpers.js';

describe('RateLimiter (token bucket)', () => {
  it('spends the bucket, then refuses until the next refill', () => {
    const limiter = new RateLimiter({ limit: 3, windowSeconds: 5 });
    const t0 = 1_000_000;
    const results = [0, 100, 200, 300].map((dt) => limiter.take('env', t0 + dt));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false]);
    expect(results.map((r) => r.headers['RateLimit-Remaining'])).toEqual(['2', '1', '0', '0']);
    expect(results[3]!.headers['RateLimit-Reset']).toBe('5');
    expect(results[3]!.headers['Retry-After']).toBe('5');
    expect(results[0]!.headers['Retry-After']).toBeUndefined();
    // 4.2 s later the window has not turned yet; at 5 s the bucket is full again (3 × 5 tokens, capped at 3).
    expect(limiter.take('env', t0 + 4200).allowed).toBe(false);
    const refilled = limiter.take('env', t0 + 5000);
    expect(refilled.allowed).toBe(true);
    expect(refilled.headers['RateLimit-Remaining']).toBe('2');
    expect(refilled.headers['RateLimit-Reset']).toBe('5');
  });

  it('keeps one bucket per key and announces its policy', () => {
    const limiter = new RateLimiter({ limit: 30, windowSeconds: 5, burst: 33 });
    const first = limiter.take('a', 0);
    expect(first.headers).toEqual({
      'RateLimit-Remaining': '32',
      'RateLimit-Limit': '30',
      'RateLimit-Reset': '5',
      'RateLimit-Policy':
        '30;w=5;burst=33;comment="token bucket";category="global";cost="single";serviceLevel="free"',
    });
    for (let i = 0; i < 32; i++) limiter.take('a', 0);
    expect(limiter.take('a', 0).allowed).toBe(false);
    expect(limiter.take('b', 0).allowed).toBe(true);
  });

  it('rejects nonsense settings', () => {
    expect(() => new RateLimiter({ limit: 0, windowSeconds: 1 })).toThrow(/limit/);
    expect(() => new RateLimiter({ limit: 1, windowSeconds: Number.NaN })).toThrow(/windowSeconds/);
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

  it('does not count or decorate answers given before the key is known (404 routes, 401)', async () => {
    const emulator = await start({ rateLimit: { limit: 1, windowSeconds: 60 } });
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
