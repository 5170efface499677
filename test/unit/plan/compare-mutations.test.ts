import { describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../../src/generated/workflow.js';
import type { WorkflowResponse } from '../../../src/generated/workflow-response.js';
import { compareWorkflow } from '../../../src/plan/compare.js';
import type { DesiredWorkflow, FieldChange } from '../../../src/plan/types.js';
import { clone, desiredOf, exampleDefinitions, GROUP_ID, OTHER_GROUP_ID, storedFor } from './helpers.js';

/** One stored field changed as the dashboard (or another client) would: exactly one FieldChange, and the diff shows it. */

function example(file: string): DesiredWorkflow {
  const found = exampleDefinitions().find((e) => e.file === `workflows/${file}`);
  if (!found) throw new Error(`no example ${file}`);
  return desiredOf(found.definition, { file: found.file });
}

/** Builds the stored workflow for `desired`, applies `mutate`, compares. */
function compareMutated(desired: DesiredWorkflow, mutate: (stored: WorkflowResponse) => void) {
  const stored = clone(storedFor(desired.body));
  expect(compareWorkflow(desired, stored).changes).toEqual([]);
  mutate(stored);
  return compareWorkflow(desired, stored);
}

const withTemplateVariables: WorkflowDefinition = {
  name: 'order shipped',
  steps: [
    {
      name: 'inbox',
      template: {
        type: 'in_app',
        content: 'Order {{orderId}}: {{#each items}}{{title}}{{/each}}',
        variables: [
          { name: 'orderId', type: 'String' },
          { name: 'items', type: 'Array', required: true },
          { name: 'note', type: 'String', defaultValue: 'none' },
        ],
      },
    },
  ],
  triggers: [{ type: 'event', identifier: 'order-shipped' }],
};

interface Case {
  what: string;
  desired: () => DesiredWorkflow;
  mutate: (stored: WorkflowResponse) => void;
  change: FieldChange;
  /** Lines the diff must hold (the service's `-` line first). */
  diff: string[];
}

const cases: Case[] = [
  {
    what: 'the name',
    desired: () => example('invoice-overdue.yaml'),
    mutate: (s) => {
      s.name = 'invoice late';
    },
    change: {
      pointer: '/name',
      path: 'name',
      kind: 'changed',
      desired: 'invoice overdue',
      actual: 'invoice late',
    },
    diff: ['-name: invoice late', '+name: invoice overdue'],
  },
  {
    what: "a step's content",
    desired: () => example('invoice-overdue.yaml'),
    mutate: (s) => {
      s.steps[2]!.template!.content = 'Invoice {{invoiceNumber}} is late.';
    },
    change: {
      pointer: '/steps/2/template/content',
      path: 'steps[2].template.content',
      kind: 'changed',
      desired: 'Invoice {{invoiceNumber}} of {{customerName}} is {{daysOverdue}} days overdue.',
      actual: 'Invoice {{invoiceNumber}} is late.',
    },
    diff: ['-      content: Invoice {{invoiceNumber}} is late.'],
  },
  {
    what: 'a filter value',
    desired: () => example('invoice-overdue.yaml'),
    mutate: (s) => {
      s.steps[1]!.filters![0]!.children![0]!.value = 'first';
    },
    change: {
      pointer: '/steps/1/filters/0/children/0/value',
      path: 'steps[1].filters[0].children[0].value',
      kind: 'changed',
      desired: 'final',
      actual: 'first',
    },
    diff: ['-            value: first', '+            value: final'],
  },
  {
    what: 'a template variable type',
    desired: () => desiredOf(withTemplateVariables),
    mutate: (s) => {
      s.steps[0]!.template!.variables![1]!.type = 'String';
    },
    change: {
      pointer: '/steps/0/template/variables/1/type',
      path: 'steps[0].template.variables[1].type',
      kind: 'changed',
      desired: 'Array',
      actual: 'String',
    },
    diff: ['-          type: String', '+          type: Array'],
  },
  {
    what: 'active',
    desired: () => example('trial-ending.yaml'),
    mutate: (s) => {
      s.active = false;
    },
    change: { pointer: '/active', path: 'active', kind: 'changed', desired: true, actual: false },
    diff: ['-active: false', '+active: true'],
  },
  {
    what: 'a metadata amount',
    desired: () => example('weekly-activity-digest.yaml'),
    mutate: (s) => {
      s.steps[0]!.metadata!.amount = 2;
    },
    change: {
      pointer: '/steps/0/metadata/amount',
      path: 'steps[0].metadata.amount',
      kind: 'changed',
      desired: 1,
      actual: 2,
    },
    diff: ['-      amount: 2', '+      amount: 1'],
  },
  {
    what: 'the trigger identifier (a duplicate got a suffix)',
    desired: () => example('order-shipped.yaml'),
    mutate: (s) => {
      s.triggers[0]!.identifier = 'order-shipped-x7k2p';
    },
    change: {
      pointer: '/triggers/0/identifier',
      path: 'triggers[0].identifier',
      kind: 'changed',
      desired: 'order-shipped',
      actual: 'order-shipped-x7k2p',
    },
    diff: ['-    identifier: order-shipped-x7k2p', '+    identifier: order-shipped'],
  },
  {
    what: 'the trigger variables',
    desired: () => example('trial-ending.yaml'),
    mutate: (s) => {
      s.triggers[0]!.variables = [{ name: 'planName', type: 'String', _id: 'f00000000000000000000001' }];
    },
    change: {
      pointer: '/triggers/0/variables',
      path: 'triggers[0].variables',
      kind: 'changed',
      desired: [
        { name: 'planName', type: 'String' },
        { name: 'daysLeft', type: 'String' },
      ],
      actual: [{ name: 'planName', type: 'String' }],
    },
    diff: ['+      - name: daysLeft'],
  },
  {
    what: 'the notification group',
    desired: () => example('trial-ending.yaml'),
    mutate: (s) => {
      s._notificationGroupId = OTHER_GROUP_ID;
    },
    change: {
      pointer: '/notificationGroupId',
      path: 'notificationGroupId',
      kind: 'changed',
      desired: GROUP_ID,
      actual: OTHER_GROUP_ID,
    },
    diff: [`-notificationGroupId: ${OTHER_GROUP_ID}`, `+notificationGroupId: ${GROUP_ID}`],
  },
  {
    what: 'an added step',
    desired: () => example('trial-ending.yaml'),
    mutate: (s) => {
      s.steps.push({
        ...clone(s.steps[1]!),
        _id: 'f00000000000000000000009',
        name: 'trial email',
        template: { type: 'email', subject: 'Trial ending', content: 'Bye', _id: 'f00000000000000000000009' },
      });
    },
    change: {
      pointer: '/steps/2',
      path: 'steps[2]',
      kind: 'only-on-service',
      actual: { name: 'trial email', template: { type: 'email', content: 'Bye', subject: 'Trial ending' } },
    },
    diff: ['-  - name: trial email', '-      subject: Trial ending'],
  },
  {
    what: 'a removed step',
    desired: () => example('appointment-reminder.yaml'),
    mutate: (s) => {
      s.steps.pop();
    },
    change: {
      pointer: '/steps/2',
      path: 'steps[2]',
      kind: 'only-in-file',
      desired: {
        name: 'reminder push',
        active: true,
        shouldStopOnFail: false,
        template: {
          type: 'push',
          content: '{{serviceName}} at {{appointmentTime}}',
          title: 'Upcoming appointment',
        },
        filters: [],
      },
    },
    diff: ['+  - name: reminder push'],
  },
];

describe('compareWorkflow: one change on the service, one FieldChange', () => {
  it.each(cases.map((c) => [c.what, c] as const))('%s', (_what, c) => {
    const desired = c.desired();
    const { changes, diff } = compareMutated(desired, c.mutate);
    expect(changes).toEqual([c.change]);
    const lines = diff.split('\n');
    expect(lines[1]).toBe(`+++ ${desired.file}`);
    expect(lines[0]).toMatch(/^--- service: /);
    for (const line of c.diff) expect(lines).toContain(line);
  });

  it('writes a stable unified diff of the compared fields only', () => {
    const desired = example('trial-ending.yaml');
    const mutate = (s: WorkflowResponse) => {
      s.name = 'trial over';
    };
    const first = compareMutated(desired, mutate).diff;
    expect(compareMutated(desired, mutate).diff).toBe(first);
    expect(first).toBe(
      [
        '--- service: trial over',
        '+++ workflows/trial-ending.yaml',
        '@@ -1,4 +1,4 @@',
        '-name: trial over',
        '+name: trial ending',
        ' description: Two days after the trigger, reminds the subscriber that their trial ends soon.',
        ' tags:',
        '   - billing',
        '',
      ].join('\n'),
    );
    // Server-managed fields and timestamps never appear.
    expect(first).not.toMatch(/_id|createdAt|updatedAt|__v/);
  });
});
