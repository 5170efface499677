import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanTemplate } from '../../../src/derive/handlebars.js';
import { isSystemVariable } from '../../../src/derive/names.js';
import { scanTemplateAsServer } from '../../../src/derive/server-scan.js';
import { slugifyV1, slugifyV2 } from '../../../src/derive/slug.js';
import { deriveTrigger, textSourcesOfStep } from '../../../src/derive/trigger.js';
import type { TemplateScan } from '../../../src/derive/types.js';
import { runs } from '../../helpers/fc-runs.js';

// Handlebars built from a small grammar (helpers, blocks, block params, else, literals, sub-expressions, hashes),
// then sometimes cut at a random place, so both the walkers and the error paths get exercised.
// biome-ignore format: a table of names
const name = fc.constantFrom(
  'x', 'a.b', 'this.y', './w', '../z', '../../q', '@index', '@root.r', 'this', 'items', '[a b]', 'constructor',
  '__proto__', 'tenant.t', 'actor.a', 'subscriber.s', 'preheader', 'é',
);
const argument = fc.oneof(
  name,
  fc.constantFrom('"s"', '5', 'true', 'null', 'undefined'),
  name.map((n) => `(uppercase ${n})`),
  name.map((n) => `key=${n}`),
);
const helper = fc.oneof(name, fc.constantFrom('uppercase', 'i18n', 'equals', 'lookup', 'custom'));
const mustache = fc
  .tuple(helper, fc.array(argument, { maxLength: 3 }), fc.boolean())
  .map(([head, args, triple]) =>
    triple ? `{{{${[head, ...args].join(' ')}}}}` : `{{${[head, ...args].join(' ')}}}`,
  );
const { body } = fc.letrec<{ node: string; block: string; body: string }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom('text ', '\n', '\r\n', '{{! c }}'),
    mustache,
    tie('block'),
  ),
  block: fc
    .tuple(
      fc.constantFrom('each', 'if', 'unless', 'with', 'custom', 'items'),
      fc.array(argument, { maxLength: 2 }),
      fc.constantFrom('', ' as |it i|'),
      tie('body'),
      fc.option(tie('body')),
      fc.constantFrom('#', '^'),
    )
    .map(([head, args, params, inner, inverse, open]) =>
      [
        `{{${open}${[head, ...args].join(' ')}${params}}}`,
        inner,
        inverse === null ? '' : `{{else}}${inverse}`,
        `{{/${head}}}`,
      ].join(''),
    ),
  body: fc.array(tie('node'), { maxLength: 4 }).map((nodes) => nodes.join('')),
}));
const template = fc.oneof(
  body,
  fc.tuple(body, fc.nat()).map(([source, cut]) => source.slice(0, cut % (source.length + 1))),
  fc.string(),
);
const text = fc.oneof(template, fc.string(), fc.anything());

const block = fc.oneof(
  fc.record({ type: fc.constantFrom('text', 'button'), content: text, url: text }),
  fc.anything(),
);
const templateObject = fc.record(
  {
    type: fc.oneof(
      fc.constantFrom('in_app', 'email', 'sms', 'chat', 'push', 'digest', 'delay', 'custom'),
      fc.anything(),
    ),
    content: fc.oneof(text, fc.array(block, { maxLength: 4 })),
    subject: text,
    title: text,
    cta: fc.oneof(fc.record({ data: fc.record({ url: text }) }), fc.anything()),
  },
  { requiredKeys: [] },
);
const filterPart = fc.oneof(
  fc.record({
    on: fc.constantFrom('payload', 'subscriber', 'tenant'),
    field: fc.oneof(fc.string(), fc.anything()),
  }),
  fc.anything(),
);
const stepObject = fc.record(
  {
    template: fc.oneof(templateObject, fc.anything()),
    filters: fc.oneof(
      fc.array(fc.record({ children: fc.oneof(fc.array(filterPart), fc.anything()) })),
      fc.anything(),
    ),
    metadata: fc.oneof(
      fc.record({ type: fc.constantFrom('scheduled', 'regular'), delayPath: text, digestKey: text }),
      fc.anything(),
    ),
  },
  { requiredKeys: [] },
);
const workflow = fc.oneof(
  fc.record({
    name: fc.oneof(fc.string(), fc.anything()),
    steps: fc.oneof(fc.array(fc.oneof(stepObject, fc.anything())), fc.anything()),
  }),
  fc.anything(),
);

function expectWellFormed(scan: TemplateScan, source: string): void {
  if (scan.error) {
    expect(scan.usages).toEqual([]);
    expect(scan.error.message).not.toContain('\n');
    expect(scan.error.offset).toBeGreaterThanOrEqual(0);
    expect(scan.error.offset).toBeLessThanOrEqual(source.length);
  }
  for (const usage of scan.usages) {
    expect(usage.name).not.toBe('');
    expect(usage.offset).toBeGreaterThanOrEqual(0);
    expect(usage.offset).toBeLessThan(source.length);
  }
}

describe('derive never throws and stays well-formed', () => {
  it('scanTemplate and scanTemplateAsServer on any string', () => {
    fc.assert(
      fc.property(template, (source) => {
        const scan = scanTemplate(source);
        // The Handlebars reading resolves this, ./, ../ and @root away.
        for (const usage of scan.usages)
          expect(usage.name).not.toMatch(/^(?:\.|@)|(?:^|\.)(?:this|\.\.)(?:\.|$)/);
        const server = scanTemplateAsServer(source);
        expectWellFormed(scan, source);
        expectWellFormed(server, source);
        // Both parse with the same parser: a template Handlebars rejects fails the same way in both.
        if (scan.error) expect(server.error).toEqual(scan.error);
      }),
      { numRuns: runs(2000) },
    );
  });

  it('slugs of any string are lower-case ASCII words joined by single dashes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (name) => {
        for (const slug of [slugifyV1(name), slugifyV2(name)])
          expect(slug).toMatch(/^(?:[a-z0-9]+(?:-[a-z0-9]+)*)?$/);
      }),
      { numRuns: runs(1000) },
    );
  });

  it('textSourcesOfStep and deriveTrigger (both readings) on anything', () => {
    fc.assert(
      fc.property(workflow, stepObject, (body, oneStep) => {
        for (const source of textSourcesOfStep(oneStep)) expect(typeof source.text).toBe('string');
        for (const extraction of ['handlebars', 'server'] as const) {
          const trigger = deriveTrigger(body as never, { extraction });
          const names = trigger.variables.map((v) => v.name);
          expect(new Set(names).size).toBe(names.length);
          expect(names.filter(isSystemVariable)).toEqual([]);
          for (const v of trigger.variables) expect(v.pointer).toMatch(/^\/steps\/\d+\//);
          expect(trigger.reservedVariables.length).toBeLessThanOrEqual(2);
        }
      }),
      { numRuns: runs(1000) },
    );
  });
});
