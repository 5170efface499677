import { readRateLimitHeaders } from './rate-limit-headers.js';
import type { RateLimitWait } from './types.js';

export interface RateLimiterOptions {
  /**
   * Client-side pace in requests per second. Undefined: the service's advertised rate (RateLimit-Policy, or
   * RateLimit-Limit per second), `fallbackPerSecond` until it advertises one; 0: none.
   */
  requestsPerSecond?: number;
  /** Requests allowed at once before pacing starts; default 1 (evenly spaced). Only with requestsPerSecond. */
  burst?: number;
  /**
   * The pace while the service has advertised nothing (requestsPerSecond undefined), with a second's worth at once:
   * a service that sends no rate-limit headers may well have no limit.
   */
  fallbackPerSecond: number;
  /** Longest hold a server header can impose: a bogus reset an hour away must not stall the run. */
  maxHoldMs: number;
  now: () => number;
}

/** Called to wait; it may throw (deadline passed, cancelled), which ends the acquire. */
export type Wait = (ms: number, reason: string) => Promise<void>;

/** A request let through; its answer goes to `observe`. */
export interface Ticket {
  /** 429s received before it was let through. */
  readonly limitedBefore: number;
}

/**
 * Paces requests so the service does not have to say 429: a token bucket at the configured rate, else at the rate
 * the service advertises, evenly spaced (no burst), so that no window of the service's, whatever its length, sees
 * more than its quota: a burst on top of the average rate is what overruns a window refilled at its boundaries.
 * A 429 that says when to come back (Retry-After, else RateLimit-Reset) holds every request until then.
 */
export class RateLimiter {
  readonly #pacing: Pacing;
  /** Whether the pace follows the service's advertised rate (none configured). */
  readonly #followsService: boolean;
  readonly #now: () => number;
  readonly #maxHoldMs: number;
  /** Hold everything until then (after a 429 that said when to come back). */
  #holdUntil = 0;
  #limitedSeen = 0;
  /** Settles when the first request ends: until then it goes alone (see acquire). */
  #first: { promise: Promise<void>; resolve: () => void } | undefined;

  constructor(options: RateLimiterOptions) {
    this.#followsService = options.requestsPerSecond === undefined;
    this.#pacing =
      options.requestsPerSecond === undefined
        ? new Pacing(options.fallbackPerSecond, options.fallbackPerSecond)
        : new Pacing(options.requestsPerSecond, options.burst);
    this.#now = options.now;
    this.#maxHoldMs = options.maxHoldMs;
  }

  async acquire(wait: Wait): Promise<Ticket> {
    // The first request goes alone: it opens the connection and starts the service's count, both late by a time no
    // pace can know, and the requests after it would crowd the end of the service's first window.
    if (this.#first === undefined) this.#first = settledSignal();
    else await this.#first.promise;
    for (;;) {
      // A hold first: the pace then spaces the requests it kept waiting from its end, not all at once.
      for (let now = this.#now(); now < this.#holdUntil; now = this.#now()) {
        await wait(this.#holdUntil - now, 'rate limited: waiting for Retry-After');
      }
      const paceMs = this.#pacing.reserve(this.#now());
      if (paceMs > 0) {
        const rate = this.#pacing.requestsPerSecond;
        await wait(paceMs, `pacing requests to ${Number.isInteger(rate) ? rate : rate.toFixed(1)}/s`);
      }
      // Another answer may have asked for a hold meanwhile.
      if (this.#now() >= this.#holdUntil) return { limitedBefore: this.#limitedSeen };
    }
  }

  /** The request ended, answered or not (its answer, if any, goes to `observe` first). */
  settle(): void {
    this.#first?.resolve();
  }

  /**
   * Learn from an answer's status and headers (lower-case names). For a 429 that says when to come back
   * (Retry-After or RateLimit-Reset), says whether it is a new wait or one of a burst already being waited out.
   */
  observe(
    ticket: Ticket,
    status: number,
    header: (name: string) => string | undefined,
  ): RateLimitWait | undefined {
    const now = this.#now();
    const headers = readRateLimitHeaders(header, now);
    if (this.#followsService && headers.requestsPerSecond !== undefined)
      this.#pacing.set(headers.requestsPerSecond);
    if (status !== 429) return undefined;
    const comeBackMs = headers.retryAfterMs ?? headers.resetMs;
    if (comeBackMs === undefined) return undefined;
    this.#holdUntil = Math.max(this.#holdUntil, now + Math.min(comeBackMs, this.#maxHoldMs));
    const limited = ticket.limitedBefore === this.#limitedSeen ? 'new' : 'ongoing';
    this.#limitedSeen++;
    return limited;
  }
}

function settledSignal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/**
 * How much slower than the rate the pace runs: 2%, 20 ms of each second. A service counting whole windows sees
 * requests spaced exactly 1/rate apart pile up at a window's edge, where one request delayed on the way by less
 * than the spacing lands in the next window and makes it one too many: 20 ms of every second to spare absorbs that.
 */
const JITTER_SPARE = 0.02;

/**
 * Client-side pacing: GCRA, the token bucket expressed as "theoretical arrival time". `burst` requests may start
 * at once, then one every 1/rate s (and a little: JITTER_SPARE). Slots are reserved synchronously, so concurrent
 * callers never share one.
 */
class Pacing {
  #intervalMs = 0;
  #toleranceMs = 0;
  /** When the next request would be due if requests were perfectly spaced. */
  #theoreticalArrival = 0;

  constructor(requestsPerSecond: number, burst?: number) {
    this.set(requestsPerSecond, burst);
  }

  /**
   * 0 turns pacing off. Reservations already made keep their time, but the next one is spaced from the last at the
   * new rate (the first answer's policy slows the second request, not only the third).
   */
  set(requestsPerSecond: number, burst = 1): void {
    const intervalMs = requestsPerSecond > 0 ? (1000 / requestsPerSecond) * (1 + JITTER_SPARE) : 0;
    if (this.#theoreticalArrival > 0) this.#theoreticalArrival += intervalMs - this.#intervalMs;
    this.#intervalMs = intervalMs;
    this.#toleranceMs = (Math.max(1, Math.floor(burst)) - 1) * intervalMs;
  }

  get requestsPerSecond(): number {
    return this.#intervalMs > 0 ? (1000 * (1 + JITTER_SPARE)) / this.#intervalMs : 0;
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
