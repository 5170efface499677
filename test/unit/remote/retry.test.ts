import fc from 'fast-check';
import { MockAgent } from 'undici';
import { describe, expect, it } from 'vitest';
import { RemoteError } from '../../../src/remote/index.js';
import { RateLimiter } from '../../../src/remote/rate-limiter.js';
import { type Attempts, backoffDelay, pauseBeforeRetry } from '../../../src/remote/retry.js';
import { type Call, RateLimitStreak, RetryBudget, type Session } from '../../../src/remote/session.js';
import { parseBaseUrl } from '../../../src/remote/transport.js';
import type { ClientEvent, Problem } from '../../../src/remote/types.js';

/** pauseBeforeRetry on a hand-built session: a recording sleep, a fixed clock and random, real budgets. */

const T0 = 1_700_000_000_000;
const ORIGIN = 'https://api.example.test';
const PATH = '/v1/workflows';
const CALL: Call = { method: 'POST', path: PATH };

interface Rig {
  session: Session;
  delays: number[];
  events: ClientEvent[];
}

function rig(
  extra: Partial<Omit<Session, 'retry'>> & { retry?: Partial<Session['retry']>; budget?: RetryBudget } = {},
): Rig {
  const delays: number[] = [];
  const events: ClientEvent[] = [];
  const now = () => T0;
  const { retry, ...rest } = extra;
  const session: Session = {
    endpoint: parseBaseUrl(ORIGIN),
    host: 'api.example.test',
    dispatcher: new MockAgent(),
    headers: {},
    timeouts: { connectMs: 10_000, headersMs: 30_000, bodyMs: 30_000 },
    retry: { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 30_000, ...retry },
    budget: new RetryBudget(30),
    rateLimitWaits: new RateLimitStreak(10),
    limiter: new RateLimiter({ fallbackPerSecond: 20, maxHoldMs: 30_000, now }),
    deadline: undefined,
    maxResponseBytes: 1024,
    advice: {},
    secrets: ['wfs_secret_key'],
    now,
    random: () => 0.5,
    sleep: async (ms) => {
      delays.push(ms);
    },
    signal: undefined,
    onEvent: (event) => events.push(event),
    ...rest,
  };
  return { session, delays, events };
}

function problem(extra: Partial<Problem> = {}): Problem {
  return {
    kind: 'server',
    detail: '503 Service Unavailable',
    advice: 'try again later',
    status: 503,
    serverMessages: [],
    transient: true,
    effect: 'unknown',
    ...extra,
  };
}

async function rejection(promise: Promise<unknown>): Promise<RemoteError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RemoteError);
  return error as RemoteError;
}

const rateLimited = (retryAfterMs: number | undefined): Problem =>
  problem({
    kind: 'rate-limited',
    detail: '429 rate limited',
    status: 429,
    effect: 'none',
    rateLimitWait: 'new',
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });

