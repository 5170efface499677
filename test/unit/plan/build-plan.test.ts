import { describe, expect, it } from 'vitest';
import type { WorkflowResponse } from '../../../src/generated/workflow-response.js';
import { buildPlan, IGNORED_FIELDS } from '../../../src/plan/index.js';
import type { DesiredWorkflow, Plan, PlanItem, RemoteObservation } from '../../../src/plan/types.js';
import type { StateEntry, StateFile } from '../../../src/state/types.js';
import { clone, definition, desiredOf, storedFor } from './helpers.js';

const TARGET = { name: 'dev', baseUrl: 'https://api.example.com' };

function desiredNamed(name: string, content = 'Hello {{who}}'): DesiredWorkflow {
  const identifier = name.replace(/ /g, '-');
  return desiredOf(
    definition({
      name,
      steps: [{ template: { type: 'in_app', content } }],
      triggers: [{ type: 'event', identifier }],
    }),
  );
}

function stateWith(workflows: Record<string, StateEntry> = {}): StateFile {
  return { version: 1, target: TARGET.name, baseUrl: TARGET.baseUrl, workflows, pending: {} };
}

function entry(id: string, hash: string): StateEntry {
  return { id, hash, origin: 'created', recordedAt: '2024-10-01T00:00:00.000Z' };
}

const found = (workflow: WorkflowResponse, via: 'id' | 'identifier' = 'identifier') =>
  ({ status: 'found', workflow, via }) as const;
const notFound = (via: 'id' | 'identifier' = 'identifier') => ({ status: 'not-found', via }) as const;

function planOf(
  desired: DesiredWorkflow[],
  state: StateFile,
  observations: Array<Omit<RemoteObservation, 'identifier'> & { identifier: string }>,
): Plan {
  return buildPlan({
    target: TARGET,
    desired,
    state,
    observations: new Map(observations.map((o) => [o.identifier, o])),
  });
}

function only(plan: Plan): PlanItem {
  expect(plan.items).toHaveLength(1);
  return plan.items[0]!;
}

const ALPHA = desiredNamed('alpha');
const stored = (desired: DesiredWorkflow) => storedFor(desired.body);
const edited = (desired: DesiredWorkflow) => {
  const workflow = clone(stored(desired));
  workflow.steps[0]!.template!.content = 'Hello {{who}} (edited)';
  workflow.updatedAt = '2024-11-01T00:00:00.000Z';
  workflow.__v = 1;
  return workflow;
};

describe('buildPlan: a definition state knows nothing of', () => {
  it('not on the service: create, with the exact body', () => {
    const item = only(planOf([ALPHA], stateWith(), [{ identifier: 'alpha', byIdentifier: notFound() }]));
    expect(item).toEqual({
      identifier: 'alpha',
      action: 'create',
      file: ALPHA.file,
      name: 'alpha',
      desiredHash: ALPHA.hash,
      changes: [],
      body: ALPHA.body,
      next: 'sync will create it.',
    });
  });

  it('on the service as the file says: in-sync, to be adopted', () => {
    const workflow = stored(ALPHA);
    const item = only(planOf([ALPHA], stateWith(), [{ identifier: 'alpha', byIdentifier: found(workflow) }]));
    expect(item).toMatchObject({
      action: 'in-sync',
      remoteId: workflow._id,
      remoteVersion: `${workflow._id}@${workflow.updatedAt}#0`,
      changes: [],
    });
    expect(item.next).toBe(
      'the service already has it as the file says: sync will record it in state without creating it.',
    );
    expect(item.body).toBeUndefined();
    expect(item.diff).toBeUndefined();
  });

  it('on the service, different: conflict, with changes and a diff', () => {
    const workflow = edited(ALPHA);
    const item = only(planOf([ALPHA], stateWith(), [{ identifier: 'alpha', byIdentifier: found(workflow) }]));
    expect(item.action).toBe('conflict');
    expect(item.changes.map((c) => c.path)).toEqual(['steps[0].template.content']);
    expect(item.diff).toContain('+      content: Hello {{who}}\n');
    expect(item.next).toContain("`wfsync pull alpha` to adopt the service's version, or rename the workflow");
    expect(item.remoteVersion).toBe(`${workflow._id}@2024-11-01T00:00:00.000Z#1`);
  });

  it('a lookup that failed: error, nothing created', () => {
    const item = only(
      planOf([ALPHA], stateWith(), [
        {
          identifier: 'alpha',
          byIdentifier: { status: 'error', message: 'GET /v1/workflows/alpha: 503', httpStatus: 503 },
        },
      ]),
    );
    expect(item).toMatchObject({ action: 'error', error: 'GET /v1/workflows/alpha: 503' });
    expect(item.body).toBeUndefined();
    expect(item.next).toMatch(/run the plan again/);
  });

  it('no lookup at all is an error, never a create', () => {
    const item = only(planOf([ALPHA], stateWith(), []));
    expect(item.action).toBe('error');
    expect(item.error).toMatch(/not asked/);
  });

  it('an identifier that is an Object.prototype property is looked up like any other', () => {
    const desired = desiredNamed('constructor');
    const item = only(
      planOf([desired], stateWith(), [{ identifier: 'constructor', byIdentifier: notFound() }]),
    );
    expect(item.action).toBe('create');
    expect(item.stateId).toBeUndefined();
  });
});

