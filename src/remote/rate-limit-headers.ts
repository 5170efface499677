/**
 * What one response says about the service's rate limit (IETF RateLimit header draft, as the service sends it):
 * `RateLimit-Policy: 150;w=5;burst=165;comment="token bucket"` (150 requests per 5 s window), else
 * `RateLimit-Limit: 150` read per second; `RateLimit-Reset: 4` (seconds) and, on a 429, `Retry-After`.
 */
export interface RateLimitHeaders {
  /** The advertised average rate, from RateLimit-Policy, else RateLimit-Limit per second. */
  requestsPerSecond?: number;
  /** RateLimit-Reset: on a 429, when to come back if there is no Retry-After. */
  resetMs?: number;
  /** Retry-After (429 and 503 answers). */
  retryAfterMs?: number;
}

/** Read the rate-limit headers of a response; `header` looks up lower-case names. */
export function readRateLimitHeaders(
  header: (name: string) => string | undefined,
  now: number,
): RateLimitHeaders {
  const requestsPerSecond =
    parsePolicyRate(header('ratelimit-policy')) ??
    positiveNumber(header('ratelimit-limit')?.trim().match(/^\d+/)?.[0]);
  const resetMs = parseRateLimitReset(header('ratelimit-reset'), now);
  const retryAfterMs = parseRetryAfter(header('retry-after'), now);
  return {
    ...(requestsPerSecond === undefined ? {} : { requestsPerSecond }),
    ...(resetMs === undefined ? {} : { resetMs }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  };
}

/**
 * The requests per second a policy allows on average: `150;w=5;burst=165;comment="…"` is 30. Of several
 * comma-separated policies (`10;w=1, 500;w=60`), the slowest. The quota may also be a `q=` parameter (later
 * drafts). Undefined when nothing is usable.
 */
export function parsePolicyRate(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const rates = splitOutsideQuotes(value, ',').flatMap((item) => policyItemRate(item) ?? []);
  return rates.length === 0 ? undefined : Math.min(...rates);
}

function policyItemRate(item: string): number | undefined {
  const [head = '', ...rest] = splitOutsideQuotes(item, ';').map((part) => part.trim());
  const params = new Map<string, string>();
  for (const part of rest) {
    const eq = part.indexOf('=');
    if (eq > 0) params.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim());
  }
  const quota = positiveNumber(/^\d+$/.test(head) ? head : params.get('q'));
  const windowSeconds = params.has('w') ? positiveNumber(params.get('w')) : 1;
  return quota === undefined || windowSeconds === undefined ? undefined : quota / windowSeconds;
}

/** A non-negative decimal (`4`, `0.5`), spaces around it allowed; undefined for anything else. */
function decimal(value: string | undefined): number | undefined {
  const trimmed = value?.trim();
  return trimmed !== undefined && /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : undefined;
}

function positiveNumber(value: string | undefined): number | undefined {
  const number = decimal(value);
  return number !== undefined && number > 0 ? number : undefined;
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

/** `Retry-After` as milliseconds from `now`: delta seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const seconds = decimal(value);
  if (seconds !== undefined) return Math.ceil(seconds * 1000);
  const date = parseHttpDate(value.trim());
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
  const seconds = decimal(value);
  if (seconds === undefined) return undefined;
  if (seconds >= EPOCH_SECONDS_THRESHOLD) return Math.max(0, seconds * 1000 - now);
  return Math.ceil(seconds * 1000);
}
