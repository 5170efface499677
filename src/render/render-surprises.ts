/**
 * What the service renders that a template's author rarely means, found in a rendered step (render-workflow.ts): a
 * payload field its own context hides, and `NaN` from `numberFormat`. Each is a `render-surprise` warning.
 */
import { scanTemplate } from '../derive/handlebars.js';
import type { RenderFinding } from './types.js';

/**
 * Each read of a payload field that the service's own context hides (`keys`, from context.ts contextKeys): the
 * service renders its own value there, never the payload's.
 */
export function hiddenPayloadReads(
  source: string,
  pointer: string,
  keys: ReadonlySet<string>,
): RenderFinding[] {
  if (keys.size === 0) return [];
  const found: RenderFinding[] = [];
  for (const usage of scanTemplate(source).usages) {
    const first = usage.name.split('.')[0] as string;
    if (!keys.has(first)) continue;
    found.push({
      code: 'render-surprise',
      severity: 'warning',
      message: `\`${usage.name}\` reads the service's own \`${first}\`, not the payload's: the service puts \`${first}\` over the payload's field of that name, so the payload's value never renders here (rename the payload field)`,
      pointer,
      start: usage.offset,
      end: usage.offset + usage.name.length,
    });
  }
  return found;
}

/**
 * Where `numberFormat` printed `NaN`: the service's helper gives `NaN` for a value that is not a number (missing,
 * empty, `null`, a boolean, letters), as wfsync renders it (compile-template.usecase.ts, `parseFloat(number)`).
 */
export function notANumber(rendered: string, source: string, pointer: string): RenderFinding | undefined {
  if (!rendered.includes('NaN') || source.includes('NaN')) return undefined;
  const start = source.indexOf('numberFormat');
  if (start === -1) return undefined;
  return {
    code: 'render-surprise',
    severity: 'warning',
    message:
      'the text contains `NaN`: `numberFormat` prints `NaN` for a value that is not a number (missing, empty, `null`, a boolean, letters); a numeric string keeps its leading number (`"12px"` → `12.00`)',
    pointer,
    start,
    end: start + 'numberFormat'.length,
  };
}
