/**
 * Compiling and running a template as the service's CompileTemplate does: an isolated Handlebars environment with
 * the service's helpers, `compile(template)(data, {})`, then every `&#x27;` (Handlebars' escape for `'`) turned back
 * into `'`. Handlebars is loaded on first use (validate imports this layer, and most runs never render).
 *
 * Templates come from contributors' branches, so a render is bounded where the service's is not (RENDER_LIMITS):
 * `{{#each}}` iterations (nested, they multiply) and the characters they and the text-making helpers produce
 * (`{{json this}}` repeated). Past a limit the render throws, and the step shows that error.
 *
 * Handlebars never writes to the console from here: ours is the user's terminal, a CI log (where a line starting
 * with `::` is a command) or the stdout of `--format json`, and what it would write carries the template's text.
 * `{{log}}` prints nothing (the service logs to its own console, never into the message), and a read of a
 * prototype's property (`{{name.toUpperCase}}`, `{{lookup a "x"}}`) is denied as in the service but without
 * Handlebars' "Access has been denied to resolve the property" warning, which quotes the name from the template:
 * the service denies the same reads, and the value renders empty (a `render-empty` finding where a path says so).
 */
import { onFirstUse } from '../derive/first-use.js';
import { takeHandlebarsProgram } from '../derive/parse-template.js';
import { registerServiceHelpers } from './helpers.js';

type Handlebars = typeof import('handlebars');

const handlebars = onFirstUse<Handlebars>('handlebars');

/** What one template's render may spend: far above any real message, far below a hung CI job. */
export const RENDER_LIMITS = { iterations: 100_000, characters: 16 * 1024 * 1024 };

let instance: Handlebars | undefined;
const compiled = new Map<string, (data: unknown) => string>();
/** The running render's spending (renders are synchronous: one at a time). */
const spent = { iterations: 0, characters: 0 };

/** What Handlebars logs, from wfsync's environment: nothing is written anywhere. */
const silent = (): undefined => undefined;

/**
 * The runtime options of every render: prototype access stays denied (the service's default), said explicitly
 * because Handlebars logs each denied name to the console only when these are left undefined.
 */
function runtimeOptions(): { allowProtoPropertiesByDefault: false; allowProtoMethodsByDefault: false } {
  return { allowProtoPropertiesByDefault: false, allowProtoMethodsByDefault: false };
}

/**
 * wfsync's Handlebars environment: a private one (`create()`) with the service's helpers, metered, and silent.
 * Exported for the test that holds it silent.
 */
export function handlebarsEnvironment(): Handlebars {
  if (instance === undefined) {
    const created = handlebars().create();
    registerServiceHelpers(created);
    // The `log` helper calls the environment's `log`; `logger` is the module-wide object `create()` shares with
    // every environment, which the prototype-access check logs through whatever environment rendered: silenced
    // too, so that no path inside Handlebars reaches the console (wfsync is the only user of Handlebars here).
    created.log = silent;
    created.logger.log = silent;
    meterHelpers(created);
    instance = created;
  }
  return instance;
}

/**
 * `template` rendered with `data` as the service renders it. Throws what the service would throw.
 * The checks that run first (template-check.ts) parse the text with Handlebars' own parser (the service's
 * `parseWithoutProcessing`, before any whitespace pass); that program is compiled rather than parsing the same text a
 * second time: `compile(program)` applies the whitespace pass and compiles exactly as `compile(text)` does after its
 * own parse. Otherwise (a template fast-template.ts read, or one that fails to parse) the text is compiled.
 */
export function renderTemplate(template: string, data: unknown): string {
  let run = compiled.get(template);
  if (run === undefined) {
    // Compiled lazily by Handlebars itself: a syntax error surfaces at the first run, as in the service.
    const program = takeHandlebarsProgram(template) as Parameters<Handlebars['compile']>[0] | undefined;
    const template_ = handlebarsEnvironment().compile(program ?? template);
    run = (context: unknown) => template_(context, runtimeOptions());
    if (compiled.size >= 256) compiled.delete(compiled.keys().next().value as string);
    compiled.set(template, run);
  }
  spent.iterations = 0;
  spent.characters = 0;
  return run(data).replace(/&#x27;/g, "'");
}

interface BlockOptions {
  fn: (...args: unknown[]) => string;
}

/** The service's helpers that return text made from data: `json` (the whole context), `numberFormat` (a separator
 * per digit group), `dateFormat` (a pattern expands), and the case changes. */
const STRING_HELPERS = ['json', 'numberFormat', 'dateFormat', 'titlecase', 'uppercase', 'lowercase'];

/**
 * Where a render can grow past its template and its data: `each` (nested, iterations multiply; `{{#array}}` blocks
 * run through it too) and the helpers that make text (STRING_HELPERS, as often as the template calls them). Every
 * other block helper runs its block at most once, so these bound the whole render.
 */
function meterHelpers(env: Handlebars): void {
  const each = env.helpers.each as (this: unknown, context: unknown, options: BlockOptions) => string;
  env.registerHelper('each', function (this: unknown, context: unknown, options: BlockOptions) {
    if (options === undefined || typeof options.fn !== 'function') return each.call(this, context, options);
    const fn = options.fn;
    const metered = function (this: unknown, ...args: unknown[]): string {
      if (++spent.iterations > RENDER_LIMITS.iterations)
        throw new Error(
          `the template renders more than ${RENDER_LIMITS.iterations.toLocaleString('en-US')} block iterations (wfsync's limit for a preview)`,
        );
      return charge(fn.apply(this, args));
    };
    return each.call(this, context, { ...options, fn: metered });
  });
  for (const name of STRING_HELPERS) {
    const helper = env.helpers[name] as (this: unknown, ...args: unknown[]) => unknown;
    env.registerHelper(name, function (this: unknown, ...args: unknown[]) {
      return charge(helper.apply(this, args));
    });
  }
}

function charge<T>(value: T): T {
  if (typeof value === 'string') {
    spent.characters += value.length;
    if (spent.characters > RENDER_LIMITS.characters)
      throw new Error(
        `the template renders more than ${RENDER_LIMITS.characters.toLocaleString('en-US')} characters (wfsync's limit for a preview)`,
      );
  }
  return value;
}