describe('pauseBeforeRetry: failures', () => {
  it('waits a full-jitter backoff, counts the failure, takes one retry from the budget, and announces it', async () => {
    const { session, delays, events } = rig();
    const attempts: Attempts = { sent: 1, failed: 0 };
    await pauseBeforeRetry(session, CALL, attempts, problem());
    expect(delays).toEqual([250]);
    expect(attempts).toEqual({ sent: 1, failed: 1 });
    expect(session.budget.remaining).toBe(29);
    expect(events).toStrictEqual([
      {
        type: 'retry',
        attempt: 2,
        reason: '503 Service Unavailable',
        status: 503,
        method: 'POST',
        path: PATH,
        delayMs: 250,
      },
    ]);
  });

  it('the ceiling doubles with each failure', async () => {
    const { session, delays } = rig();
    const attempts: Attempts = { sent: 3, failed: 2 };
    await pauseBeforeRetry(session, CALL, attempts, problem());
    expect(delays).toEqual([1000]);
    expect(attempts.failed).toBe(3);
  });

  it('waits at least as long as the server asked, and the wait still counts as a failure', async () => {
    const { session, delays } = rig();
    const attempts: Attempts = { sent: 1, failed: 0 };
    await pauseBeforeRetry(session, CALL, attempts, problem({ retryAfterMs: 5000 }));
    expect(delays).toEqual([5000]);
    expect(attempts.failed).toBe(1);
    expect(session.budget.remaining).toBe(29);
  });

  it('a problem without a status announces none', async () => {
    const { session, events } = rig();
    const lost = problem({ kind: 'network', detail: 'the connection was reset' });
    delete lost.status;
    await pauseBeforeRetry(session, CALL, { sent: 2, failed: 0 }, lost);
    expect(events).toStrictEqual([
      {
        type: 'retry',
        attempt: 3,
        reason: 'the connection was reset',
        method: 'POST',
        path: PATH,
        delayMs: 250,
      },
    ]);
  });

  it.each([
    [1, 0, 'gave up after 1 attempt'],
    [4, 3, 'gave up after 4 attempts'],
  ])(
    'out of attempts (maxAttempts %i): fails with the problem, without waiting',
    async (maxAttempts, failed, why) => {
      const { session, delays, events } = rig({ retry: { maxAttempts } });
      const error = await rejection(pauseBeforeRetry(session, CALL, { sent: failed + 1, failed }, problem()));
      expect(error.kind).toBe('server');
      expect(error.status).toBe(503);
      expect(error.message).toBe(`POST ${PATH}: 503 Service Unavailable (${why}); try again later`);
      expect(delays).toEqual([]);
      expect(events).toEqual([]);
      expect(session.budget.remaining).toBe(30);
    },
  );

  it('one attempt short of the limit still retries', async () => {
    const { session, delays } = rig({ retry: { maxAttempts: 2 } });
    await pauseBeforeRetry(session, CALL, { sent: 1, failed: 0 }, problem());
    expect(delays).toHaveLength(1);
  });

  it.each([
    [0, 'the retry budget of 0 retries for this run is used up'],
    [1, 'the retry budget of 1 retry for this run is used up'],
  ])('out of budget (%i): fails without waiting', async (total, why) => {
    const budget = new RetryBudget(total);
    if (total > 0) budget.take();
    const { session, delays } = rig({ budget });
    const error = await rejection(pauseBeforeRetry(session, CALL, { sent: 1, failed: 0 }, problem()));
    expect(error.kind).toBe('server');
    expect(error.message).toBe(`POST ${PATH}: 503 Service Unavailable (${why}); try again later`);
    expect(delays).toEqual([]);
  });

  it('a wait that would reach the deadline fails as deadline, without spending the budget', async () => {
    const { session, delays } = rig({ deadline: T0 + 5000, budget: new RetryBudget(1) });
    const error = await rejection(
      pauseBeforeRetry(session, CALL, { sent: 1, failed: 0 }, problem({ retryAfterMs: 5000 })),
    );
    expect(error.kind).toBe('deadline');
    expect(error.status).toBe(503);
    expect(error.message).toBe(
      `POST ${PATH}: the command's deadline would pass during the next wait of 5 s (last problem: 503 Service Unavailable); if the run needs more time, raise timeouts.commandMs in wfsync.config.yaml`,
    );
    expect(session.budget.remaining).toBe(1);
    expect(delays).toEqual([]);
  });

  it('a wait that ends before the deadline goes ahead', async () => {
    const { session, delays } = rig({ deadline: T0 + 5001 });
    await pauseBeforeRetry(session, CALL, { sent: 1, failed: 0 }, problem({ retryAfterMs: 5000 }));
    expect(delays).toEqual([5000]);
  });

  it('a cancelled run stops before waiting', async () => {
    const controller = new AbortController();
    controller.abort();
    const { session, delays } = rig({ signal: controller.signal });
    const error = await rejection(pauseBeforeRetry(session, CALL, { sent: 1, failed: 0 }, problem()));
    expect(error.kind).toBe('cancelled');
    expect(delays).toEqual([]);
  });
});

