import { describe, expect, it } from 'vitest';
import { deriveTrigger } from '../../../src/derive/trigger.js';
import type { WorkflowResponse } from '../../../src/generated/workflow-response.js';
import { compareWorkflow } from '../../../src/plan/compare.js';
import type { FieldChange } from '../../../src/plan/types.js';
import { clone, definition, desiredOf, storedFor } from './helpers.js';

/**
 * Trigger variables and subscriber variables are sets: order never counts, but every member does. Equal counts
 * must not pass for equal sets.
 */

const declared = desiredOf(
  definition({
    steps: [{ template: { type: 'sms', content: 'Hi {{firstName}}, order {{orderId}}' } }],
    triggers: [
      {
        type: 'event',
        identifier: 'order-shipped',
        variables: [
          { name: 'firstName', type: 'String' },
          { name: 'orderId', type: 'String' },
        ],
        subscriberVariables: [{ name: 'phone' }],
      },
    ],
  }),
);
const derived = desiredOf(
  definition({ steps: [{ template: { type: 'sms', content: 'Hi {{firstName}}, order {{orderId}}' } }] }),
);

function changesAfter(which: typeof declared, mutate: (stored: WorkflowResponse) => void): FieldChange[] {
  const stored = clone(storedFor(which.body));
  expect(compareWorkflow(which, stored).changes).toEqual([]);
  mutate(stored);
  return compareWorkflow(which, stored).changes;
}

const variablesChange = (actual: unknown): FieldChange => ({
  pointer: '/triggers/0/variables',
  path: 'triggers[0].variables',
  kind: 'changed',
  desired: [
    { name: 'firstName', type: 'String' },
    { name: 'orderId', type: 'String' },
  ],
  actual,
});

describe.each([
  ['declared in the file', declared],
  ['derived from the steps', derived],
])('compareWorkflow: trigger variables %s', (_what, desired) => {
  it('a variable renamed on the service (same count) is a change', () => {
    const changes = changesAfter(desired, (s) => {
      s.triggers[0]!.variables![1]!.name = 'orderNumber';
    });
    expect(changes).toEqual([
      variablesChange([
        { name: 'firstName', type: 'String' },
        { name: 'orderNumber', type: 'String' },
      ]),
    ]);
  });

  it('a variable whose type changed on the service is a change', () => {
    const changes = changesAfter(desired, (s) => {
      s.triggers[0]!.variables![0]!.type = 'Number';
    });
    expect(changes).toEqual([
      variablesChange([
        { name: 'firstName', type: 'Number' },
        { name: 'orderId', type: 'String' },
      ]),
    ]);
  });

  it('one variable held twice in place of two (same count) is a change', () => {
    const changes = changesAfter(desired, (s) => {
      s.triggers[0]!.variables = [
        { name: 'firstName', type: 'String' },
        { name: 'firstName', type: 'String' },
      ];
    });
    expect(changes).toEqual([
      variablesChange([
        { name: 'firstName', type: 'String' },
        { name: 'firstName', type: 'String' },
      ]),
    ]);
  });

  it('the same variables in another order are not a change', () => {
    expect(changesAfter(desired, (s) => s.triggers[0]!.variables!.reverse())).toEqual([]);
  });

  it('a subscriber variable renamed on the service is a change', () => {
    const changes = changesAfter(desired, (s) => {
      s.triggers[0]!.subscriberVariables = [{ name: 'email' }];
    });
    expect(changes).toEqual([
      {
        pointer: '/triggers/0/subscriberVariables',
        path: 'triggers[0].subscriberVariables',
        kind: 'changed',
        desired: [{ name: 'phone' }],
        actual: [{ name: 'email' }],
      },
    ]);
  });
});

