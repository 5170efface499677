/**
 * Compiling and running a template as the service's CompileTemplate does: an isolated Handlebars environment with
 * the service's helpers, `compile(template)(data, {})`, then every `&#x27;` (Handlebars' escape for `'`) turned back
 * into `'`. Handlebars is loaded on first use (validate imports this layer, and most runs never render).
 */
import { onFirstUse } from '../derive/first-use.js';
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

/** `template` rendered with `data` as the service renders it. Throws what the service would throw. */
export function renderTemplate(template: string, data: unknown): string {
  let run = compiled.get(template);
  if (run === undefined) {
    // Compiled lazily by Handlebars itself: a syntax error surfaces at the first run, as in the service.
    const template_ = engine().compile(template);
    run = (context: unknown) => template_(context, {});
    if (compiled.size >= 256) compiled.delete(compiled.keys().next().value as string);
    compiled.set(template, run);
  }
  return run(data).replace(/&#x27;/g, "'");
}
