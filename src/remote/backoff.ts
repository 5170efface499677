import type { RateLimitWait } from './rate-limiter.js';

/**
 * Retry timing: full-jitter exponential backoff, server hints (Retry-After, RateLimit-Reset) and the retry
 * budget shared by every call of one client.
 */

export interface BackoffSettings {
  baseDelayMs: number;
  maxDelayMs: number;
}

/**
 * Delay before retry number `attempt` (1 = the first retry): a uniformly random point in
 * [0, min(max, base·2^(attempt-1))) ("full jitter", so parallel callers spread out), but never sooner than the
 * server asked, and never longer than maxDelayMs.
 */
export function backoffDelay(
  attempt: number,
  settings: BackoffSettings,
  random: () => number,
  serverHintMs?: number,
): number {
  const ceiling = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  const jittered = Math.floor(random() * ceiling);
  const delay = serverHintMs === undefined ? jittered : Math.max(serverHintMs, jittered);
  return Math.max(0, Math.min(delay, settings.maxDelayMs));
}

/** `Retry-After` as milliseconds from `now`: delta seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.ceil(Number(trimmed) * 1000);
  const date = parseHttpDate(trimmed);
  return date === undefined ? undefined : Math.max(0, date - now);
}

const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const WEEKDAY = '(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '\\d{2}:\\d{2}:\\d{2}';
/** IMF-fixdate and the obsolete RFC 850 form of an HTTP-date (RFC 9110 §5.6.7): both say GMT. */
const ZONED_DATE = [
  new RegExp(`^${DAY}, \\d{2} ${MONTH} \\d{4} ${TIME} GMT$`, 'i'),
  new RegExp(`^${WEEKDAY}, \\d{2}-${MONTH}-\\d{2} ${TIME} GMT$`, 'i'),
];
/** The asctime form, `Sun Nov  6 08:49:37 1994`: it names no zone and means GMT. */
const ASCTIME = new RegExp(`^${DAY} ${MONTH} [ \\d]\\d ${TIME} \\d{4}$`, 'i');

/**
 * An HTTP-date as epoch ms; undefined for anything else. Date.parse alone accepts far too much ("Tue 5", "1 Oct",
 * a date followed by junk) and reads asctime as local time.
 */
function parseHttpDate(value: string): number | undefined {
  if (ZONED_DATE.some((pattern) => pattern.test(value))) return parseDate(value);
  if (ASCTIME.test(value)) return parseDate(`${value} GMT`);
  return undefined;
}

function parseDate(text: string): number | undefined {
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : date;
}

/** Values this large are epoch seconds, not delta seconds: some servers send the absolute reset time. */
const EPOCH_SECONDS_THRESHOLD = 1_000_000_000;

/** `RateLimit-Reset` as milliseconds from `now` (delta seconds per the draft standard; epoch seconds tolerated). */
export function parseRateLimitReset(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (!/^\d+(\.\d+)?$/.test(trimmed)) return undefined;
  const seconds = Number(trimmed);
  if (seconds >= EPOCH_SECONDS_THRESHOLD) return Math.max(0, seconds * 1000 - now);
  return Math.ceil(seconds * 1000);
}

export function parseNonNegativeInteger(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  return /^\d+$/.test(trimmed) ? Number(trimmed) : undefined;
}

/** Total retries one client may make across all its calls, so a sick service cannot stretch a run forever. */
export class RetryBudget {
  #remaining: number;
  readonly total: number;

  constructor(total: number) {
    this.total = total;
    this.#remaining = total;
  }

  get remaining(): number {
    return this.#remaining;
  }

  /** Take one retry; false when none is left. */
  take(): boolean {
    if (this.#remaining <= 0) return false;
    this.#remaining--;
    return true;
  }
}

/**
 * Rate-limit waits in a row with no other answer in between. Waiting as the service asks is not a failure, but a
 * service that answers nothing but 429 must still end the run.
 */
export class RateLimitStreak {
  readonly total: number;
  #count = 0;

  constructor(total: number) {
    this.total = total;
  }

  /** An answer arrived: a 429 that is a new wait extends the streak, any other status ends it. */
  record(status: number, wait: RateLimitWait | undefined): void {
    if (status !== 429) this.#count = 0;
    else if (wait === 'new') this.#count++;
  }

  /** More waits in a row than allowed: give up instead of waiting again. */
  get exceeded(): boolean {
    return this.#count > this.total;
  }
}
