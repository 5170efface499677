import fc from 'fast-check';
import { parseWithoutProcessing } from 'handlebars/dist/cjs/handlebars/compiler/base.js';
import { describe, expect, it } from 'vitest';
import { scanTemplate } from '../../../src/derive/handlebars.js';
import { isSystemVariable, SYSTEM_VARIABLE_PREFIXES } from '../../../src/derive/names.js';
import { scanTemplateAsServer } from '../../../src/derive/server-scan.js';
import { slugifyV1, slugifyV2 } from '../../../src/derive/slug.js';
import { deriveTrigger, textSourcesOfStep } from '../../../src/derive/trigger.js';
import type { DerivedTrigger, TemplateScan } from '../../../src/derive/types.js';
import { splitPointer } from '../../../src/diagnostic.js';
import { runs } from '../../helpers/fc-runs.js';
import {
  template,
  tidyTemplate,
  tidyWorkflowValue,
  workflowValue,
} from '../../helpers/workflow-arbitraries.js';

// What derive must do whatever the input, stated directly, and held against Handlebars' own parser where the
// service's reading builds on it. (These replace the frozen copy of the older derive the code was once compared with;
// the exact readings are pinned by the tables in server-scan-table, trigger-table and handlebars-table.)

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

function handlebarsParses(source: string): boolean {
  try {
    parseWithoutProcessing(source);
    return true;
  } catch {
    return false;
  }
}

/** What holds of every scan, whichever reading. */
function wellFormedScan(scan: TemplateScan, source: string): void {
  if (scan.error) {
    expect(scan.usages).toEqual([]);
    expect(scan.error.offset).toBeGreaterThanOrEqual(0);
    expect(scan.error.offset).toBeLessThanOrEqual(source.length);
  }
  for (const usage of scan.usages) {
    expect(['String', 'Array', 'Boolean']).toContain(usage.type);
    expect(usage.offset).toBeGreaterThanOrEqual(0);
    expect(usage.offset).toBeLessThan(source.length);
  }
}

/** The node a JSON pointer names in `value` (undefined when none). */
function at(value: unknown, pointer: string): unknown {
  let node = value;
  for (const segment of splitPointer(pointer)) {
    node = typeof node === 'object' && node !== null ? (node as Record<string, unknown>)[segment] : undefined;
  }
  return node;
}

const names = (scan: TemplateScan) => scan.usages.map((u) => `${u.name}:${u.type}`);
const READINGS = ['server', 'handlebars'] as const;

describe('scanning templates (property-based)', () => {
  it('both readings: well formed; an error wherever Handlebars itself rejects the template', () => {
    let extracted = 0;
    fc.assert(
      fc.property(fc.oneof(template, soup), (source) => {
        const server = scanTemplateAsServer(source);
        const handlebars = scanTemplate(source);
        wellFormedScan(server, source);
        wellFormedScan(handlebars, source);
        if (!handlebarsParses(source)) {
          expect(server.error).toBeDefined();
          expect(handlebars.error).toBeDefined();
        }
        // The service's names start with a letter or `_`; it never reads a name Handlebars cannot parse.
        for (const usage of server.usages) expect(usage.name).toMatch(/^[A-Za-z_]/);
        if (server.usages.length > 0) extracted++;
      }),
      { numRuns: runs(3000) },
    );
    expect(extracted).toBeGreaterThan(runs(3000) / 5); // about 35% in practice
  });

  it('renaming a variable everywhere renames it in the usages and changes nothing else', () => {
    fc.assert(
      fc.property(template, (source) => {
        const renamed = source.replaceAll('perk', 'bonus');
        for (const scan of [scanTemplateAsServer, scanTemplate]) {
          const before = scan(source);
          const after = scan(renamed);
          expect(names(after)).toEqual(names(before).map((n) => n.replaceAll('perk', 'bonus')));
          expect(after.error?.message).toEqual(before.error?.message);
        }
      }),
      { numRuns: runs(1000) },
    );
  });

  it('two templates one after the other: the usages of both, none lost, none added', () => {
    fc.assert(
      fc.property(tidyTemplate, tidyTemplate, (a, b) => {
        for (const scan of [scanTemplateAsServer, scanTemplate]) {
          const [first, second, both] = [scan(a), scan(b), scan(a + b)];
          if (first.error || second.error) continue;
          expect(both.error).toBeUndefined();
          expect(names(both).sort()).toEqual([...names(first), ...names(second)].sort());
        }
      }),
      { numRuns: runs(1000) },
    );
  });
});

