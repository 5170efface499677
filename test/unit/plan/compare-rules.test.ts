import { describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../../src/generated/workflow.js';
import type { WorkflowResponse } from '../../../src/generated/workflow-response.js';
import { IGNORED_FIELDS } from '../../../src/plan/build-plan.js';
import { compareWorkflow } from '../../../src/plan/compare.js';
import type { DesiredWorkflow } from '../../../src/plan/types.js';
import { clone, definition, desiredOf, exampleDefinitions, OTHER_GROUP_ID, storedFor } from './helpers.js';

function changesAfter(desired: DesiredWorkflow, mutate: (stored: WorkflowResponse) => void = () => {}) {
  const stored = clone(storedFor(desired.body));
  mutate(stored);
  return compareWorkflow(desired, stored).changes;
}

const weekly = () => {
  const found = exampleDefinitions().find((e) => e.file === 'workflows/weekly-activity-digest.yaml')!;
  return desiredOf(found.definition, { file: found.file });
};

describe('compareWorkflow: what is not drift', () => {
  it('ignores template variables stored in another order', () => {
    const desired = desiredOf(
      definition({
        steps: [
          {
            template: {
              type: 'in_app',
              content: '{{a}} {{b}}',
              variables: [
                { name: 'a', type: 'String' },
                { name: 'b', type: 'Boolean', required: true },
              ],
            },
          },
        ],
      }),
    );
    expect(changesAfter(desired, (s) => s.steps[0]!.template!.variables!.reverse())).toEqual([]);
  });

  it('ignores the empty `timed` arrays the service adds to metadata', () => {
    const desired = weekly();
    const stored = storedFor(desired.body);
    expect(stored.steps[0]!.metadata!.timed).toEqual({
      atTime: '09:00',
      weekDays: ['monday'],
      monthDays: [],
    });
    expect(stored.steps[1]!.metadata).toEqual({ timed: { weekDays: [], monthDays: [] } });
    expect(changesAfter(desired)).toEqual([]);
  });

  it('ignores fields a newer server adds anywhere', () => {
    const desired = weekly();
    const changes = changesAfter(desired, (s) => {
      Object.assign(s, { userPreferences: { all: { enabled: true } }, payloadSchema: {}, status: 'ACTIVE' });
      Object.assign(s.steps[0]!, { stepId: 'collect', controlVariables: {}, issues: {} });
      Object.assign(s.steps[1]!.template!, { controls: { schema: {} }, variables: [] });
      Object.assign(s.steps[0]!.metadata!, {
        timed: { ...s.steps[0]!.metadata!.timed, cronExpression: '0 9 * * 1' },
      });
      Object.assign(s.triggers[0]!, { payloadSchema: {} });
    });
    expect(changes).toEqual([]);
  });

  it('ignores every server-managed field', () => {
    const desired = weekly();
    const changes = changesAfter(desired, (s) => {
      for (const field of IGNORED_FIELDS) s[field] = `changed-${field}`;
      s.steps[0]!._id = 'f00000000000000000000001';
      s.steps[0]!._parentId = 'f00000000000000000000002';
      s.steps[1]!.template!._layoutId = 'f00000000000000000000003';
      s.triggers[0]!.reservedVariables = [{ type: 'tenant', variables: [{ name: 'identifier' }] }];
    });
    expect(changes).toEqual([]);
    expect(IGNORED_FIELDS).not.toContain('_notificationGroupId');
    expect(IGNORED_FIELDS).toEqual(expect.arrayContaining(['_id', 'createdAt', 'updatedAt', '__v', 'draft']));
  });

  it('ignores fields the file leaves out that have no documented default', () => {
    const desired = desiredOf(definition());
    const changes = changesAfter(desired, (s) => {
      s.description = 'written in the dashboard';
      s.data = { team: 'x' };
      s.steps[0]!.uuid = 'c0ffee';
      s.steps[0]!.replyCallback = { active: true, url: 'https://example.com/replies' };
      s.steps[0]!.metadata = { type: 'regular', amount: 3 };
      s.steps[0]!.template!.subject = 'ignored';
    });
    expect(changes).toEqual([]);
  });

  it('reads documented defaults into fields an older server leaves out', () => {
    const desired = desiredOf(definition());
    const changes = changesAfter(desired, (s) => {
      delete s.tags;
      delete s.critical;
      s.preferenceSettings = { email: true };
      delete s.steps[0]!.filters;
      s.steps[0]!.active = null as unknown as boolean;
      delete s.steps[0]!.shouldStopOnFail;
    });
    expect(changes).toEqual([]);
  });

  it('reads the group from the populated notificationGroup when the id field is absent', () => {
    const desired = desiredOf(definition());
    const changes = changesAfter(desired, (s) => {
      s.notificationGroup = { _id: s._notificationGroupId, name: 'General' };
      delete s._notificationGroupId;
    });
    expect(changes).toEqual([]);
  });

  it('compares free-form data as data: key order does not matter, values do', () => {
    const desired = desiredOf(definition({ data: { team: 'billing', limits: { a: 1, b: 2 } } }));
    expect(
      changesAfter(desired, (s) => {
        s.data = { limits: { b: 2, a: 1 }, team: 'billing' };
      }),
    ).toEqual([]);
    expect(
      changesAfter(desired, (s) => {
        s.data = { team: 'billing', limits: { a: 1, b: 3 } };
      }),
    ).toEqual([
      {
        pointer: '/data',
        path: 'data',
        kind: 'changed',
        desired: { team: 'billing', limits: { a: 1, b: 2 } },
        actual: { team: 'billing', limits: { a: 1, b: 3 } },
      },
    ]);
  });
});

describe('compareWorkflow: undeclared fields compared against server defaults', () => {
  const single = (def: WorkflowDefinition, mutate: (s: WorkflowResponse) => void) =>
    changesAfter(desiredOf(def), mutate);

  type Mutation = [
    what: string,
    mutate: (s: WorkflowResponse) => void,
    pointer: string,
    desired: unknown,
    actual: unknown,
  ];
  const mutations: Mutation[] = [
    [
      'critical',
      (s) => {
        s.critical = true;
      },
      '/critical',
      false,
      true,
    ],
    [
      'active',
      (s) => {
        s.active = true;
      },
      '/active',
      false,
      true,
    ],
    [
      'tags',
      (s) => {
        s.tags = ['x'];
      },
      '/tags',
      [],
      ['x'],
    ],
    [
      'a channel',
      (s) => {
        s.preferenceSettings!.sms = false;
      },
      '/preferenceSettings/sms',
      true,
      false,
    ],
    [
      'step active',
      (s) => {
        s.steps[0]!.active = false;
      },
      '/steps/0/active',
      true,
      false,
    ],
    [
      'shouldStopOnFail',
      (s) => {
        s.steps[0]!.shouldStopOnFail = true;
      },
      '/steps/0/shouldStopOnFail',
      false,
      true,
    ],
  ];

  it.each(mutations)('%s', (_what, mutate, pointer, desiredValue, actualValue) => {
    const changes = single(definition(), mutate);
    expect(changes).toEqual([
      expect.objectContaining({ pointer, kind: 'changed', desired: desiredValue, actual: actualValue }),
    ]);
  });

  it('a partial preferenceSettings is completed with true', () => {
    const def = definition({ preferenceSettings: { email: false } });
    expect(single(def, () => {})).toEqual([]);
    expect(
      single(def, (s) => {
        s.preferenceSettings!.email = true;
      }),
    ).toEqual([
      {
        pointer: '/preferenceSettings/email',
        path: 'preferenceSettings.email',
        kind: 'changed',
        desired: false,
        actual: true,
      },
    ]);
  });

  it('filters added in the dashboard to a step the file gives none', () => {
    const filter = {
      value: 'AND',
      children: [{ on: 'subscriber', field: 'plan', operator: 'EQUAL', value: 'pro' }],
    };
    const changes = single(
      definition(),
      (s) => (s.steps[0]!.filters = [{ ...filter, _id: 'f00000000000000000000001' }]),
    );
    expect(changes).toEqual([
      { pointer: '/steps/0/filters/0', path: 'steps[0].filters[0]', kind: 'only-on-service', actual: filter },
    ]);
  });

  it('template variable `required` defaults to false', () => {
    const def = definition({
      steps: [{ template: { type: 'in_app', content: '{{a}}', variables: [{ name: 'a', type: 'String' }] } }],
    });
    expect(single(def, () => {})).toEqual([]);
    expect(
      single(def, (s) => {
        s.steps[0]!.template!.variables![0]!.required = true;
      }),
    ).toEqual([
      {
        pointer: '/steps/0/template/variables/0/required',
        path: 'steps[0].template.variables[0].required',
        kind: 'changed',
        desired: false,
        actual: true,
      },
    ]);
  });

  it('template variables only in the file or only on the service', () => {
    const def = definition({
      steps: [{ template: { type: 'in_app', content: '{{a}}', variables: [{ name: 'a' }, { name: 'b' }] } }],
    });
    const changes = single(def, (s) => {
      s.steps[0]!.template!.variables = [{ name: 'c', type: 'String', required: false }, { name: 'a' }];
    });
    expect(changes).toEqual([
      {
        pointer: '/steps/0/template/variables/1',
        path: 'steps[0].template.variables[1]',
        kind: 'only-in-file',
        desired: { name: 'b', required: false },
      },
      {
        pointer: '/steps/0/template/variables/2',
        path: 'steps[0].template.variables[2]',
        kind: 'only-on-service',
        actual: { name: 'c', type: 'String' },
      },
    ]);
  });

  it('undeclared trigger variables and subscriber variables are what the service derives from the body', () => {
    const def = definition({
      steps: [{ template: { type: 'sms', content: 'Hi {{firstName}}' } }],
    });
    expect(single(def, () => {})).toEqual([]);
    expect(single(def, (s) => s.triggers[0]!.variables!.push({ name: 'x', type: 'String' }))).toEqual([
      {
        pointer: '/triggers/0/variables',
        path: 'triggers[0].variables',
        kind: 'changed',
        desired: [{ name: 'firstName', type: 'String' }],
        actual: [
          { name: 'firstName', type: 'String' },
          { name: 'x', type: 'String' },
        ],
      },
    ]);
    expect(
      single(def, (s) => {
        s.triggers[0]!.subscriberVariables = [];
      }),
    ).toEqual([
      {
        pointer: '/triggers/0/subscriberVariables',
        path: 'triggers[0].subscriberVariables',
        kind: 'changed',
        desired: [{ name: 'phone' }],
        actual: [],
      },
    ]);
  });

  it('trigger variables are a set: order does not matter', () => {
    const found = exampleDefinitions().find((e) => e.file === 'workflows/order-shipped.yaml')!;
    const desired = desiredOf(found.definition, { file: found.file });
    expect(changesAfter(desired, (s) => s.triggers[0]!.variables!.reverse())).toEqual([]);
  });

  it('a declared feedId is compared with the stored _feedId', () => {
    const def = definition({
      steps: [{ template: { type: 'in_app', content: 'x', feedId: 'c00000000000000000000001' } }],
    });
    expect(single(def, () => {})).toEqual([]);
    expect(
      single(def, (s) => {
        s.steps[0]!.template!._feedId = OTHER_GROUP_ID;
      }),
    ).toEqual([
      {
        pointer: '/steps/0/template/feedId',
        path: 'steps[0].template.feedId',
        kind: 'changed',
        desired: 'c00000000000000000000001',
        actual: OTHER_GROUP_ID,
      },
    ]);
  });

  it('email blocks are compared block by block', () => {
    const found = exampleDefinitions().find((e) => e.file === 'workflows/password-reset.yaml')!;
    const desired = desiredOf(found.definition, { file: found.file });
    const changes = changesAfter(desired, (s) => {
      (s.steps[0]!.template!.content as Array<Record<string, unknown>>)[1]!.url = '{{link}}';
    });
    expect(changes).toEqual([
      {
        pointer: '/steps/0/template/content/1/url',
        path: 'steps[0].template.content[1].url',
        kind: 'changed',
        desired: '{{resetUrl}}',
        actual: '{{link}}',
      },
    ]);
  });

  it('a field the file declares that the service lost is only in the file', () => {
    const changes = changesAfter(desiredOf(definition({ description: 'd' })), (s) => delete s.description);
    expect(changes).toEqual([
      { pointer: '/description', path: 'description', kind: 'only-in-file', desired: 'd' },
    ]);
  });
});
