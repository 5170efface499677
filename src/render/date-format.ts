/**
 * The service's `dateFormat` formats with date-fns' `format` (compile-template.usecase.ts at novu@74a2e9a6), date-fns
 * 2.29.3 as its `pnpm-lock.yaml` locks it: wfsync calls that very release (package.json pins it exactly), so every
 * token, quoted literal, long format and refusal (`YYYY`, `D`, an unquoted letter) is date-fns' own.
 *
 * date-fns formats in the process's time zone, and the service's processes run in UTC. A preview must not depend on
 * the time zone of the machine it runs on, so a date is formatted with the process in UTC: where the local zone
 * already puts the date at offset 0 (CI, containers, TZ=UTC), date-fns is called as is; elsewhere the process's TZ is
 * set to UTC for the one synchronous call and put back (Node applies a change of `process.env.TZ` at once; wfsync
 * runs no other thread that could read the clock meanwhile). A worker thread cannot change the zone (its `process.env`
 * is a copy): there, for a caller of the programmatic API, date-fns is given the local date showing UTC's wall clock,
 * which formats every field as in UTC; only the offset tokens (`X`, `x`, `O`, `z`) and `t`/`T` then show the zone.
 */
import { onFirstUse } from '../derive/first-use.js';

type Format = typeof import('date-fns/format').default;

const format = onFirstUse<Format>('date-fns/format');

/** `format(date, pattern)` of date-fns 2.29.3 in a UTC process. Throws what it throws (a RangeError). */
export function formatDate(date: Date, pattern: unknown): string {
  // date-fns applies String() itself; the cast only satisfies its declared type.
  const run = () => format()(date, pattern as string);
  if (inUtcAlready(date)) return run();
  const env = process.env;
  const before = env.TZ;
  env.TZ = 'UTC';
  try {
    return inUtcAlready(date) ? run() : format()(wallClock(date), pattern as string);
  } finally {
    if (before === undefined) delete env.TZ;
    else env.TZ = before;
  }
}

/**
 * What date-fns says of `pattern` when it refuses it (undefined when it formats): whether a pattern is refused does not
 * depend on the zone, so this asks date-fns in the local one (no change of TZ), on a fixed date. The message leaves
 * out the date the refusal quotes.
 */
export function datePatternError(pattern: string): string | undefined {
  try {
    format()(PROBE_DATE, pattern);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message.replace(/ to the input `[^`]*`/, '') : String(error);
  }
}

const PROBE_DATE = new Date(Date.UTC(2024, 2, 14, 9, 26, 53));

/** Whether the local zone shows `date` with UTC's fields (an invalid date: date-fns refuses it in any zone). */
function inUtcAlready(date: Date): boolean {
  const time = date.getTime();
  if (Number.isNaN(time)) return true;
  return date.getTimezoneOffset() === 0 && date.getSeconds() === date.getUTCSeconds();
}

/** A local date whose fields are `date`'s UTC fields (years 0-99 set apart: the constructor reads them as 19xx). */
function wallClock(date: Date): Date {
  const local = new Date(0);
  local.setFullYear(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
  local.setHours(date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds(), date.getUTCMilliseconds());
  return local;
}
