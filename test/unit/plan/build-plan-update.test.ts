import { describe, expect, it } from 'vitest';
import type { WriteAction } from '../../../src/generated/config.js';
import type { WorkflowResponse } from '../../../src/generated/workflow-response.js';
import { buildPlan } from '../../../src/plan/build-plan.js';
import { remoteVersionOf } from '../../../src/plan/remote-version.js';
import type { DesiredWorkflow, Plan, PlanItemFields } from '../../../src/plan/types.js';
import type { PendingUpdate, StateEntry, StateFile } from '../../../src/state/types.js';
import { aWorkflowNamed } from '../../helpers/workflow.js';
import { clone, desiredOf, storedFor } from './helpers.js';

const TARGET = { name: 'dev', baseUrl: 'https://api.example.com' };
const UPDATE: ReadonlySet<WriteAction> = new Set(['create', 'update']);

type Steps = NonNullable<Parameters<typeof aWorkflowNamed>[1]>['steps'];

function desiredWith(steps: Steps, extra: Record<string, unknown> = {}): DesiredWorkflow {
  return desiredOf(aWorkflowNamed('alpha', { steps, ...extra }));
}

const BEFORE = desiredWith([
  { name: 'mail', template: { type: 'email', subject: 'Hi', content: 'Hello {{who}}' } },
  { name: 'bell', template: { type: 'in_app', content: 'Hello {{who}}' } },
  { name: 'text', template: { type: 'sms', content: 'Hi {{who}}' } },
]);

function recordedFor(workflow: WorkflowResponse, fields: Partial<StateEntry> = {}): StateFile {
  const entry: StateEntry = {
    id: workflow._id,
    hash: BEFORE.hash,
    origin: 'created',
    remoteVersion: remoteVersionOf(workflow),
    recordedAt: '2024-10-01T00:00:00.000Z',
    ...fields,
  };
  return { version: 1, target: 'dev', baseUrl: TARGET.baseUrl, workflows: { alpha: entry }, pending: {} };
}

function planOne(
  desired: DesiredWorkflow,
  state: StateFile,
  workflow: WorkflowResponse,
  allow: ReadonlySet<WriteAction> | 'not given' = UPDATE,
): PlanItemFields {
  const plan: Plan = buildPlan({
    target: TARGET,
    desired: [desired],
    state,
    observations: new Map([
      ['alpha', { identifier: 'alpha', byId: { status: 'found', workflow, via: 'id' } }],
    ]),
    ...(allow === 'not given' ? {} : { allow }),
  });
  expect(plan.items).toHaveLength(1);
  return plan.items[0]!;
}

const onService = storedFor(BEFORE.body);
const templateOf = (name: string) => onService.steps.find((s) => s.name === name)!._templateId;

