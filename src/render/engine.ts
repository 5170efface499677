/**
 * Compiling and running a template as the service's CompileTemplate does: an isolated Handlebars environment with
 * the service's helpers, `compile(template)(data, {})`, then every `&#x27;` (Handlebars' escape for `'`) turned back
 * into `'`. Handlebars is loaded on first use (validate imports this layer, and most runs never render).
 */
import { onFirstUse } from '../derive/first-use.js';
import { takeHandlebarsProgram } from '../derive/parse-template.js';
import { registerServiceHelpers } from './helpers.js';

type Handlebars = typeof import('handlebars');

const handlebars = onFirstUse<Handlebars>('handlebars');

let instance: Handlebars | undefined;
const compiled = new Map<string, (data: unknown) => string>();

function engine(): Handlebars {
  if (instance === undefined) {
    instance = handlebars().create();
    registerServiceHelpers(instance);
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
    const template_ = engine().compile(program ?? template);
    run = (context: unknown) => template_(context, {});
    if (compiled.size >= 256) compiled.delete(compiled.keys().next().value as string);
    compiled.set(template, run);
  }
  return run(data).replace(/&#x27;/g, "'");
}
