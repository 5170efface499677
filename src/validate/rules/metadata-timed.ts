import { joinPointer } from '../../diagnostic.js';
import { isRecord } from '../../json.js';
import type { RuleContext } from './types.js';
import { displayPath, listWords, quote } from './walk.js';

/** `timed` fields and the digest units the worker reads each one for. */
const TIMED_UNITS: Record<string, readonly string[]> = {
  atTime: ['days', 'weeks', 'months'],
  weekDays: ['weeks'],
  monthlyType: ['months'],
  monthDays: ['months'],
  ordinal: ['months'],
  ordinalValue: ['months'],
};

const TIMED_ENTRIES = Object.entries(TIMED_UNITS);

const MONTHLY_FIELDS: Record<string, readonly string[]> = {
  each: ['monthDays'],
  on: ['ordinal', 'ordinalValue'],
};

export function present(value: unknown): boolean {
  return (
    value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0)
  );
}

/**
 * A timed digest's schedule as the worker reads it (it fails the digest at trigger time otherwise): by days it
 * sends at `atTime`, by weeks also on `weekDays`, by months on `monthDays` (each) or an `ordinal` day (on).
 */
export function checkTimedSchedule(ctx: RuleContext, metadata: Record<string, unknown>, at: string): void {
  const unit = metadata.unit;
  if (typeof unit !== 'string') return; // reported as missing by the caller
  const timed = isRecord(metadata.timed) ? metadata.timed : {};
  for (const [key, units] of TIMED_ENTRIES) {
    if (!present(timed[key]) || units.includes(unit)) continue;
    const timedAt = joinPointer(at, 'timed');
    const message = `${displayPath(timedAt)}.${key} does not fit unit ${unit} (it is read for ${listWords(units)} only): remove it.`;
    ctx.report(joinPointer(timedAt, key), message, { target: 'key' });
  }
  const monthlyType = timed.monthlyType;
  if (unit === 'months' && typeof monthlyType === 'string' && monthlyType in MONTHLY_FIELDS) {
    for (const [type, fields] of Object.entries(MONTHLY_FIELDS)) {
      if (type === monthlyType) continue;
      for (const key of fields.filter((f) => present(timed[f]))) {
        const timedAt = joinPointer(at, 'timed');
        const message = `${displayPath(timedAt)}.${key} does not fit monthlyType ${quote(monthlyType)} (it is read for ${type} only): remove it.`;
        ctx.report(joinPointer(timedAt, key), message, { target: 'key' });
      }
    }
  }
  const required = requiredFields(unit, monthlyType);
  if (required === undefined) return;
  const absent = required.fields.filter((f) => !present(timed[f]));
  if (absent.length === 0) return;
  // Missing fields are reported on `timed` when it exists, else on `metadata`, naming them from there.
  const [where, prefix] = isRecord(metadata.timed) ? [joinPointer(at, 'timed'), ''] : [at, 'timed.'];
  const names = listWords(
    absent.map((f) => `\`${prefix}${f}\``),
    'and',
  );
  ctx.report(where, `${displayPath(where)} needs ${names}: ${required.why}.`, { target: 'key' });
}

function requiredFields(unit: string, monthlyType: unknown): { fields: string[]; why: string } | undefined {
  if (unit === 'days') return { fields: ['atTime'], why: 'a daily timed digest sends at that time' };
  if (unit === 'weeks') {
    return { fields: ['atTime', 'weekDays'], why: 'a weekly timed digest sends on those days at that time' };
  }
  if (unit !== 'months') return undefined;
  if (typeof monthlyType === 'string' && monthlyType in MONTHLY_FIELDS) {
    const fields = ['atTime', ...MONTHLY_FIELDS[monthlyType]!];
    const day =
      monthlyType === 'each'
        ? 'on those days of the month'
        : 'on that day of the month (e.g. the last friday)';
    return { fields, why: `a monthly timed digest of type ${monthlyType} sends ${day} at that time` };
  }
  return {
    fields: ['atTime', 'monthlyType'],
    why: 'a monthly timed digest sends at that time on listed days (monthlyType each) or on a day such as the last friday (on)',
  };
}
