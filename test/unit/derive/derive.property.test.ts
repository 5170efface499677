import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  deriveTrigger,
  isSystemVariable,
  scanTemplateAsServer,
  textSourcesOfStep,
} from '../../../src/derive/index.js';
import { runs } from '../../helpers/fc-runs.js';
import { template, tidyWorkflowValue, workflowValue } from '../rules/workflow-arbitraries.js';
import * as reference from './reference/index.js';

/** Equal, and with every object's keys in the same order (reports and JSON output print them in that order). */
function same(actual: unknown, expected: unknown): void {
  expect(actual).toEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}

/** Handlebars-ish character soup: mostly not valid, sometimes surprisingly so. */
const soup = fc
  .array(
    fc.constantFrom(
      ...['{{', '}}', '{{#', '{{/', '{{^', '{{>', '{{{', '}}}', '(', ')', '=', '"', ' ', '.', '../', '@'],
      ...['each', 'with', 'if', 'unless', 'i18n', 'uppercase', 'else', 'this', 'a', 'b', '1', 'x.y', '\n'],
    ),
    { maxLength: 14 },
  )
  .map((parts) => parts.join(''));

/** Anything where derive expects a step: garbage at every level. */
const looseStep = fc.oneof(
  fc.anything(),
  fc.record({
    template: fc.oneof(
      fc.anything(),
      fc.record({
        type: fc.constantFrom('in_app', 'email', 'sms', 'push', 'chat', 'digest', 7),
        content: fc.oneof(
          template,
          fc.array(fc.oneof(fc.anything(), fc.record({ url: template, content: template }))),
        ),
        subject: fc.oneof(template, fc.anything()),
        title: template,
        cta: fc.anything(),
      }),
    ),
    filters: fc.anything(),
    metadata: fc.oneof(
      fc.anything(),
      fc.record({
        type: fc.constantFrom('scheduled', 'regular'),
        delayPath: fc.anything(),
        digestKey: fc.anything(),
      }),
    ),
  }),
);

describe('derive gives what it gave before the allocation work (differential, property-based)', () => {
  it('scanTemplateAsServer on generated templates and character soup', () => {
    let extracted = 0;
    fc.assert(
      fc.property(fc.oneof(template, soup), (source) => {
        const scan = scanTemplateAsServer(source);
        same(scan, reference.scanTemplateAsServer(source));
        if (scan.usages.length > 0) extracted++;
      }),
      { numRuns: runs(3000) },
    );
    expect(extracted).toBeGreaterThan(runs(3000) / 5); // about 35% in practice
  });

  it('deriveTrigger, both readings, on generated workflows', () => {
    fc.assert(
      fc.property(
        fc.oneof(workflowValue, tidyWorkflowValue),
        fc.constantFrom('server', 'handlebars') as fc.Arbitrary<'server' | 'handlebars'>,
        (workflow, extraction) => {
          same(deriveTrigger(workflow, { extraction }), reference.deriveTrigger(workflow, { extraction }));
        },
      ),
      { numRuns: runs(1500) },
    );
  });

  it('deriveTrigger and textSourcesOfStep on garbage', () => {
    fc.assert(
      fc.property(
        fc.record({
          name: fc.anything(),
          steps: fc.oneof(fc.anything(), fc.array(looseStep, { maxLength: 3 })),
        }),
        (body) => {
          for (const extraction of ['server', 'handlebars'] as const) {
            same(deriveTrigger(body, { extraction }), reference.deriveTrigger(body, { extraction }));
          }
          for (const step of Array.isArray(body.steps) ? body.steps : [body.steps]) {
            same(textSourcesOfStep(step), reference.textSourcesOfStep(step));
          }
        },
      ),
      { numRuns: runs(1500) },
    );
  });

  it('isSystemVariable on names built from prefixes, dots and near misses', () => {
    const part = fc.constantFrom(
      'subscriber',
      'step',
      'tenant',
      'actor',
      'preheader',
      'branding',
      'tenan',
      'x',
      '',
      '.',
    );
    fc.assert(
      fc.property(fc.array(part, { maxLength: 4 }), (parts) => {
        const name = parts.join('');
        expect(isSystemVariable(name)).toBe(reference.isSystemVariable(name));
      }),
      { numRuns: runs(2000) },
    );
  });
});
