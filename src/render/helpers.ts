/**
 * The service's Handlebars helpers, with its exact behaviour: the same arguments, the same coercions, the same
 * failures (a TypeError's message is what the service reports). Each rule is in docs/rendering.md with its source.
 * Written from the service's behaviour, not its code. Which helpers there are, and their argument counts, is
 * derive/service-helpers.ts's one table, which derive reads too; a test holds the two in step.
 */
import { formatDate } from './date-format.js';

// biome-ignore lint/suspicious/noExplicitAny: Handlebars passes helpers anything.
type Value = any;

interface HelperOptions {
  fn?: (context: unknown) => string;
  inverse?: (context: unknown) => string;
  hash?: Record<string, unknown>;
}

/**
 * What the service's comparison helpers (gt, gte, lt, lte, eq, ne) render their block with: the `this` of the
 * module that defines them (a CommonJS module's exports, holding the use case's class), not the template's
 * context. So `{{#gt a b}}{{name}}{{/gt}}` renders `name` empty; `@root.name` and `../name` still reach it.
 */
export const COMPARISON_BLOCK_CONTEXT: Readonly<Record<string, unknown>> = Object.freeze(
  Object.defineProperty({ CompileTemplate: 'class CompileTemplate' }, '__esModule', { value: true }),
);

/** What Handlebars prints unescaped (it reads `toHTML`), like its SafeString. */
class SafeText {
  constructor(readonly text: string) {}
  toHTML(): string {
    return this.text;
  }
  toString(): string {
    return this.text;
  }
}

interface Registry {
  registerHelper(name: string, fn: (...args: Value[]) => unknown): void;
}

/** Registers the service's helpers on `handlebars`. */
export function registerServiceHelpers(handlebars: Registry): void {
  handlebars.registerHelper('json', (context: Value) => JSON.stringify(context));
  // Translations are not previewed: a key renders as the service renders a key it has no translation for (the
  // block's text as the default value, else the key), unescaped as the service's SafeString is.
  handlebars.registerHelper('i18n', function (this: unknown, key: Value, options: HelperOptions) {
    const text = typeof options?.fn === 'function' ? options.fn(this) : String(key);
    return new SafeText(text);
  });
  handlebars.registerHelper('equals', function (this: unknown, a: Value, b: Value, options: HelperOptions) {
    // biome-ignore lint/suspicious/noDoubleEquals: the service compares loosely (`1 == '1'`).
    return a == b ? call(options, 'fn', this) : call(options, 'inverse', this);
  });
  handlebars.registerHelper('titlecase', (value: Value) =>
    method(value, 'split')
      ?.call(value, ' ')
      .map((word: string) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase())
      .join(' '),
  );
  handlebars.registerHelper('uppercase', (value: Value) => method(value, 'toUpperCase')?.call(value));
  handlebars.registerHelper('lowercase', (value: Value) => method(value, 'toLowerCase')?.call(value));
  handlebars.registerHelper('pluralize', (count: Value, single: Value, plural: Value) =>
    count === 1 ? single : plural,
  );
  handlebars.registerHelper('dateFormat', (date: Value, pattern: Value) => {
    if (date && pattern && !Number.isNaN(Date.parse(date))) return formatDate(new Date(date), pattern);
    return date;
  });
  handlebars.registerHelper('groupBy', (array: Value, property: Value) => {
    if (!Array.isArray(array)) return [];
    const order: Record<string, unknown[]> = {};
    for (const item of array) {
      const key = item[property];
      if (!key) continue;
      // Keys are object keys in the service: `1` and `'1'` share a group, integer-like keys sort first.
      const name = String(key);
      order[name] ??= [];
      order[name].push(item);
    }
    return Object.entries(order).map(([key, items]) => ({ key, items }));
  });
  handlebars.registerHelper('unique', (array: Value, property: Value) => {
    if (!Array.isArray(array)) return '';
    const values = array.map((item) => (item[property] ? item[property] : undefined));
    return values.filter((value, index) => values.indexOf(value) === index);
  });
  handlebars.registerHelper('sortBy', (array: Value, property: Value) => {
    if (!Array.isArray(array)) return '';
    if (!property) return array.sort();
    // In place, like the service: the payload's array stays sorted for the rest of the template.
    return array.sort((a, b) => {
      const x = a[property];
      const y = b[property];
      return x < y ? -1 : x > y ? 1 : 0;
    });
  });
  handlebars.registerHelper('numberFormat', (value: Value, options: Value) => numberFormat(value, options));
  const comparisons: Array<[string, (a: Value, b: Value) => boolean]> = [
    ['gt', (a, b) => a > b],
    ['gte', (a, b) => a >= b],
    ['lt', (a, b) => a < b],
    ['lte', (a, b) => a <= b],
    ['eq', (a, b) => a === b],
    ['ne', (a, b) => a !== b],
  ];
  for (const [name, compare] of comparisons) {
    handlebars.registerHelper(name, (a: Value, b: Value, options: HelperOptions) => {
      const condition = compare(a, b);
      const branch = condition ? read(options, 'fn') : read(options, 'inverse');
      return typeof branch === 'function' ? branch(COMPARISON_BLOCK_CONTEXT) : condition;
    });
  }
}

function numberFormat(value: Value, options: Value): string {
  if (Number.isNaN(value)) return value;
  const hash = read(options, 'hash');
  const decimalLength = read(hash, 'decimalLength') || 2;
  const thousandsSep = hash.thousandsSep || ',';
  const decimalSep = hash.decimalSep || '.';
  const number = Number.parseFloat(value);
  const pattern = `\\d(?=(\\d{3})+${decimalLength > 0 ? '\\D' : '$'})`;
  // biome-ignore lint/suspicious/noExplicitAny: `~~` coerces whatever the template passed, as the service does.
  const fixed = number.toFixed(Math.max(0, ~~(decimalLength as any)));
  return (decimalSep ? fixed.replace('.', decimalSep) : fixed).replace(
    new RegExp(pattern, 'g'),
    `$&${thousandsSep}`,
  );
}

/** `value.name` as a function, or undefined for null/undefined; a TypeError worded as the service's otherwise. */
function method(value: Value, name: string): ((...args: unknown[]) => Value) | undefined {
  if (value === null || value === undefined) return undefined;
  const fn = value[name];
  if (typeof fn !== 'function') throw new TypeError(`value?.${name} is not a function`);
  return fn;
}

/** `holder[key]`, failing as property access on undefined/null fails in V8. */
function read(holder: Value, key: string): Value {
  if (holder === null || holder === undefined) {
    throw new TypeError(`Cannot read properties of ${holder} (reading '${key}')`);
  }
  return holder[key];
}

function call(options: Value, key: 'fn' | 'inverse', context: unknown): unknown {
  const fn = read(options, key);
  if (typeof fn !== 'function') throw new TypeError(`options.${key} is not a function`);
  return fn(context);
}
