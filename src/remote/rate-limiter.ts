import { parseNonNegativeInteger, parseRateLimitReset } from './backoff.js';

export interface RateLimiterOptions {
  /** 0 or undefined: no client-side cap (the server's headers are still followed). */
  requestsPerSecond?: number;
  /** Requests allowed at once before spacing starts; default one second's worth. */
  burst?: number;
  /** Longest hold a server header can impose: a bogus reset an hour away must not stall the run. */
  maxHoldMs: number;
  now: () => number;
}

/** Called to wait; it may throw (deadline passed, cancelled), which ends the acquire. */
export type Wait = (ms: number, reason: string) => Promise<void>;

/**
 * Paces requests before the service has to say 429: a client-side cap (GCRA, the token bucket expressed as
 * "theoretical arrival time"), plus the service's RateLimit-Remaining/RateLimit-Reset: when the remaining count
 * reaches 0, new requests are held until the reset. Slots are reserved synchronously in `acquire`, so concurrent
 * callers never share a slot.
 */
export class RateLimiter {
  readonly #intervalMs: number;
  readonly #toleranceMs: number;
  readonly #now: () => number;
  readonly #maxHoldMs: number;
  /** When the next request would be due if requests were perfectly spaced. */
  #theoreticalArrival = 0;
  /** Requests left in the service's window, counted down as we send; undefined when unknown. */
  #serverRemaining: number | undefined;
  #serverResetAt = 0;
  /** Hold everything until then (after a 429 with Retry-After). */
  #holdUntil = 0;

  constructor(options: RateLimiterOptions) {
    const rps = options.requestsPerSecond ?? 0;
    this.#intervalMs = rps > 0 ? 1000 / rps : 0;
    const burst = Math.max(1, Math.floor(options.burst ?? Math.max(1, rps)));
    this.#toleranceMs = (burst - 1) * this.#intervalMs;
    this.#now = options.now;
    this.#maxHoldMs = options.maxHoldMs;
  }

  async acquire(wait: Wait): Promise<void> {
    if (this.#intervalMs > 0) {
      const now = this.#now();
      const arrival = Math.max(this.#theoreticalArrival, now);
      const startAt = arrival - this.#toleranceMs;
      this.#theoreticalArrival = arrival + this.#intervalMs;
      if (startAt > now) await wait(Math.ceil(startAt - now), 'client rate cap');
    }
    // Re-checked after every wait: other responses may have moved the server's window meanwhile.
    for (;;) {
      const now = this.#now();
      if (now < this.#holdUntil) {
        await wait(this.#holdUntil - now, 'rate limited: waiting for Retry-After');
        continue;
      }
      if (this.#serverRemaining !== undefined) {
        if (now >= this.#serverResetAt) {
          this.#serverRemaining = undefined;
        } else if (this.#serverRemaining <= 0) {
          await wait(this.#serverResetAt - now, 'RateLimit-Remaining is 0: waiting for the window to reset');
          continue;
        } else {
          this.#serverRemaining--;
        }
      }
      return;
    }
  }

  /** Learn from a response's headers (lower-case names). */
  observe(header: (name: string) => string | undefined, retryAfterMs?: number): void {
    const now = this.#now();
    if (retryAfterMs !== undefined) {
      this.#holdUntil = Math.max(this.#holdUntil, now + Math.min(retryAfterMs, this.#maxHoldMs));
    }
    const remaining = parseNonNegativeInteger(header('ratelimit-remaining'));
    const resetMs = parseRateLimitReset(header('ratelimit-reset'), now);
    if (remaining === undefined || resetMs === undefined) return;
    this.#serverRemaining = remaining;
    this.#serverResetAt = now + Math.min(resetMs, this.#maxHoldMs);
  }
}
