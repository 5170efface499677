import { type Policy, policyRate, readRateLimitHeaders } from './rate-limit-headers.js';
import { ServerWindow, type Slot } from './server-window.js';
import type { RateLimitWait } from './types.js';

export interface RateLimiterOptions {
  /**
   * Client-side pacing. Undefined: follow the service's advertised RateLimit-Policy (or RateLimit-Limit per
   * second), `fallbackPerSecond` until it advertises one; 0: none. The service's counts are followed either way.
   */
  requestsPerSecond?: number;
  /** Requests allowed at once before pacing starts; default one second's worth. Only with requestsPerSecond. */
  burst?: number;
  /** The pace while the service has advertised nothing (requestsPerSecond undefined). */
  fallbackPerSecond: number;
  /** Longest hold a server header can impose: a bogus reset an hour away must not stall the run. */
  maxHoldMs: number;
  now: () => number;
}

/**
 * Called to wait; it may throw (deadline passed, cancelled), which ends the acquire. `ms` undefined: until
 * `wake` settles; with both, whichever comes first.
 */
export type Wait = (ms: number | undefined, reason: string, wake?: Promise<void>) => Promise<void>;

/** A request let through; hand it back with `observe` (answered) or `release` (failed or never sent). */
export interface Ticket {
  readonly slot: Slot;
  /** 429s received before it was let through. */
  readonly limitedBefore: number;
}

/**
 * Paces requests so the service does not have to say 429: client-side pacing, the service's counts (see
 * ServerWindow), and holds after a 429 with Retry-After. Every decision is re-checked after every wait: other
 * answers may have changed the picture meanwhile.
 */
export class RateLimiter {
  readonly #pacing: Pacing;
  /** Pacing follows the service; this fast while it says nothing. Undefined: configured. */
  readonly #fallback: number | undefined;
  readonly #window = new ServerWindow();
  readonly #now: () => number;
  readonly #maxHoldMs: number;
  /** Hold everything until then (after a 429 with Retry-After). */
  #holdUntil = 0;
  #limitedSeen = 0;
  /** The latest policy the service advertised. */
  #policy: Policy | undefined;
  #changed = signal();

  constructor(options: RateLimiterOptions) {
    this.#fallback = options.requestsPerSecond === undefined ? options.fallbackPerSecond : undefined;
    this.#pacing =
      options.requestsPerSecond === undefined
        ? new Pacing(options.fallbackPerSecond)
        : new Pacing(options.requestsPerSecond, options.burst);
    this.#now = options.now;
    this.#maxHoldMs = options.maxHoldMs;
  }

  async acquire(wait: Wait): Promise<Ticket> {
    const paceMs = this.#pacing.reserve(this.#now());
    if (paceMs > 0) {
      const rate = this.#pacing.requestsPerSecond;
      await wait(paceMs, `pacing requests to ${Number.isInteger(rate) ? rate : rate.toFixed(1)}/s`);
    }
    for (;;) {
      const now = this.#now();
      if (now < this.#holdUntil) {
        await wait(this.#holdUntil - now, 'rate limited: waiting for Retry-After');
        continue;
      }
      const decision = this.#window.decide(now);
      if (decision.type === 'go') {
        return { slot: this.#window.grant(now, decision.probe), limitedBefore: this.#limitedSeen };
      }
      const ms = decision.until === undefined ? undefined : Math.max(0, decision.until - now);
      await wait(ms, decision.reason, this.#changed.promise);
    }
  }

  /**
   * Learn from an answer's status and headers (lower-case names). For a 429 that says when to come back
   * (Retry-After or RateLimit-Reset), says whether it is a new wait.
   */
  observe(
    ticket: Ticket,
    status: number,
    header: (name: string) => string | undefined,
  ): RateLimitWait | undefined {
    const now = this.#now();
    const headers = readRateLimitHeaders(header, now);
    if (headers.policy !== undefined) this.#policy = headers.policy;
    const count =
      headers.window === undefined
        ? undefined
        : {
            remaining: headers.window.remaining,
            resetAt: now + Math.min(headers.window.resetMs, this.#maxHoldMs),
            ...(this.#policy === undefined ? {} : { windowMs: this.#policy.windowSeconds * 1000 }),
          };
    this.#window.settle(ticket.slot, count === undefined ? { now } : { now, count });
    this.#adoptPace();
    let limited: RateLimitWait | undefined;
    if (status === 429) {
      if (headers.retryAfterMs !== undefined) {
        const until = now + Math.min(headers.retryAfterMs, this.#maxHoldMs);
        this.#holdUntil = Math.max(this.#holdUntil, until);
      }
      if ((headers.retryAfterMs ?? headers.resetMs) !== undefined) {
        limited = ticket.limitedBefore === this.#limitedSeen ? 'new' : 'ongoing';
        this.#limitedSeen++;
      }
    }
    this.#notify();
    return limited;
  }

  /** The request failed without an answer, or was never sent (cancelled, deadline). Idempotent. */
  release(ticket: Ticket): void {
    if (ticket.slot.settled) return;
    this.#window.settle(ticket.slot);
    this.#notify();
  }

  /**
   * Unless configured, the pace follows the service: none while it counts (its counts are exact, and a policy
   * read wrongly could only slow the run down), else its advertised policy, else the fallback.
   */
  #adoptPace(): void {
    if (this.#fallback === undefined) return;
    if (this.#window.counting) this.#pacing.set(0);
    else if (this.#policy !== undefined)
      this.#pacing.set(policyRate(this.#policy), this.#policy.burst ?? this.#policy.quota);
    else this.#pacing.set(this.#fallback);
  }

  #notify(): void {
    const previous = this.#changed;
    this.#changed = signal();
    previous.resolve();
  }
}

function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * Client-side pacing: GCRA, the token bucket expressed as "theoretical arrival time". `burst` requests may start
 * at once, then one every 1/rate s. Slots are reserved synchronously, so concurrent callers never share one.
 */
class Pacing {
  #intervalMs = 0;
  #toleranceMs = 0;
  /** When the next request would be due if requests were perfectly spaced. */
  #theoreticalArrival = 0;

  constructor(requestsPerSecond: number, burst?: number) {
    this.set(requestsPerSecond, burst);
  }

  /** 0 turns pacing off. `burst` defaults to one second's worth. Reservations already made keep their time. */
  set(requestsPerSecond: number, burst?: number): void {
    this.#intervalMs = requestsPerSecond > 0 ? 1000 / requestsPerSecond : 0;
    const size = Math.max(1, Math.floor(burst ?? Math.max(1, requestsPerSecond)));
    this.#toleranceMs = (size - 1) * this.#intervalMs;
  }

  get requestsPerSecond(): number {
    return this.#intervalMs > 0 ? 1000 / this.#intervalMs : 0;
  }

  /** Reserve the next slot; returns how long to wait for it (0: go now). */
  reserve(now: number): number {
    if (this.#intervalMs === 0) return 0;
    const arrival = Math.max(this.#theoreticalArrival, now);
    const startAt = arrival - this.#toleranceMs;
    this.#theoreticalArrival = arrival + this.#intervalMs;
    return startAt > now ? Math.ceil(startAt - now) : 0;
  }
}