describe('buildPlan: a definition state records', () => {
  const recorded = (hash: string, id = stored(ALPHA)._id) => stateWith({ alpha: entry(id, hash) });

  it('unchanged on both sides: in-sync, nothing to do', () => {
    const workflow = stored(ALPHA);
    const item = only(
      planOf([ALPHA], recorded(ALPHA.hash), [{ identifier: 'alpha', byId: found(workflow, 'id') }]),
    );
    expect(item).toMatchObject({
      action: 'in-sync',
      stateId: workflow._id,
      stateHash: ALPHA.hash,
      next: 'nothing to do.',
    });
  });

  it('the same change made in the file and in the dashboard: in-sync, sync records the new hash', () => {
    const item = only(
      planOf([ALPHA], recorded('sha256:old'), [{ identifier: 'alpha', byId: found(stored(ALPHA), 'id') }]),
    );
    expect(item.action).toBe('in-sync');
    expect(item.next).toMatch(/sync will record the new hash in state/);
  });

  it('the service changed, the file did not: drifted', () => {
    const item = only(
      planOf([ALPHA], recorded(ALPHA.hash), [{ identifier: 'alpha', byId: found(edited(ALPHA), 'id') }]),
    );
    expect(item.action).toBe('drifted');
    expect(item.changes).toHaveLength(1);
    expect(item.next).toBe(
      "the service's workflow was changed (in the dashboard?): `wfsync pull alpha` to accept it into the file, or " +
        'change it back on the service; wfsync cannot update workflows.',
    );
  });

  it('the file changed since it was created: changed-locally', () => {
    const item = only(
      planOf([ALPHA], recorded('sha256:old'), [{ identifier: 'alpha', byId: found(edited(ALPHA), 'id') }]),
    );
    expect(item.action).toBe('changed-locally');
    expect(item.next).toMatch(/apply the change in the dashboard and run `wfsync pull alpha`/);
  });

  it('a duplicate the service made is named in the next step', () => {
    const workflow = clone(stored(ALPHA));
    workflow.triggers[0]!.identifier = 'alpha-x7k2p';
    const item = only(
      planOf([ALPHA], recorded(ALPHA.hash), [{ identifier: 'alpha', byId: found(workflow, 'id') }]),
    );
    expect(item.action).toBe('drifted');
    expect(item.next).toMatch(
      /^the service holds it as `alpha-x7k2p`: it was created while `alpha` was taken/,
    );
  });

  it('gone from the service: missing-remotely', () => {
    const item = only(
      planOf([ALPHA], recorded(ALPHA.hash, 'dddddddddddddddddddddddd'), [
        { identifier: 'alpha', byId: notFound('id'), byIdentifier: notFound() },
      ]),
    );
    expect(item).toMatchObject({ action: 'missing-remotely', stateId: 'dddddddddddddddddddddddd' });
    expect(item.next).toBe(
      'the service has no workflow dddddddddddddddddddddddd any more (deleted in the dashboard?): run ' +
        '`wfsync state forget alpha` and sync will create it again, or delete workflows/alpha.yaml if it should stay deleted.',
    );
  });

  it('the recorded id is gone but a matching workflow has the identifier: in-sync under the new id', () => {
    const workflow = stored(ALPHA);
    const item = only(
      planOf([ALPHA], recorded(ALPHA.hash, 'dddddddddddddddddddddddd'), [
        { identifier: 'alpha', byId: notFound('id'), byIdentifier: found(workflow) },
      ]),
    );
    expect(item).toMatchObject({
      action: 'in-sync',
      stateId: 'dddddddddddddddddddddddd',
      remoteId: workflow._id,
    });
    expect(item.next).toMatch(/sync will record/);
  });

  it('the recorded id is gone and a different workflow has the identifier: conflict', () => {
    const item = only(
      planOf([ALPHA], recorded(ALPHA.hash, 'dddddddddddddddddddddddd'), [
        { identifier: 'alpha', byId: notFound('id'), byIdentifier: found(edited(ALPHA)) },
      ]),
    );
    expect(item.action).toBe('conflict');
  });

  it('a failed lookup by id: error', () => {
    const item = only(
      planOf([ALPHA], recorded(ALPHA.hash), [
        { identifier: 'alpha', byId: { status: 'error', message: 'timeout' } },
      ]),
    );
    expect(item).toMatchObject({ action: 'error', error: 'timeout' });
  });
});