/** What holds of every derived trigger. */
function wellFormedTrigger(
  trigger: DerivedTrigger,
  workflow: Record<string, unknown>,
  server: boolean,
): void {
  const name = typeof workflow.name === 'string' ? workflow.name : '';
  expect(trigger.identifierV1).toBe(slugifyV1(name));
  expect(trigger.identifierV2).toBe(slugifyV2(name));
  const variableNames = trigger.variables.map((v) => v.name);
  expect(new Set(variableNames).size).toBe(variableNames.length);
  const steps = Array.isArray(workflow.steps) ? (workflow.steps as unknown[]) : [];
  // Every variable comes from the place it points at: a template there uses it, or a setting there is it.
  for (const variable of trigger.variables) {
    expect(isSystemVariable(variable.name)).toBe(false);
    const there = at(workflow, variable.pointer);
    expect(typeof there).toBe('string');
    if (variable.pointer.includes('/template/')) {
      const scan = server ? scanTemplateAsServer(there as string) : scanTemplate(there as string);
      expect(scan.usages.map((u) => u.name)).toContain(variable.name);
    } else {
      expect(there).toBe(variable.name);
    }
  }
  // And every name a step's templates use, not the service's own, is on the trigger.
  const uses: string[] = [];
  steps.forEach((step, i) => {
    for (const source of textSourcesOfStep(step)) {
      const scan = server ? scanTemplateAsServer(source.text) : scanTemplate(source.text);
      if (scan.error)
        expect(trigger.errors).toContainEqual({ pointer: `/steps/${i}${source.pointer}`, ...scan.error });
      for (const usage of scan.usages) uses.push(usage.name);
    }
  });
  for (const use of uses) if (!isSystemVariable(use)) expect(variableNames).toContain(use);
  const reserved = ['tenant', 'actor'].filter((prefix) =>
    uses.some((u) => u === prefix || u.startsWith(`${prefix}.`)),
  );
  expect(trigger.reservedVariables.map((r) => r.type).sort()).toEqual(reserved.sort());
  const types = steps.map((step) => (at(step, '/template/type') as unknown) ?? null);
  expect(trigger.subscriberVariables).toEqual([
    ...(types.includes('sms') ? [{ name: 'phone' }] : []),
    ...(types.includes('email') ? [{ name: 'email' }] : []),
  ]);
}

describe('deriving the trigger (property-based)', () => {
  it('both readings on generated workflows: every variable from where it points, every use on the trigger', () => {
    fc.assert(
      fc.property(
        fc.oneof(workflowValue, tidyWorkflowValue),
        fc.constantFrom(...READINGS),
        (workflow, extraction) => {
          wellFormedTrigger(deriveTrigger(workflow, { extraction }), workflow, extraction === 'server');
        },
      ),
      { numRuns: runs(1000) },
    );
  });

  it('an unrelated step, or a variant of any step, changes nothing', () => {
    const plain = { name: 'plain', template: { type: 'in_app', content: 'Hi' } };
    fc.assert(
      fc.property(workflowValue, fc.constantFrom(...READINGS), fc.nat(), (workflow, extraction, n) => {
        const before = deriveTrigger(workflow, { extraction });
        const steps = workflow.steps as Array<Record<string, unknown>>;
        expect(deriveTrigger({ ...workflow, steps: [...steps, plain] }, { extraction })).toEqual(before);
        // The service reads only the top-level steps: a variant's variables are not on the trigger.
        const k = n % steps.length;
        const variant = { ...plain, template: { type: 'sms', content: '{{fromVariant}} {{tenant.x}}' } };
        const withVariant = steps.map((s, i) => (i === k ? { ...s, variants: [variant] } : s));
        expect(deriveTrigger({ ...workflow, steps: withVariant }, { extraction })).toEqual(before);
      }),
      { numRuns: runs(500) },
    );
  });

  it('deriveTrigger and textSourcesOfStep on garbage: never throw, and every text source is where it points', () => {
    fc.assert(
      fc.property(
        fc.record({
          name: fc.anything(),
          steps: fc.oneof(fc.anything(), fc.array(looseStep, { maxLength: 3 })),
        }),
        (body) => {
          for (const extraction of READINGS) {
            wellFormedTrigger(deriveTrigger(body, { extraction }), body, extraction === 'server');
          }
          for (const step of Array.isArray(body.steps) ? body.steps : [body.steps]) {
            for (const source of textSourcesOfStep(step)) {
              expect(source.text).not.toBe('');
              expect(at(step, source.pointer)).toBe(source.text);
            }
          }
        },
      ),
      { numRuns: runs(1000) },
    );
  });

  it('isSystemVariable: the first dotted segment alone decides', () => {
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
        const first = name.split('.')[0] as string;
        expect(isSystemVariable(name)).toBe((SYSTEM_VARIABLE_PREFIXES as readonly string[]).includes(first));
      }),
      { numRuns: runs(2000) },
    );
  });
});
