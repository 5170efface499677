import { describe, expect, it } from 'vitest';
import { buildSyncAdvice } from '../../../src/apply/create-failure.js';
import type { CreateContext } from '../../../src/apply/create-one.js';
import { updateOne } from '../../../src/apply/update-one.js';
import { buildPlan } from '../../../src/plan/build-plan.js';
import { remoteVersionOf } from '../../../src/plan/remote-version.js';
import type { UpdateItem } from '../../../src/plan/types.js';
import type { WorkflowResponse } from '../../../src/remote/index.js';
import type { StateFile } from '../../../src/state/types.js';
import { remoteError, type WorldScript, world } from '../../helpers/create-world.js';
import { aWorkflowNamed } from '../../helpers/workflow.js';
import { clone, desiredOf, storedFor } from '../plan/helpers.js';

const before = desiredOf(
  aWorkflowNamed('alpha', {
    active: true,
    steps: [
      { name: 'mail', template: { type: 'email', subject: 'Hi', content: 'Hello {{who}}' } },
      { name: 'bell', template: { type: 'in_app', content: 'Hello {{who}}' } },
    ],
  }),
);
const after = desiredOf(
  aWorkflowNamed('alpha', {
    active: false,
    steps: [
      { name: 'bell', template: { type: 'in_app', content: 'Hello again {{who}}' } },
      { name: 'mail', template: { type: 'email', subject: 'Hi', content: 'Hello {{who}}' } },
    ],
  }),
);
const held = storedFor(before.body);
const state: StateFile = {
  version: 1,
  target: 'dev',
  baseUrl: 'https://api.example.com',
  workflows: {
    alpha: {
      id: held._id,
      hash: before.hash,
      origin: 'created',
      remoteVersion: remoteVersionOf(held),
      recordedAt: '2024-10-01T00:00:00.000Z',
    },
  },
  pending: {},
};

/** The plan's update item for `after` against `held`. */
function planned(): UpdateItem {
  const plan = buildPlan({
    target: { name: 'dev', baseUrl: 'https://api.example.com' },
    desired: [after],
    state,
    observations: new Map([
      ['alpha', { identifier: 'alpha', byId: { status: 'found', workflow: held, via: 'id' } }],
    ]),
    allow: new Set(['create', 'update']),
  });
  const item = plan.items[0]!;
  if (item.action !== 'update') throw new Error(`expected an update, got ${item.action}`);
  return item;
}

/** The service after the update: the file's steps, kept templates kept, a new version. */
function updated(): WorkflowResponse {
  const next = storedFor({ ...after.body });
  next._id = held._id;
  const ids = new Map(held.steps.map((s) => [s.name, s._templateId]));
  for (const step of next.steps) step._templateId = ids.get(step.name) ?? step._templateId;
  next.updatedAt = '2024-10-02T00:00:00.000Z';
  return next;
}

function run(script: WorldScript) {
  const w = world(script);
  const ctx: CreateContext = {
    client: w.client,
    store: w.store,
    target: 'dev',
    now: () => new Date('2024-10-02T00:00:00.000Z'),
    emit: w.emit,
    advice: buildSyncAdvice(),
  };
  return { w, result: updateOne(ctx, planned(), after, state.workflows.alpha) };
}

const writes = (log: ReturnType<typeof world>['log']) => log.filter((s) => s.do !== 'emit').map((s) => s.do);

describe('updateOne', () => {
  it('reads, journals, PUTs the whole body with kept template ids, sets the status, reads back, records', async () => {
    let reads = 0;
    const { w, result } = run({
      get: async () => (reads++ === 0 ? held : updated()),
      put: async () => updated(),
      status: async () => updated(),
    });
    const outcome = await result;
    expect(outcome.result.outcome).toBe('updated');
    expect(writes(w.log)).toEqual(['GET', 'recordPending', 'PUT', 'status', 'GET', 'recordWorkflow']);
    const put = w.log.find((s) => s.do === 'PUT') as unknown as {
      body: { steps: Array<{ _templateId?: string }> };
    };
    const templateOf = (name: string) => held.steps.find((s) => s.name === name)!._templateId;
    expect(put.body.steps.map((s) => s._templateId)).toEqual([templateOf('bell'), templateOf('mail')]);
    expect(put.body).not.toHaveProperty('active');
    expect(w.log.find((s) => s.do === 'status')).toEqual({ do: 'status', id: held._id, active: false });
    expect(w.log.find((s) => s.do === 'recordPending')).toMatchObject({
      entry: { kind: 'update', identifier: 'alpha', id: held._id, hash: after.hash },
    });
    expect(w.log.find((s) => s.do === 'recordWorkflow')).toMatchObject({
      entry: { id: held._id, hash: after.hash, origin: 'created', remoteVersion: remoteVersionOf(updated()) },
    });
  });

  it('the service changed since the plan (a dashboard edit): nothing is journaled or sent', async () => {
    const edited = clone(held);
    edited.updatedAt = '2024-10-01T12:00:00.000Z';
    const { w, result } = run({ get: async () => edited });
    const outcome = await result;
    expect(outcome.result.outcome).toBe('conflict');
    expect(outcome.result.message).toMatch(
      /nothing was sent: the workflow changed on the service since the plan/,
    );
    expect(writes(w.log)).toEqual(['GET']);
  });

  it('a lost PUT response keeps the journal entry and records nothing', async () => {
    const { w, result } = run({
      get: async () => held,
      put: async () => {
        throw remoteError('outcome-unknown', 'connection reset');
      },
    });
    const outcome = await result;
    expect(outcome.result.outcome).toBe('failed');
    expect(writes(w.log)).toEqual(['GET', 'recordPending', 'PUT']);
  });

  it('the service refused the PUT: the journal entry is cleared', async () => {
    const { w, result } = run({
      get: async () => held,
      put: async () => {
        throw remoteError('validation', '400 the service rejected the request');
      },
    });
    expect((await result).result.outcome).toBe('failed');
    expect(writes(w.log)).toEqual(['GET', 'recordPending', 'PUT', 'clearPending']);
  });

  it('read back different from the file: failed, never updated, nothing recorded', async () => {
    let reads = 0;
    const { w, result } = run({
      get: async () => (reads++ === 0 ? held : { ...held, updatedAt: '2024-10-03T00:00:00.000Z' }),
      put: async () => updated(),
      status: async () => updated(),
    });
    const outcome = await result;
    expect(outcome.result.outcome).toBe('failed');
    expect(outcome.result.message).toMatch(/holds something else than the file/);
    expect(writes(w.log)).not.toContain('recordWorkflow');
  });
});