describe('buildPlan: the whole plan', () => {
  it('sorts by identifier with orphans last, counts every action and lists the ignored fields', () => {
    const beta = desiredNamed('beta');
    const gamma = desiredNamed('gamma');
    const orphan = storedFor(desiredNamed('aardvark').body);
    const plan = planOf(
      [gamma, beta, ALPHA],
      stateWith({
        aardvark: entry(orphan._id, 'sha256:a'),
        zebra: entry('eeeeeeeeeeeeeeeeeeeeeeee', 'sha256:z'),
        beta: entry(stored(beta)._id, beta.hash),
      }),
      [
        { identifier: 'alpha', byIdentifier: notFound() },
        { identifier: 'beta', byId: found(stored(beta), 'id') },
        { identifier: 'gamma', byIdentifier: found(edited(gamma)) },
        { identifier: 'aardvark', byId: found(orphan, 'id') },
        { identifier: 'zebra', byId: notFound('id') },
      ],
    );
    expect(plan.items.map((i) => [i.identifier, i.action])).toEqual([
      ['alpha', 'create'],
      ['beta', 'in-sync'],
      ['gamma', 'conflict'],
      ['aardvark', 'orphaned'],
      ['zebra', 'orphaned'],
    ]);
    expect(plan.summary).toEqual({
      create: 1,
      inSync: 1,
      drifted: 0,
      changedLocally: 0,
      missingRemotely: 0,
      conflict: 1,
      orphaned: 2,
      error: 0,
    });
    expect(plan).toMatchObject({ version: 1, target: TARGET, ignoredFields: [...IGNORED_FIELDS] });
    const [, , , aardvark, zebra] = plan.items;
    expect(aardvark).toMatchObject({ name: 'aardvark', remoteId: orphan._id, stateHash: 'sha256:a' });
    expect(aardvark!.file).toBeUndefined();
    expect(aardvark!.next).toBe(
      'no definition has this identifier any more, and the API cannot delete workflows: delete it in the ' +
        'dashboard, then run `wfsync state forget aardvark`.',
    );
    expect(zebra!.next).toBe(
      'no definition has this identifier and the service no longer has it: run `wfsync state forget zebra`.',
    );
    for (const item of plan.items) expect(item.next).not.toBe('');
  });

  it('two definitions with one identifier are both errors: nothing is created twice', () => {
    const first = { ...ALPHA, file: 'workflows/a.yaml' };
    const second = { ...desiredNamed('alpha', 'Other {{x}}'), file: 'workflows/b.yaml' };
    const plan = planOf([second, first], stateWith(), [{ identifier: 'alpha', byIdentifier: notFound() }]);
    expect(plan.items.map((i) => [i.file, i.action])).toEqual([
      ['workflows/a.yaml', 'error'],
      ['workflows/b.yaml', 'error'],
    ]);
    expect(plan.items[0]!.error).toBe(
      '2 definitions declare identifier alpha: workflows/b.yaml, workflows/a.yaml',
    );
    expect(plan.summary.create).toBe(0);
  });

  it('is pure: the same input gives the same plan, and the input is not modified', () => {
    const state = stateWith({ alpha: entry(stored(ALPHA)._id, 'sha256:old') });
    const observations = [{ identifier: 'alpha', byId: found(edited(ALPHA), 'id') }];
    const before = JSON.stringify({ ALPHA, state, observations });
    const first = planOf([ALPHA], state, observations);
    expect(planOf([ALPHA], state, observations)).toEqual(first);
    expect(JSON.stringify({ ALPHA, state, observations })).toBe(before);
  });
});
