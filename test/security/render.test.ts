/**
 * A hostile template on a contributor's branch, rendered by `plan` (the before/after in the PR comment), `preview`
 * and the local page: it must not print anything itself, reach our code, or hold the run for ever.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WorkflowDefinition } from '../../src/generated/workflow.js';
import { renderTemplate } from '../../src/render/engine.js';
import { renderWorkflow, sampleData } from '../../src/render/index.js';
import { htmlToText } from '../../src/report/preview/html-text.js';

afterEach(() => {
  vi.restoreAllMocks();
});

function smsWorkflow(content: string): WorkflowDefinition {
  return {
    name: 'Hostile',
    steps: [{ name: 'text', template: { type: 'sms', content } }],
  } as unknown as WorkflowDefinition;
}

describe('a hostile template', () => {
  it('cannot write to the console with {{log}} (it would bypass the output channels and corrupt --format json)', () => {
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((method) =>
      vi.spyOn(console, method).mockImplementation(() => undefined),
    );
    const out = renderTemplate(
      '{{log "::error::forged\\u001b]0;title\\u0007"}}{{log "x" level="error"}}{{log "y" level="debug"}}ok',
      {},
    );
    expect(out).toBe('ok');
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });

  it('cannot reach constructors or prototypes (the service denies prototype access too), and nothing is printed', () => {
    const spies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((method) =>
      vi.spyOn(console, method).mockImplementation(() => undefined),
    );
    const data = { a: { b: 1 }, list: [1] };
    for (const template of [
      '{{a.constructor}}',
      '{{a.__proto__}}',
      '{{lookup a "constructor"}}',
      '{{#with a.constructor}}{{name}}{{/with}}',
      '{{#with (lookup a "constructor")}}{{#with (lookup this "constructor")}}{{this}}{{/with}}{{/with}}',
      '{{list.constructor.name}}',
      '{{a.__defineGetter__}}',
    ]) {
      expect(renderTemplate(template, data), template).toBe('');
    }
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });

  it('nested {{#each}} over the sample arrays fails the step instead of running for ever', () => {
    // 2 sample elements per array, 40 levels: 2^40 iterations unbounded.
    const depth = 40;
    const open = Array.from({ length: depth }, (_, i) => `{{#each ${i === 0 ? 'items' : '@root.items'}}}`);
    const template = `${open.join('')}x${'{{/each}}'.repeat(depth)}`;
    const workflow = smsWorkflow(template);
    const rendered = renderWorkflow(workflow, sampleData(workflow));
    const step = rendered.steps[0];
    expect(step?.content).toBeUndefined();
    expect(step?.error).toMatch(/more than [\d,]+ block iterations/);
    expect(rendered.findings.some((f) => f.code === 'render-failed')).toBe(true);
  });

  it('mustache-style array blocks ({{#items}}) are bounded the same way', () => {
    const depth = 40;
    const template = `${'{{#@root.items}}'.repeat(depth)}x${'{{/@root.items}}'.repeat(depth)}`;
    expect(() => renderTemplate(template, { items: [1, 2] })).toThrow(/more than [\d,]+ block iterations/);
  });

  it('a helper repeated over a large context stops at the output limit instead of exhausting memory', () => {
    const big = 'a'.repeat(1024 * 1024);
    const template = '{{json this}}'.repeat(64);
    expect(() => renderTemplate(template, { big })).toThrow(/more than [\d,]+ characters/);
  });

  it('an ordinary template renders as before after a refused one', () => {
    expect(() => renderTemplate('{{json this}}'.repeat(64), { big: 'a'.repeat(1024 * 1024) })).toThrow();
    expect(renderTemplate('{{#each items}}{{this}},{{/each}}', { items: [1, 2, 3] })).toBe('1,2,3,');
    expect(renderTemplate('{{#items}}[{{this}}]{{/items}}', { items: ['a', 'b'] })).toBe('[a][b]');
  });
});

describe('a hostile email read as text (the plan comment, preview human)', () => {
  // Each case took time quadratic in its length (a tag or element that never closes was scanned to the end once per
  // opening): 120 KB of `<a ` took 8 s, these would take hours. The test timeout is the guard, not a measurement.
  it.each([
    ['tags that never close', '<a '.repeat(400_000)],
    ['elements that never close', '<style>'.repeat(200_000)],
    ['openings without any `>`', '<style '.repeat(200_000)],
    ['a doctype that never closes', '<!doctype '.repeat(150_000)],
  ])('%s: read in one pass', (_, html) => {
    expect(htmlToText(`${html}done`).endsWith('done')).toBe(true);
  });

  it('reads as before: dropped elements, tags and an unclosed element kept as text', () => {
    expect(htmlToText('<STYLE a>x</style >Hi <b>there</b><script>1</SCRIPT><p>p</p><title>t')).toBe(
      'Hi there\n\np\n\nt',
    );
    expect(htmlToText('a <x <y> b')).toBe('a b');
  });
});

describe('helpers that make text from data', () => {
  it('numberFormat with a huge separator from the data is held to the same output limit', () => {
    // 21 digits, 6 separators of 1 MiB each: 6 MiB a call.
    const sep = 's'.repeat(1024 * 1024);
    expect(() => renderTemplate('{{numberFormat n thousandsSep=sep}}'.repeat(3), { n: 1e20, sep })).toThrow(
      /more than [\d,]+ characters/,
    );
  });

  it('dateFormat with a huge pattern from the data is held to the same output limit', () => {
    // `PPPP ` is the long date and a space (27 characters): 1 MB of pattern makes 5.4 MB of text a call.
    const p = 'PPPP '.repeat(200_000);
    expect(() =>
      renderTemplate('{{dateFormat d p}}'.repeat(4), { d: '2024-03-14T09:26:53.000Z', p }),
    ).toThrow(/more than [\d,]+ characters/);
  });
});