describe('pauseBeforeRetry: a 429 that said when to come back', () => {
  it('is waited out as asked: not a failure, nothing from the budget', async () => {
    const { session, delays, events } = rig({ retry: { maxAttempts: 1 }, budget: new RetryBudget(0) });
    const attempts: Attempts = { sent: 3, failed: 0 };
    await pauseBeforeRetry(session, CALL, attempts, rateLimited(3000));
    expect(delays).toEqual([3000]);
    expect(attempts).toEqual({ sent: 3, failed: 0 });
    expect(events).toStrictEqual([
      {
        type: 'retry',
        attempt: 4,
        reason: '429 rate limited',
        status: 429,
        method: 'POST',
        path: PATH,
        delayMs: 3000,
      },
    ]);
  });

  it('a wait longer than maxDelayMs is cut to maxDelayMs', async () => {
    const { session, delays } = rig({ retry: { maxDelayMs: 10_000 } });
    await pauseBeforeRetry(session, CALL, { sent: 1, failed: 0 }, rateLimited(90_000));
    expect(delays).toEqual([10_000]);
  });

  it('a wait that would reach the deadline fails as deadline', async () => {
    const { session, delays } = rig({ deadline: T0 + 3000 });
    const error = await rejection(pauseBeforeRetry(session, CALL, { sent: 1, failed: 0 }, rateLimited(3000)));
    expect(error.kind).toBe('deadline');
    expect(error.message).toContain('during the next wait of 3 s (last problem: 429 rate limited)');
    expect(delays).toEqual([]);
  });

  it.each([
    [1, 'still refused after waiting as asked 1 time in a row'],
    [2, 'still refused after waiting as asked 2 times in a row'],
  ])('after more than %i waits in a row, fails as rate-limited', async (total, why) => {
    const streak = new RateLimitStreak(total);
    for (let i = 0; i <= total; i++) streak.record(429, 'new');
    const { session, delays } = rig({ rateLimitWaits: streak });
    const error = await rejection(pauseBeforeRetry(session, CALL, { sent: 1, failed: 0 }, rateLimited(3000)));
    expect(error.kind).toBe('rate-limited');
    expect(error.status).toBe(429);
    expect(error.message).toBe(`POST ${PATH}: 429 rate limited (${why}); try again later`);
    expect(delays).toEqual([]);
  });

  it('a streak within the limit still waits', async () => {
    const streak = new RateLimitStreak(1);
    streak.record(429, 'new');
    const { session, delays } = rig({ rateLimitWaits: streak });
    await pauseBeforeRetry(session, CALL, { sent: 1, failed: 0 }, rateLimited(3000));
    expect(delays).toEqual([3000]);
  });

  it('without a wait from the service, or not as its own wait, a 429 is a failure like any other', async () => {
    const noHint = rig();
    const attempts: Attempts = { sent: 1, failed: 0 };
    await pauseBeforeRetry(noHint.session, CALL, attempts, rateLimited(undefined));
    expect(noHint.delays).toEqual([250]);
    expect(attempts.failed).toBe(1);
    expect(noHint.session.budget.remaining).toBe(29);

    const unmarked = rig();
    const { rateLimitWait: _, ...plain } = rateLimited(3000);
    const counted: Attempts = { sent: 1, failed: 0 };
    await pauseBeforeRetry(unmarked.session, CALL, counted, plain);
    expect(unmarked.delays).toEqual([3000]);
    expect(counted.failed).toBe(1);
    expect(unmarked.session.budget.remaining).toBe(29);
  });

  it('even an exceeded streak does not stop a 429 that is not a wait of its own', async () => {
    const streak = new RateLimitStreak(0);
    streak.record(429, 'new');
    const { session, delays } = rig({ rateLimitWaits: streak });
    await pauseBeforeRetry(session, CALL, { sent: 1, failed: 0 }, rateLimited(undefined));
    expect(delays).toEqual([250]);
  });
});

const settings = { baseDelayMs: 500, maxDelayMs: 30_000 };

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
