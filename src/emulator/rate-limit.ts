import type { RateLimitOptions } from './types.js';

/**
 * The service's token bucket (Upstash `tokenBucket`, one bucket per environment): it holds `burst` tokens
 * (default `limit`), each request takes one, and every `windowSeconds` it refills `limit × windowSeconds`
 * tokens at once, up to the bucket size. Headers follow the IETF RateLimit draft as the service sends them.
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
  readonly #limit: number;
  readonly #windowMs: number;
  readonly #capacity: number;
  readonly #refill: number;
  readonly #policy: string;
  #buckets = new Map<string, Bucket>();

  constructor(options: RateLimitOptions) {
    for (const [name, value] of Object.entries(options)) {
      if (value !== undefined && !(Number.isFinite(value) && value > 0)) {
        throw new RangeError(`rateLimit.${name} must be a positive number (got ${value})`);
      }
    }
    this.#limit = options.limit;
    this.#windowMs = options.windowSeconds * 1000;
    this.#capacity = Math.floor(options.burst ?? options.limit);
    this.#refill = options.limit * options.windowSeconds;
    this.#policy =
      `${this.#limit};w=${options.windowSeconds};burst=${this.#capacity};` +
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
        bucket.tokens = Math.min(this.#capacity, bucket.tokens + refills * this.#refill);
        bucket.refilledAt += refills * this.#windowMs;
      }
    }
    const allowed = bucket.tokens >= 1;
    if (allowed) bucket.tokens -= 1;
    const resetSeconds = Math.max(Math.ceil((bucket.refilledAt + this.#windowMs - now) / 1000), 0);
    const headers: Record<string, string> = {
      'RateLimit-Remaining': String(Math.max(Math.floor(bucket.tokens), 0)),
      'RateLimit-Limit': String(this.#limit),
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
