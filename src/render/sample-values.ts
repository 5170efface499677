/**
 * One realistic sample value for a variable, chosen by its name and type: `firstName` → a first name, `amount` → a
 * number, `*Url` → a URL, `*At`/`*Date` → an ISO date from a fixed reference date. Pure and stable.
 */

/** The fixed reference date samples are built from (no clock). */
export const SAMPLE_REFERENCE_DATE = '2024-03-14T09:26:53.000Z';

const FIRST_NAMES = ['Ada', 'Grace', 'Alan'];
const LAST_NAMES = ['Lovelace', 'Hopper', 'Turing'];

interface Rule {
  test: { test(name: string): boolean };
  value: (position: number, name: string) => unknown;
}

/** Quantity words, and the sample each kind takes: money, a duration's count, a reference number, a count. */
const QUANTITY_KINDS: Array<[string, (i: number) => number]> = [
  ['amount price total balance cost fee', (i) => 129.5 + i],
  ['seconds minutes hours days weeks months years', (i) => 3 + i],
  ['number num', (i) => 1042 + i],
  ['count quantity qty size score age percent rate points', (i) => 42 + i],
];
const QUANTITIES = new Map(
  QUANTITY_KINDS.flatMap(([list, value]) => list.split(' ').map((word) => [word, value] as const)),
);
/** The last quantity word of a camelCase, snake_case or kebab-case name: `amountDue` → amount, `daysOverdue` → days. */
function quantityOf(name: string): ((i: number) => number) | undefined {
  const found = words(name)
    .split(/\s+/)
    .filter((w) => QUANTITIES.has(w));
  return found.length === 0 ? undefined : QUANTITIES.get(found[found.length - 1] as string);
}
const NUMBER_WORD = { test: (name: string) => quantityOf(name) !== undefined };

// Checked in order: the first rule whose pattern matches the name (last segment, any case) gives the value.
const RULES: Rule[] = [
  { test: /^first_?name$/i, value: (i) => pick(FIRST_NAMES, i) },
  { test: /^last_?name$|^surname$/i, value: (i) => pick(LAST_NAMES, i) },
  {
    test: /^(full_?)?name$|^(user|customer|author|sender|recipient)_?name$/i,
    value: (i) => `${pick(FIRST_NAMES, i)} ${pick(LAST_NAMES, i)}`,
  },
  { test: /e_?mail$/i, value: (i) => `${pick(FIRST_NAMES, i).toLowerCase()}@example.com` },
  { test: /phone|mobile/i, value: (i) => `+1555555012${i}` },
  {
    test: /(url|link|href|uri)$/i,
    value: (i, name) =>
      `https://example.com/${kebab(name.replace(/_?(url|link|href|uri)$/i, '')) || 'page'}/${i + 1}`,
  },
  {
    test: /(avatar|image|logo|photo|picture|icon)$/i,
    value: (i) => `https://example.com/images/${i + 1}.png`,
  },
  { test: /(_at|At|date|Date|time|Time)$|^(date|time|timestamp)$/, value: (i) => shiftDays(i) },
  // A number when any word of the name is a quantity: `amount`, `amountDue`, `daysOverdue`, `item_count`.
  { test: NUMBER_WORD, value: (i, name) => (quantityOf(name) as (i: number) => number)(i) },
  { test: /(^|_)id$|Id$/, value: (i) => `id-${1001 + i}` },
  { test: /currency/i, value: () => 'USD' },
  { test: /locale|language|lang$/i, value: () => 'en_US' },
  { test: /country/i, value: () => 'United Kingdom' },
  { test: /city/i, value: () => 'London' },
  { test: /company|organi[sz]ation|org$|team/i, value: () => 'Analytical Engines Ltd' },
  { test: /title|subject/i, value: (i) => `Sample title ${i + 1}` },
  { test: /message|body|text|content|description|comment|note/i, value: (i) => `Sample message ${i + 1}` },
  { test: /code|otp|token|pin/i, value: (i) => `${428913 + i}` },
  { test: /status/i, value: () => 'active' },
];

/** A sample value for the variable whose last segment is `name`, of `type`, at `position` in its array. */
export function sampleValue(name: string, type: string, position: number): unknown {
  if (type === 'Boolean') return true;
  for (const rule of RULES) if (rule.test.test(name)) return rule.value(position, name);
  return position === 0 ? `Sample ${words(name)}` : `Sample ${words(name)} ${position + 1}`;
}

function pick(list: readonly string[], i: number): string {
  return list[i % list.length] as string;
}

/** The reference date `days` days later, as an ISO string. */
function shiftDays(days: number): string {
  return new Date(Date.parse(SAMPLE_REFERENCE_DATE) + days * 86_400_000).toISOString();
}

function words(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase()
    .trim();
}

function kebab(name: string): string {
  return words(name).replace(/\s+/g, '-');
}