describe('compareWorkflow: a list on one side, something else on the other', () => {
  const blocks = desiredOf(
    definition({
      steps: [
        {
          template: {
            type: 'email',
            subject: 'Hi',
            contentType: 'editor',
            content: [{ type: 'text', content: 'Hello {{name}}' }],
          },
        },
      ],
    }),
  );

  it('email blocks in the file, one text on the service: the content changed as a whole', () => {
    const changes = changesAfter(blocks, (s) => {
      s.steps[0]!.template!.content = 'Hello {{name}}';
    });
    expect(changes).toEqual([
      {
        pointer: '/steps/0/template/content',
        path: 'steps[0].template.content',
        kind: 'changed',
        desired: [{ type: 'text', content: 'Hello {{name}}' }],
        actual: 'Hello {{name}}',
      },
    ]);
  });

  it('one text in the file, email blocks on the service: the content changed as a whole', () => {
    const text = desiredOf(
      definition({ steps: [{ template: { type: 'email', subject: 'Hi', content: 'Hello {{name}}' } }] }),
    );
    const changes = changesAfter(text, (s) => {
      s.steps[0]!.template!.content = [{ type: 'text', content: 'Hello {{name}}' }];
    });
    expect(changes).toEqual([
      {
        pointer: '/steps/0/template/content',
        path: 'steps[0].template.content',
        kind: 'changed',
        desired: 'Hello {{name}}',
        actual: [{ type: 'text', content: 'Hello {{name}}' }],
      },
    ]);
  });

  it('steps the service holds as something other than a list: one change', () => {
    const changes = changesAfter(blocks, (s) => {
      (s as { steps: unknown }).steps = { broken: true };
    });
    expect(changes).toEqual([
      expect.objectContaining({
        pointer: '/steps',
        path: 'steps',
        kind: 'changed',
        actual: { broken: true },
      }),
    ]);
  });

  it('a step the service holds as something other than an object: one change', () => {
    const changes = changesAfter(blocks, (s) => {
      (s.steps as unknown[])[0] = 'broken';
    });
    expect(changes).toEqual([
      expect.objectContaining({ pointer: '/steps/0', path: 'steps[0]', kind: 'changed', actual: 'broken' }),
    ]);
  });
});

describe('compareWorkflow: undeclared trigger variables are what the service derives', () => {
  it('as its own extractor reads the templates, quirks included', () => {
    // The service reads only the first argument of a built-in helper; Handlebars reads both.
    const desired = desiredOf(
      definition({ steps: [{ template: { type: 'sms', content: 'Hi {{uppercase firstName lastName}}' } }] }),
    );
    const names = (extraction: 'server' | 'handlebars') =>
      deriveTrigger(desired.body, { extraction }).variables.map((v) => v.name);
    expect(names('handlebars')).not.toEqual(names('server'));
    const stored = storedFor(desired.body);
    expect(stored.triggers[0]!.variables!.map((v) => v.name)).toEqual(names('server'));
    expect(compareWorkflow(desired, stored).changes).toEqual([]);
  });
});

describe('compareWorkflow: template variables only on the service', () => {
  it("each is numbered after the file's", () => {
    const desired = desiredOf(
      definition({
        steps: [
          {
            template: {
              type: 'in_app',
              content: '{{a}} {{b}} {{c}}',
              variables: [{ name: 'a', type: 'String' }],
            },
          },
        ],
      }),
    );
    const changes = changesAfter(desired, (s) => {
      s.steps[0]!.template!.variables!.push({ name: 'b', type: 'String' }, { name: 'c', type: 'Number' });
    });
    expect(changes.map((c) => [c.path, c.kind, c.actual])).toEqual([
      ['steps[0].template.variables[1]', 'only-on-service', { name: 'b', type: 'String' }],
      ['steps[0].template.variables[2]', 'only-on-service', { name: 'c', type: 'Number' }],
    ]);
  });
});

describe('compareWorkflow: an object the service holds as null', () => {
  it('is one change, not a crash', () => {
    const desired = desiredOf(
      definition({
        steps: [
          {
            template: {
              type: 'in_app',
              content: 'x',
              cta: { type: 'redirect', data: { url: 'https://example.com' } },
            },
          },
        ],
      }),
    );
    const changes = changesAfter(desired, (s) => {
      (s.steps[0]!.template as Record<string, unknown>).cta = null;
    });
    expect(changes).toEqual([
      {
        pointer: '/steps/0/template/cta',
        path: 'steps[0].template.cta',
        kind: 'changed',
        desired: { type: 'redirect', data: { url: 'https://example.com' } },
        actual: null,
      },
    ]);
  });
});