describe('buildPlan: a file edited while the service holds the version state recorded', () => {
  const edited = desiredWith([
    { name: 'bell', template: { type: 'in_app', content: 'Hello again {{who}}' } },
    { name: 'mail', template: { type: 'email', subject: 'Hello', content: 'Hello {{who}}' } },
    { name: 'text', template: { type: 'push', title: 'Hi', content: 'Hi {{who}}' } },
    { name: 'chat', template: { type: 'chat', content: 'Hi {{who}}' } },
  ]);

  it('is an update where allowed: the whole body, each kept step with its template id, no active', () => {
    const item = planOne(edited, recordedFor(onService), onService);
    expect(item.action).toBe('update');
    expect(item.attribution).toBe('state');
    expect(item.remoteVersion).toBe(remoteVersionOf(onService));
    expect(item.body?.steps.map((s) => s._templateId)).toEqual([
      templateOf('bell'),
      templateOf('mail'),
      undefined,
      undefined,
    ]);
    expect(item.body?.steps[0]).toEqual({ ...edited.body.steps[0], _templateId: templateOf('bell') });
    expect(item.body).not.toHaveProperty('active');
    expect(item.body).toMatchObject({
      name: edited.body.name,
      notificationGroupId: edited.body.notificationGroupId,
    });
    expect(item.steps?.map((s) => [s.name, s.match])).toEqual([
      ['bell', 'kept'],
      ['mail', 'kept'],
      ['text', 'replaced'],
      ['chat', 'new'],
    ]);
    expect(item.notes).toEqual([expect.stringContaining('channel sms → push')]);
    expect(item.next).toBe('sync will update it.');
  });

  it('without update allowed it stays changed locally (exit 6), naming how to allow it', () => {
    for (const allow of ['not given', new Set<WriteAction>(['create'])] as const) {
      const item = planOne(edited, recordedFor(onService), onService, allow);
      expect(item.action).toBe('changed-locally');
      expect(item.body).toBeUndefined();
      expect(item.next).toContain('`allow: [create, update]`');
      expect(item.next).toContain('`--allow update`');
    }
  });

  it('a service edited since state recorded it is never updated', () => {
    const moved = clone(onService);
    moved.updatedAt = '2024-12-01T00:00:00.000Z';
    const item = planOne(edited, recordedFor(onService), moved);
    expect(item.action).toBe('changed-locally');
    expect(item.next).toMatch(/changed too since wfsync recorded it/);
  });

  it('state without a recorded version cannot tell: changed locally, saying so', () => {
    const item = planOne(edited, recordedFor(onService, { remoteVersion: undefined }), onService);
    expect(item.action).toBe('changed-locally');
    expect(item.next).toMatch(/recorded no version/);
  });

  it('drift (the file unchanged since recorded) is never an update', () => {
    const dashboard = clone(onService);
    dashboard.steps[0]!.template!.subject = 'Changed in the dashboard';
    const state = recordedFor(onService);
    const item = planOne(BEFORE, state, dashboard);
    expect(item.action).toBe('drifted');
  });

  it('only `active` differs: no PUT, the status route only', () => {
    const inactive = desiredOf(aWorkflowNamed('alpha', { ...BEFORE.definition, active: false }));
    const active = clone(onService);
    active.active = true;
    const item = planOne(inactive, recordedFor(active), active);
    expect(item.action).toBe('update');
    expect(item.body).toBeUndefined();
    expect(item.active).toBe(false);
  });

  it('a field the service keeps when sent empty: a person, never a PUT that changes nothing', () => {
    const emptied = desiredWith([
      { name: 'mail', template: { type: 'email', subject: '', content: 'Hello {{who}}' } },
      { name: 'bell', template: { type: 'in_app', content: 'Hello {{who}}' } },
      { name: 'text', template: { type: 'sms', content: 'Hi {{who}}' } },
    ]);
    const item = planOne(emptied, recordedFor(onService), onService);
    expect(item.action).toBe('changed-locally');
    expect(item.next).toMatch(/sync will not update it: the file empties `steps\[0\]\.template\.subject`/);
  });

  it('notes a description the service keeps and a cta the update drops', () => {
    const withExtras = desiredOf(
      aWorkflowNamed('alpha', {
        description: 'Says hello.',
        steps: [
          {
            name: 'bell',
            template: {
              type: 'in_app',
              content: 'Hi {{who}}',
              cta: { type: 'redirect', data: { url: '/x' } },
            },
          },
        ],
      }),
    );
    const held = storedFor(withExtras.body);
    const trimmed = desiredOf(
      aWorkflowNamed('alpha', {
        steps: [{ name: 'bell', template: { type: 'in_app', content: 'Hello {{who}}' } }],
      }),
    );
    const state = recordedFor(held, { hash: withExtras.hash });
    const item = planOne(trimmed, state, held);
    expect(item.action).toBe('update');
    expect(item.notes).toEqual([
      expect.stringContaining('the service keeps its description'),
      expect.stringContaining('`template.cta` is dropped'),
    ]);
  });
});

describe('buildPlan: an update an earlier sync left in the journal', () => {
  const target = desiredOf(aWorkflowNamed('alpha', { ...BEFORE.definition, active: false }));
  const pending = (hash: string): PendingUpdate => ({
    kind: 'update',
    identifier: 'alpha',
    id: onService._id,
    hash,
    startedAt: '2024-10-02T00:00:00.000Z',
  });
  // The service's copy before the update: active, as the file was.
  const before = clone(onService);
  before.active = true;
  const withPending = (hash: string) => ({ ...recordedFor(before), pending: { alpha: pending(hash) } });

  it('the PUT landed and only `active` is left: finished with the status route', () => {
    const landed = clone(before);
    landed.updatedAt = '2024-10-02T00:00:01.000Z';
    const item = planOne(target, withPending(target.hash), landed);
    expect(item.action).toBe('update');
    expect(item.body).toBeUndefined();
    expect(item.active).toBe(false);
  });

  it('the service holds neither the version before nor the file: a person', () => {
    const other = clone(before);
    other.steps[0]!.template!.subject = 'Something else';
    other.updatedAt = '2024-10-02T00:00:01.000Z';
    const item = planOne(target, withPending(target.hash), other);
    expect(item.action).toBe('changed-locally');
    expect(item.next).toMatch(/interrupted/);
  });

  it('the PUT never landed (the recorded version still there): planned again as an update', () => {
    const item = planOne(target, withPending(target.hash), before);
    expect(item.action).toBe('update');
  });
});
