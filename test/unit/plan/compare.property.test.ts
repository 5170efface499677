import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDefinition } from '../../../src/definitions/parse.js';
import { slugifyV1 } from '../../../src/derive/slug.js';
import type { WorkflowDefinition, WorkflowStep } from '../../../src/generated/workflow.js';
import { compareWorkflow } from '../../../src/plan/compare.js';
import { buildDefinitionFromRemote, buildDefinitionYaml } from '../../../src/pull/convert.js';
import { validateDefinitionSchema } from '../../../src/validate/schema.js';
import { runs } from '../../helpers/fc-runs.js';
import { desiredOf, GROUPS, storedFor } from './helpers.js';

/**
 * Random valid definitions, stored the way the emulator stores them: "sync then plan shows nothing to do" and
 * "pull then plan shows nothing to do" must hold for all of them, not just the examples.
 */

const text = fc.constantFrom(
  'Hello {{name}}',
  'Order {{order.id}} for {{customer}}',
  '{{#each items}}{{title}} {{/each}}',
  '{{#if vip}}VIP{{/if}} {{subscriber.firstName}}',
  'Plain text',
  'Line one\nLine two {{x}}\n',
);
const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

const filter = fc.record({
  isNegated: maybe(fc.boolean()),
  type: maybe(fc.constant('GROUP' as const)),
  value: fc.constantFrom('AND' as const, 'OR' as const),
  children: fc.array(
    fc.oneof(
      fc.record({
        on: fc.constant('payload' as const),
        field: fc.constantFrom('level', 'plan'),
        operator: fc.constantFrom('EQUAL' as const, 'NOT_EQUAL' as const),
        value: fc.constantFrom('a', 'b'),
      }),
      fc.record({ on: fc.constant('isOnline' as const), value: fc.boolean() }),
    ),
    { minLength: 1, maxLength: 2 },
  ),
});

const template = fc.oneof(
  fc.record({
    type: fc.constant('in_app' as const),
    content: text,
    cta: maybe(fc.record({ type: fc.constant('redirect' as const), data: fc.record({ url: text }) })),
  }),
  fc.record({ type: fc.constantFrom('sms' as const, 'chat' as const), content: text }),
  fc.record({ type: fc.constant('push' as const), title: text, content: text }),
  fc.record({
    type: fc.constant('email' as const),
    contentType: fc.constant('customHtml' as const),
    subject: text,
    content: text,
  }),
  fc.record({
    type: fc.constant('email' as const),
    contentType: fc.constant('editor' as const),
    subject: text,
    content: fc.array(fc.record({ type: fc.constant('text' as const), content: text }), {
      minLength: 1,
      maxLength: 2,
    }),
  }),
);

const withVariables = template.chain((t) =>
  fc
    .option(
      fc.uniqueArray(
        fc.record({
          name: fc.constantFrom('name', 'customer', 'items', 'vip'),
          type: maybe(fc.constantFrom('String' as const, 'Array' as const, 'Boolean' as const)),
          required: maybe(fc.boolean()),
        }),
        { selector: (v) => v.name, maxLength: 3 },
      ),
      { nil: undefined },
    )
    .map((variables) => (variables === undefined ? t : { ...t, variables })),
);

const messageStep = fc.record(
  {
    name: text.map((t) => t.replace(/[{}\n]/g, '')),
    active: fc.boolean(),
    shouldStopOnFail: fc.boolean(),
    template: withVariables,
    filters: fc.array(filter, { maxLength: 2 }),
  },
  { requiredKeys: ['template'] },
);

const actionStep = fc.oneof(
  fc.record({
    template: fc.constant({ type: 'delay' as const }),
    metadata: fc.record({
      type: fc.constant('regular' as const),
      amount: fc.nat(30),
      unit: fc.constant('hours' as const),
    }),
  }),
  fc.record({
    template: fc.constant({ type: 'digest' as const }),
    metadata: fc.record({
      type: fc.constant('timed' as const),
      amount: fc.constant(1),
      unit: fc.constant('weeks' as const),
      digestKey: maybe(fc.constant('projectId')),
      timed: fc.record(
        { atTime: fc.constant('09:00'), weekDays: fc.constant(['monday' as const]) },
        { requiredKeys: [] },
      ),
    }),
  }),
);

const definitionArb: fc.Arbitrary<WorkflowDefinition> = fc
  .record(
    {
      name: fc.array(fc.constantFrom('order', 'shipped', 'daily', 'report', 'alert'), {
        minLength: 1,
        maxLength: 3,
      }),
      description: text,
      tags: fc.uniqueArray(fc.constantFrom('a', 'b', 'c'), { maxLength: 2 }),
      active: fc.boolean(),
      critical: fc.boolean(),
      preferenceSettings: fc.record(
        { email: fc.boolean(), sms: fc.boolean(), push: fc.boolean() },
        { requiredKeys: [] },
      ),
      notificationGroupId: fc.constantFrom('group:transactional', 'cccccccccccccccccccccccc'),
      data: fc.dictionary(
        fc.constantFrom('team', 'level'),
        fc.oneof(fc.string(), fc.integer(), fc.boolean()),
      ),
      steps: fc.array(fc.oneof(messageStep, actionStep), { minLength: 1, maxLength: 4 }),
    },
    { requiredKeys: ['name', 'steps'] },
  )
  .map(({ name, ...rest }) => {
    const joined = name.join(' ');
    return {
      name: joined,
      ...rest,
      steps: rest.steps as [WorkflowStep, ...WorkflowStep[]],
      triggers: [{ type: 'event' as const, identifier: slugifyV1(joined) }],
    } as WorkflowDefinition;
  });

describe('compareWorkflow on generated definitions', () => {
  it('a workflow as the service stores it from the body has no changes', () => {
    fc.assert(
      fc.property(definitionArb, (def) => {
        const desired = desiredOf(def);
        expect(compareWorkflow(desired, storedFor(desired.body))).toEqual({ changes: [], diff: '' });
      }),
      { numRuns: runs(300) },
    );
  });

  it('pull gives a file that compares equal, and pulling its re-creation gives the same file', () => {
    fc.assert(
      fc.property(definitionArb, (def) => {
        const stored = storedFor(desiredOf(def).body);
        const pulled = buildDefinitionFromRemote(stored, { groups: GROUPS });
        const read = parseDefinition(
          'workflows/pulled.yaml',
          new TextEncoder().encode(buildDefinitionYaml(pulled)),
        );
        expect(read.diagnostics).toEqual([]);
        expect(read.definition?.value).toEqual(pulled);
        expect(validateDefinitionSchema(read.definition!)).toEqual([]);
        const adopted = desiredOf(pulled);
        expect(compareWorkflow(adopted, stored).changes).toEqual([]);
        expect(buildDefinitionFromRemote(storedFor(adopted.body), { groups: GROUPS })).toEqual(pulled);
      }),
      { numRuns: runs(200) },
    );
  });

  it('any one changed stored field is found', () => {
    fc.assert(
      fc.property(definitionArb, fc.nat(), (def, pick) => {
        const desired = desiredOf(def);
        const stored = storedFor(desired.body);
        const step = stored.steps[pick % stored.steps.length]!;
        const index = stored.steps.indexOf(step);
        step.template!.type = step.template!.type === 'sms' ? 'chat' : 'sms';
        const { changes, diff } = compareWorkflow(desired, stored);
        expect(changes).toContainEqual(
          expect.objectContaining({ pointer: `/steps/${index}/template/type`, kind: 'changed' }),
        );
        expect(diff).toContain(`+++ ${desired.file}`);
      }),
      { numRuns: runs(100) },
    );
  });
});
