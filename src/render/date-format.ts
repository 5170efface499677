/**
 * `format(date, pattern)` of date-fns 2.29 (the version the service's `dateFormat` helper calls), in UTC, with the
 * en-US locale: the same tokenizer, the same errors (`YYYY`, `YY`, `D`, `DD` and unescaped latin letters throw a
 * RangeError with date-fns' own message), the same output for the tokens implemented here. Tokens that need week
 * arithmetic (`w`, `I`, `Y`, `R`, `e`, `c`, `b`, `B`) are not implemented: they throw UnsupportedToken, and the
 * renderer says so instead of guessing. Written from date-fns' documented behaviour (see docs/rendering.md).
 */

/** A token this implementation does not format (the service would): the renderer reports it. */
export class UnsupportedToken extends Error {
  constructor(readonly token: string) {
    super(`wfsync cannot preview the date-fns token \`${token}\``);
  }
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const TOKENS = /[yYQqMLwIdDecihHKkms]o|(\w)\1*|''|'(''|[^'])+('|$)|./g;
const LONG_TOKENS = /P+p+|P+|p+|''|'(''|[^'])+('|$)|./g;
const DATE_FORMATS = ['MM/dd/yyyy', 'MMM d, y', 'MMMM do, y', 'EEEE, MMMM do, y'];
const TIME_FORMATS = ['h:mm a', 'h:mm:ss a', 'h:mm:ss a z', 'h:mm:ss a zzzz'];
const DATE_TIME_FORMATS = [
  '{{date}}, {{time}}',
  '{{date}}, {{time}}',
  "{{date}} 'at' {{time}}",
  "{{date}} 'at' {{time}}",
];
const UNSUPPORTED = new Set(['Y', 'R', 'w', 'I', 'e', 'c', 'b', 'B']);

/** `date` formatted by `pattern` as date-fns 2.29 `format` does in a UTC process. Throws as it throws. */
export function formatDate(date: Date, pattern: unknown): string {
  const text = String(pattern);
  if (Number.isNaN(date.getTime())) throw new RangeError('Invalid time value');
  const expanded = (text.match(LONG_TOKENS) ?? []).map(expandLong).join('');
  return (expanded.match(TOKENS) ?? [])
    .map((token) => {
      if (token === "''") return "'";
      const first = token[0] as string;
      if (first === "'") return unquote(token);
      if (FORMATTERS[first] !== undefined || UNSUPPORTED.has(first)) {
        if (token === 'YY' || token === 'YYYY' || token === 'D' || token === 'DD') {
          throw new RangeError(protectedMessage(token, text, date));
        }
        const formatter = FORMATTERS[first];
        if (formatter === undefined) throw new UnsupportedToken(token);
        return formatter(date, token);
      }
      if (/[a-zA-Z]/.test(first)) {
        throw new RangeError(`Format string contains an unescaped latin alphabet character \`${first}\``);
      }
      return token;
    })
    .join('');
}

function expandLong(token: string): string {
  const first = token[0];
  if (first !== 'p' && first !== 'P') return token;
  const dates = /^P+/.exec(token)?.[0].length ?? 0;
  const times = token.length - dates;
  const date = DATE_FORMATS[Math.min(dates, 4) - 1];
  const time = TIME_FORMATS[Math.min(times, 4) - 1];
  if (date === undefined) return time as string;
  if (time === undefined) return date;
  return (DATE_TIME_FORMATS[Math.min(dates, 4) - 1] as string)
    .replace('{{date}}', date)
    .replace('{{time}}', time);
}

function unquote(token: string): string {
  const inner = /^'([\s\S]*?)'?$/.exec(token)?.[1];
  return inner === undefined ? token : inner.replace(/''/g, "'");
}

function protectedMessage(token: string, pattern: string, date: Date): string {
  const instead = token.toLowerCase();
  const what = token.startsWith('Y') ? 'years' : 'days of the month';
  return `Use \`${instead}\` instead of \`${token}\` (in \`${pattern}\`) for formatting ${what} to the input \`${dateString(date)}\`; see: https://github.com/date-fns/date-fns/blob/master/docs/unicodeTokens.md`;
}

/** `String(date)` in a UTC process. */
export function dateString(date: Date): string {
  const day = (DAYS[date.getUTCDay()] as string).slice(0, 3);
  const month = (MONTHS[date.getUTCMonth()] as string).slice(0, 3);
  const time = `${pad(date.getUTCHours(), 2)}:${pad(date.getUTCMinutes(), 2)}:${pad(date.getUTCSeconds(), 2)}`;
  const year = date.getUTCFullYear();
  const yearText = year < 0 ? `-${pad(-year, 6)}` : pad(year, 4);
  return `${day} ${month} ${pad(date.getUTCDate(), 2)} ${yearText} ${time} GMT+0000 (Coordinated Universal Time)`;
}

function pad(value: number, length: number): string {
  const sign = value < 0 ? '-' : '';
  return sign + String(Math.abs(value)).padStart(length, '0');
}

function ordinal(value: number): string {
  const rem100 = value % 100;
  if (rem100 > 20 || rem100 < 10) {
    const rem10 = rem100 % 10;
    if (rem10 === 1) return `${value}st`;
    if (rem10 === 2) return `${value}nd`;
    if (rem10 === 3) return `${value}rd`;
  }
  return `${value}th`;
}

/** A number token: `x` plain, `xo` ordinal, `xx…` zero-padded to the token's length. */
function numeric(value: number, token: string): string {
  if (token.endsWith('o') && token.length === 2) return ordinal(value);
  return token.length === 1 ? String(value) : pad(value, token.length);
}

/** A day name: 1-3 letters abbreviated, 5 narrow, 6 short (two letters), otherwise wide. */
function dayName(index: number, length: number): string {
  const name = DAYS[index] as string;
  if (length <= 3) return name.slice(0, 3);
  if (length === 5) return name.slice(0, 1);
  if (length === 6) return name.slice(0, 2);
  return name;
}

type Formatter = (date: Date, token: string) => string;

const FORMATTERS: Record<string, Formatter | undefined> = {
  G: (d, t) => {
    const ad = d.getUTCFullYear() > 0;
    if (t.length === 4) return ad ? 'Anno Domini' : 'Before Christ';
    if (t.length === 5) return ad ? 'A' : 'B';
    return ad ? 'AD' : 'BC';
  },
  y: (d, t) => {
    const full = d.getUTCFullYear();
    const year = full > 0 ? full : 1 - full;
    if (t === 'yo') return ordinal(year);
    if (t === 'yy') return pad(year % 100, 2);
    return t.length === 1 ? String(year) : pad(year, t.length);
  },
  u: (d, t) => pad(d.getUTCFullYear(), t.length),
  Q: (d, t) => quarter(d, t),
  q: (d, t) => quarter(d, t),
  M: (d, t) => month(d, t),
  L: (d, t) => month(d, t),
  d: (d, t) => numeric(d.getUTCDate(), t),
  D: (d, t) => numeric(dayOfYear(d), t),
  E: (d, t) => dayName(d.getUTCDay(), t.length),
  i: (d, t) => {
    const day = d.getUTCDay() || 7;
    if (t.length <= 2) return numeric(day, t);
    return dayName(d.getUTCDay(), t.length);
  },
  a: (d, t) => dayPeriod(d, t),
  h: (d, t) => numeric(d.getUTCHours() % 12 || 12, t),
  H: (d, t) => numeric(d.getUTCHours(), t),
  K: (d, t) => numeric(d.getUTCHours() % 12, t),
  k: (d, t) => numeric(d.getUTCHours() || 24, t),
  m: (d, t) => numeric(d.getUTCMinutes(), t),
  s: (d, t) => numeric(d.getUTCSeconds(), t),
  S: (d, t) => pad(Math.floor(d.getUTCMilliseconds() * 10 ** (t.length - 3)), t.length),
  X: () => 'Z',
  x: (_d, t) => (t.length === 1 ? '+00' : t.length === 2 || t.length === 4 ? '+0000' : '+00:00'),
  O: (_d, t) => (t.length === 4 ? 'GMT+00:00' : 'GMT+0'),
  z: (_d, t) => (t.length === 4 ? 'GMT+00:00' : 'GMT+0'),
  t: (d, t) => pad(Math.floor(d.getTime() / 1000), t.length),
  T: (d, t) => pad(d.getTime(), t.length),
};

function quarter(d: Date, t: string): string {
  const q = Math.ceil((d.getUTCMonth() + 1) / 3);
  if (t.length === 3) return `Q${q}`;
  if (t.length === 4) return `${ordinal(q)} quarter`;
  if (t.length === 5) return String(q);
  return numeric(q, t);
}

function month(d: Date, t: string): string {
  const m = d.getUTCMonth();
  if (t.length <= 2) return numeric(m + 1, t);
  const name = MONTHS[m] as string;
  if (t.length === 3) return name.slice(0, 3);
  if (t.length === 5) return name.slice(0, 1);
  return name;
}

function dayPeriod(d: Date, t: string): string {
  const pm = d.getUTCHours() >= 12;
  if (t.length === 3) return pm ? 'pm' : 'am';
  if (t.length === 4) return pm ? 'p.m.' : 'a.m.';
  if (t.length === 5) return pm ? 'p' : 'a';
  return pm ? 'PM' : 'AM';
}

function dayOfYear(d: Date): number {
  return Math.floor((d.getTime() - Date.UTC(d.getUTCFullYear(), 0, 1)) / 86_400_000) + 1;
}
