import type { RateLimitOptions } from './types.js';

/**
 * The service's token bucket (Upstash `tokenBucket`, one bucket per environment). The service is configured in
 * requests per second but counts per window: the window's quota is `limit × windowSeconds`, refilled at once at
 * every window boundary up to the bucket size `burst` (the quota plus the burst allowance; default: the quota).
 * Each request takes one token. Headers as the service sends them (IETF RateLimit draft): `RateLimit-Limit` and the
 * policy's first item are the window's quota (`150;w=5;burst=165` for 30/s in 5-s windows with 10% burst),
 * `RateLimit-Remaining` the tokens left (never negative), `RateLimit-Reset` the whole seconds to the next refill,
 * rounded up, and a 429 adds `Retry-After` with the same seconds.
 */

export interface RateLimitResult {
  allowed: boolean;
  headers: Record<string, string>;
}

interface Bucket {
  tokens: number;
  refilledAt: number;
}

export class RateLimiter {
  readonly #windowMs: number;
  readonly #capacity: number;
  /** The window's quota: what a window refills, and what RateLimit-Limit says. */
  readonly #quota: number;
  readonly #policy: string;
  #buckets = new Map<string, Bucket>();

  constructor(options: RateLimitOptions) {
    for (const [name, value] of Object.entries(options)) {
      if (value !== undefined && !(Number.isFinite(value) && value > 0)) {
        throw new RangeError(`rateLimit.${name} must be a positive number (got ${value})`);
      }
    }
    this.#windowMs = options.windowSeconds * 1000;
    // Whole tokens, as the service's integer settings give (`7.5;w=…` is no header the service sends); the epsilon
    // keeps 0.29 × 100 at 29.
    this.#quota = Math.floor(options.limit * options.windowSeconds + 1e-9);
    this.#capacity = Math.floor(options.burst ?? this.#quota);
    if (this.#quota < 1 || this.#capacity < 1) {
      throw new RangeError(
        `rateLimit needs at least 1 request per window and a bucket of at least 1 (limit × windowSeconds: ${this.#quota}, burst: ${this.#capacity})`,
      );
    }
    this.#policy =
      `${this.#quota};w=${options.windowSeconds};burst=${this.#capacity};` +
      'comment="token bucket";category="global";cost="single";serviceLevel="free"';
  }

  take(bucketKey: string, now: number): RateLimitResult {
    let bucket = this.#buckets.get(bucketKey);
    if (bucket === undefined) {
      bucket = { tokens: this.#capacity, refilledAt: now };
      this.#buckets.set(bucketKey, bucket);
    } else {
      const refills = Math.floor((now - bucket.refilledAt) / this.#windowMs);
      if (refills > 0) {
        bucket.tokens = Math.min(this.#capacity, bucket.tokens + refills * this.#quota);
        bucket.refilledAt += refills * this.#windowMs;
      }
    }
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    const resetSeconds = Math.max(Math.ceil((bucket.refilledAt + this.#windowMs - now) / 1000), 0);
    const headers: Record<string, string> = {
      'RateLimit-Remaining': String(bucket.tokens),
      'RateLimit-Limit': String(this.#quota),
      'RateLimit-Reset': String(resetSeconds),
      'RateLimit-Policy': this.#policy,
    };
    if (!allowed) headers['Retry-After'] = String(resetSeconds);
    return { allowed, headers };
  }

  clear(): void {
    this.#buckets.clear();
  }
}
