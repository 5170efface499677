import { describe, expect, it } from 'vitest';
import type { ClientOptions } from '../../../src/remote/index.js';
import { onNetClock } from './emulator-helpers.js';

/**
 * Issue 4's goal on the virtual clock: 1,000 requests, 16 at a time, against the service's 30 requests/s token
 * bucket (the emulator's, as in `npm run bench:sync`), with 50 ms of processing per request. The ideal is
 * 1,000 / 30 s; the goal is within 1.25× of it and no more than a handful of 429s. Deterministic: virtual time
 * only moves when no request is on the wire (NetClock).
 */

const REQUESTS = 1000;
const CONCURRENCY = 16;
const RATE = 30;
const LATENCY_MS = 50;

async function burst(
  limit: { limit: number; windowSeconds: number; burst?: number },
  options: Partial<ClientOptions>,
) {
  const { emu, client, clock, events } = await onNetClock({ rateLimit: limit }, options, LATENCY_MS);
  const start = clock.now();
  let next = 0;
  const answers: Array<unknown> = [];
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REQUESTS) {
        const id = `workflow-${next++}`;
        answers.push(await client.getWorkflow(id));
      }
    }),
  );
  const statuses = emu.requests().map((r) => r.status);
  return {
    elapsedMs: clock.now() - start,
    answers,
    tooMany: statuses.filter((s) => s === 429).length,
    notFound: statuses.filter((s) => s === 404).length,
    events,
  };
}

const idealMs = (REQUESTS / RATE) * 1000;

describe(`${REQUESTS} requests, ${CONCURRENCY} at a time, against ${RATE} requests/s`, () => {
  it.each<[string, Partial<ClientOptions>]>([
    ['no rateLimit configured (the service’s advertised policy)', {}],
    [`rateLimit: ${RATE}`, { rateLimit: RATE }],
  ])('%s: at most 5 429s, within 1.25× of the ideal', async (_, options) => {
    const run = await burst({ limit: RATE, windowSeconds: 1 }, options);
    expect(run.answers).toHaveLength(REQUESTS);
    expect(run.answers.every((a) => a === undefined)).toBe(true);
    expect(run.notFound).toBe(REQUESTS);
    expect(run.tooMany).toBeLessThanOrEqual(5);
    expect(run.elapsedMs / idealMs).toBeLessThanOrEqual(1.25);
    // Not trivially met by ignoring the limit: the bucket allows at most 30 per second plus the first 30.
    expect(run.elapsedMs).toBeGreaterThanOrEqual(((REQUESTS - RATE) / RATE) * 1000 - 1000);
  });

  it('no client-side pacing (rateLimit: 0): the service’s 429s pace it, waited out as asked, none failing', async () => {
    const run = await burst({ limit: RATE, windowSeconds: 1 }, { rateLimit: 0 });
    expect(run.notFound).toBe(REQUESTS);
    expect(run.elapsedMs / idealMs).toBeLessThanOrEqual(1.25);
    // The price of not pacing: the requests in flight when a window's tokens run out (a few a window, not 16).
    expect(run.tooMany).toBeGreaterThan(0);
    expect(run.tooMany).toBeLessThanOrEqual((3 * REQUESTS) / RATE);
  });

  it('a bucket refilled every 5 s (150 per window, 165 at most): same goals', async () => {
    // The contract's free tier: the emulator answers `RateLimit-Policy: 150;w=5;burst=165;…` as the service does.
    const run = await burst({ limit: RATE, windowSeconds: 5, burst: 165 }, {});
    expect(run.notFound).toBe(REQUESTS);
    expect(run.tooMany).toBeLessThanOrEqual(5);
    expect(run.elapsedMs / idealMs).toBeLessThanOrEqual(1.25);
  });
});
