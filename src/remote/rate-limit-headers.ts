import { parseNonNegativeInteger, parseRateLimitReset, parseRetryAfter } from './backoff.js';

/**
 * What one response says about the service's rate limit (IETF RateLimit header draft, as the service sends it):
 * `RateLimit-Limit: 150`, `RateLimit-Remaining: 149`, `RateLimit-Reset: 4` (seconds), and
 * `RateLimit-Policy: 150;w=5;burst=165;comment="token bucket"` (150 requests per 5 s window, a bucket of 165).
 */
export interface RateLimitHeaders {
  /** Remaining and reset together, or neither: a count without its reset cannot be used. */
  window?: { remaining: number; resetMs: number };
  /** RateLimit-Reset alone: on a 429, when to come back if there is no Retry-After. */
  resetMs?: number;
  /** The advertised quota, from RateLimit-Policy, else RateLimit-Limit per second. */
  policy?: Policy;
  /** Retry-After (429 and 503 answers). */
  retryAfterMs?: number;
}

export interface Policy {
  /** Requests per window. */
  quota: number;
  windowSeconds: number;
  /** Bucket size, when the service says (`burst=`). */
  burst?: number;
}

/** Read the rate-limit headers of a response; `header` looks up lower-case names. */
export function readRateLimitHeaders(
  header: (name: string) => string | undefined,
  now: number,
): RateLimitHeaders {
  const remaining = parseNonNegativeInteger(header('ratelimit-remaining'));
  const resetMs = parseRateLimitReset(header('ratelimit-reset'), now);
  const policy = parsePolicy(header('ratelimit-policy')) ?? limitAsPolicy(header('ratelimit-limit'));
  const retryAfterMs = parseRetryAfter(header('retry-after'), now);
  return {
    ...(remaining === undefined || resetMs === undefined ? {} : { window: { remaining, resetMs } }),
    ...(resetMs === undefined ? {} : { resetMs }),
    ...(policy === undefined ? {} : { policy }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
}

/** Requests per second a policy allows on average. */
export function policyRate(policy: Policy): number {
  return policy.quota / policy.windowSeconds;
}

/**
 * `150;w=5;burst=165;comment="…"`; several comma-separated policies (`10;w=1, 500;w=60`) give the one with the
 * lowest average rate. The quota may also be a `q=` parameter (later drafts). Undefined when nothing is usable.
 */
export function parsePolicy(value: string | undefined): Policy | undefined {
  if (value === undefined) return undefined;
  let slowest: Policy | undefined;
  for (const item of splitOutsideQuotes(value, ',')) {
    const policy = parsePolicyItem(item);
    if (policy !== undefined && (slowest === undefined || policyRate(policy) < policyRate(slowest)))
      slowest = policy;
  }
  return slowest;
}

function parsePolicyItem(item: string): Policy | undefined {
  const [head = '', ...rest] = splitOutsideQuotes(item, ';').map((part) => part.trim());
  const params = new Map<string, string>();
  for (const part of rest) {
    const eq = part.indexOf('=');
    if (eq > 0) params.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim());
  }
  const quota = positiveNumber(/^\d+$/.test(head) ? head : params.get('q'));
  const windowSeconds = params.has('w') ? positiveNumber(params.get('w')) : 1;
  if (quota === undefined || windowSeconds === undefined) return undefined;
  const burst = positiveNumber(params.get('burst'));
  return { quota, windowSeconds, ...(burst === undefined ? {} : { burst }) };
}

/** A bare `RateLimit-Limit` (no policy): read as requests per second, its leading number only. */
function limitAsPolicy(value: string | undefined): Policy | undefined {
  const quota = positiveNumber(value?.trim().match(/^\d+/)?.[0]);
  return quota === undefined ? undefined : { quota, windowSeconds: 1 };
}

function positiveNumber(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+(\.\d+)?$/.test(value)) return undefined;
  const number = Number(value);
  return number > 0 ? number : undefined;
}

/** Split on `separator` except inside double quotes (a `comment="a, b"` must not split a policy). */
function splitOutsideQuotes(value: string, separator: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < value.length; i++) {
    const char = value[i]!;
    if (char === '\\' && quoted) {
      current += char + (value[i + 1] ?? '');
      i++;
    } else if (char === '"') {
      quoted = !quoted;
      current += char;
    } else if (char === separator && !quoted) {
      parts.push(current);
      current = '';
    } else {
      current += char;
    }
  }
  parts.push(current);
  return parts;
}
