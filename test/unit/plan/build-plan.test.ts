import { describe, expect, it } from 'vitest';
import type { WorkflowResponse } from '../../../src/generated/workflow-response.js';
import { buildPlan, IGNORED_FIELDS } from '../../../src/plan/build-plan.js';
import type { DesiredWorkflow, Plan, PlanItemFields } from '../../../src/plan/types.js';
import type { RemoteObservation } from '../../../src/remote/index.js';
import type { StateEntry, StateFile } from '../../../src/state/types.js';
import { aWorkflowNamed } from '../../helpers/workflow.js';
import { clone, desiredOf, storedFor } from './helpers.js';

const TARGET = { name: 'dev', baseUrl: 'https://api.example.com' };

function desiredNamed(name: string, content = 'Hello {{who}}'): DesiredWorkflow {
  return desiredOf(aWorkflowNamed(name, { steps: [{ template: { type: 'in_app', content } }] }));
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

function only(plan: Plan): PlanItemFields {
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

  it('on the service, different: conflict, with changes and a diff; who changed it is unknown', () => {
    const workflow = edited(ALPHA);
    const item = only(planOf([ALPHA], stateWith(), [{ identifier: 'alpha', byIdentifier: found(workflow) }]));
    expect(item.action).toBe('conflict');
    expect(item.attribution).toBe('unknown');
    expect(item.changes.map((c) => c.path)).toEqual(['steps[0].template.content']);
    expect(item.diff).toContain('+      content: Hello {{who}}\n');
    expect(item.next).toContain('wfsync cannot tell whether the file or the service changed');
    expect(item.next).not.toContain('wfsync pull');
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
    expect(item.attribution).toBe('state');
    expect(item.changes).toHaveLength(1);
    expect(item.next).toBe(
      "the file has not changed since the workflow was created, but the service's workflow differs (edited in the " +
        'dashboard?): accept it into the file with `wfsync pull alpha` in a change of its own, or change it back in ' +
        "the dashboard; sync never overwrites the service's workflow.",
    );
  });

  it('the file changed since it was created: changed-locally', () => {
    const item = only(
      planOf([ALPHA], recorded('sha256:old'), [{ identifier: 'alpha', byId: found(edited(ALPHA), 'id') }]),
    );
    expect(item.action).toBe('changed-locally');
    expect(item.attribution).toBe('state');
    expect(item.next).toMatch(/make the same edit in the dashboard/);
    expect(item.next).not.toContain('wfsync pull');
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
      update: 0,
      delete: 0,
      promote: 0,
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
      'no definition has this identifier any more, and the target does not allow sync to delete: add `delete` ' +
        "to the target's `allow` in wfsync.config.yaml (or add `--allow delete` to the command) for sync to delete " +
        'it, or delete it in the dashboard, then run `wfsync state forget aardvark`.',
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
    expect(plan.items[0]).toHaveProperty(
      'error',
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

describe('buildPlan: lookups that failed or were never made', () => {
  const GONE = 'dddddddddddddddddddddddd';
  const recorded = stateWith({ alpha: entry(GONE, 'sha256:a') });
  const bug = (how: string) =>
    `the service was not asked for this workflow ${how} (a wfsync bug: please report it)`;
  const errorItem = (error: string) => ({
    identifier: 'alpha',
    action: 'error',
    file: ALPHA.file,
    name: 'alpha',
    desiredHash: ALPHA.hash,
    stateId: GONE,
    stateHash: 'sha256:a',
    changes: [],
    error,
    next: 'nothing will be created or recorded for it: run the plan again once the service answers.',
  });

  it.each<[string, Omit<RemoteObservation, 'identifier'> | undefined, string]>([
    ['the recorded id was never looked up', undefined, bug('by its recorded id')],
    [
      'the recorded id was never looked up, only the identifier',
      { byIdentifier: notFound() },
      bug('by its recorded id'),
    ],
    ['the lookup by the recorded id failed', { byId: { status: 'error', message: 'GET: 502' } }, 'GET: 502'],
    [
      'a 404 on the recorded id, then the lookup by identifier failed',
      { byId: notFound('id'), byIdentifier: { status: 'error', message: 'GET: 503', httpStatus: 503 } },
      'GET: 503',
    ],
    [
      'a 404 on the recorded id, and the identifier never looked up',
      { byId: notFound('id') },
      bug('by identifier'),
    ],
  ])('%s: error, never missing-remotely or create', (_what, observation, error) => {
    const observations = observation === undefined ? [] : [{ identifier: 'alpha', ...observation }];
    expect(only(planOf([ALPHA], recorded, observations))).toEqual(errorItem(error));
  });

  it('a definition state does not know, never looked up: error, no body', () => {
    expect(only(planOf([ALPHA], stateWith(), [{ identifier: 'alpha', byId: notFound('id') }]))).toEqual({
      identifier: 'alpha',
      action: 'error',
      file: ALPHA.file,
      name: 'alpha',
      desiredHash: ALPHA.hash,
      changes: [],
      error: bug('by identifier'),
      next: 'nothing will be created or recorded for it: run the plan again once the service answers.',
    });
  });

  it.each<[string, Omit<RemoteObservation, 'identifier'> | undefined]>([
    ['the lookup failed', { byId: { status: 'error', message: 'GET: 503', httpStatus: 503 } }],
    ['never looked up', undefined],
  ])('an orphan (%s): orphaned, with nothing claimed about the service', (_what, observation) => {
    const observations = observation === undefined ? [] : [{ identifier: 'old', ...observation }];
    const plan = planOf([], stateWith({ old: entry(GONE, 'sha256:o') }), observations);
    expect(only(plan)).toEqual({
      identifier: 'old',
      action: 'orphaned',
      stateId: GONE,
      stateHash: 'sha256:o',
      changes: [],
      next:
        'no definition has this identifier any more, and the target does not allow sync to delete: add `delete` ' +
        "to the target's `allow` in wfsync.config.yaml (or add `--allow delete` to the command) for sync to delete " +
        'it, or delete it in the dashboard, then run `wfsync state forget old`.',
    });
    expect(plan.summary).toMatchObject({ orphaned: 1, error: 0 });
  });
});

describe('buildPlan: every item, exactly', () => {
  it('in sync by the recorded id: no diff, no body', () => {
    const workflow = stored(ALPHA);
    const item = only(
      planOf([ALPHA], stateWith({ alpha: entry(workflow._id, ALPHA.hash) }), [
        { identifier: 'alpha', byId: found(workflow, 'id') },
      ]),
    );
    expect(item).toEqual({
      identifier: 'alpha',
      action: 'in-sync',
      file: ALPHA.file,
      name: 'alpha',
      desiredHash: ALPHA.hash,
      stateId: workflow._id,
      stateHash: ALPHA.hash,
      remoteId: workflow._id,
      remoteVersion: `${workflow._id}@${workflow.updatedAt}#0`,
      changes: [],
      next: 'nothing to do.',
    });
  });

  it('the recorded id is gone and another workflow matches: says which id sync records', () => {
    const workflow = stored(ALPHA);
    const item = only(
      planOf([ALPHA], stateWith({ alpha: entry('dddddddddddddddddddddddd', ALPHA.hash) }), [
        { identifier: 'alpha', byId: notFound('id'), byIdentifier: found(workflow) },
      ]),
    );
    expect(item.next).toBe(
      `the recorded workflow dddddddddddddddddddddddd is gone, but ${workflow._id} matches the file: sync will ` +
        `record ${workflow._id} in state.`,
    );
  });

  it('the same change in file and dashboard: the exact next step', () => {
    const workflow = stored(ALPHA);
    const item = only(
      planOf([ALPHA], stateWith({ alpha: entry(workflow._id, 'sha256:old') }), [
        { identifier: 'alpha', byId: found(workflow, 'id') },
      ]),
    );
    expect(item.next).toBe(
      'nothing to change on the service (it already matches the changed file): sync will record the new hash in state.',
    );
  });

  it('a changed item carries the changes, the diff and the exact next step', () => {
    const workflow = edited(ALPHA);
    const item = only(
      planOf([ALPHA], stateWith({ alpha: entry(workflow._id, 'sha256:old') }), [
        { identifier: 'alpha', byId: found(workflow, 'id') },
      ]),
    );
    expect(item).toMatchObject({
      action: 'changed-locally',
      stateHash: 'sha256:old',
      remoteId: workflow._id,
      changes: [
        {
          pointer: '/steps/0/template/content',
          path: 'steps[0].template.content',
          kind: 'changed',
          desired: 'Hello {{who}}',
          actual: 'Hello {{who}} (edited)',
        },
      ],
    });
    expect(item.diff).toMatch(/^--- service: alpha\n\+\+\+ workflows\/alpha\.yaml\n/);
    expect(item.next).toBe(
      'the file changed since the workflow was created, and the service still holds that version, which sync ' +
        'cannot update: once the change is approved, make the same edit in the dashboard (sync then finds them ' +
        'equal and records it), or give the workflow a new name and identifier so sync creates it as a new one.',
    );
    expect(item.body).toBeUndefined();
  });

  it('a conflict says what to run, and names a duplicate the service made first', () => {
    const workflow = clone(stored(ALPHA));
    workflow.triggers[0]!.identifier = 'alpha-x7k2p';
    const item = only(planOf([ALPHA], stateWith(), [{ identifier: 'alpha', byIdentifier: found(workflow) }]));
    expect(item.action).toBe('conflict');
    expect(item.next).toBe(
      'the service holds it as `alpha-x7k2p`: it was created while `alpha` was taken, so the service has a ' +
        "duplicate (delete one in the dashboard). the service's workflow `alpha` differs from the file, and wfsync " +
        'cannot tell whether the file or the service changed (no state records it and no base was given): run ' +
        '`wfsync plan --base <branch>` (in a pull request, the base branch; CI sets GITHUB_BASE_REF), or commit ' +
        'the state file, to know; until then overwrite neither side.',
    );
  });

  it.each([
    ['another identifier that only starts like it', 'alphabet'],
    ['the identifier with a prefix', 'x-alpha-'],
  ])('no duplicate note for %s', (_what, identifier) => {
    const workflow = clone(stored(ALPHA));
    workflow.triggers[0]!.identifier = identifier;
    const item = only(planOf([ALPHA], stateWith(), [{ identifier: 'alpha', byIdentifier: found(workflow) }]));
    expect(item.next).toMatch(/^the service's workflow `alpha` differs/);
  });

  it('no duplicate note when only another field holds the suffixed identifier', () => {
    const workflow = clone(stored(ALPHA));
    workflow.name = 'alpha-copy';
    const item = only(planOf([ALPHA], stateWith(), [{ identifier: 'alpha', byIdentifier: found(workflow) }]));
    expect(item.changes.map((c) => c.path)).toEqual(['name']);
    expect(item.next).toMatch(/^the service's workflow `alpha` differs/);
  });

  it('a version the service does not report is still a version', () => {
    const workflow = clone(stored(ALPHA));
    delete workflow.updatedAt;
    delete workflow.__v;
    const item = only(planOf([ALPHA], stateWith(), [{ identifier: 'alpha', byIdentifier: found(workflow) }]));
    expect(item.remoteVersion).toBe(`${workflow._id}@#`);
  });

  it('two definitions with one identifier: each item names every file and nothing from the service', () => {
    const first = { ...ALPHA, file: 'workflows/a.yaml' };
    const second = { ...ALPHA, file: 'workflows/b.yaml' };
    const third = { ...ALPHA, file: 'workflows/c.yaml' };
    const plan = planOf(
      [third, first, second],
      stateWith({ alpha: entry('dddddddddddddddddddddddd', 'h') }),
      [{ identifier: 'alpha', byId: found(stored(ALPHA), 'id') }],
    );
    expect(plan.items[0]).toEqual({
      identifier: 'alpha',
      action: 'error',
      file: 'workflows/a.yaml',
      name: 'alpha',
      desiredHash: ALPHA.hash,
      changes: [],
      error: '3 definitions declare identifier alpha: workflows/c.yaml, workflows/a.yaml, workflows/b.yaml',
      next: 'rename all but one of these workflows (name and identifier): one identifier cannot name two workflows.',
    });
    expect(plan.items.map((i) => i.file)).toEqual([
      'workflows/a.yaml',
      'workflows/b.yaml',
      'workflows/c.yaml',
    ]);
    expect(plan.summary).toMatchObject({ error: 3, orphaned: 0 });
  });

  it('counts each action under its own key', () => {
    const names = ['create', 'in sync', 'drifted', 'changed', 'missing', 'conflict', 'error'];
    const [create, inSync, drifted, changed, missing, conflict, error] = names.map((n) => desiredNamed(n));
    const plan = planOf(
      [create!, inSync!, drifted!, changed!, missing!, conflict!, error!],
      stateWith({
        'in-sync': entry(stored(inSync!)._id, inSync!.hash),
        drifted: entry(stored(drifted!)._id, drifted!.hash),
        changed: entry(stored(changed!)._id, 'sha256:old'),
        missing: entry('dddddddddddddddddddddddd', missing!.hash),
        gone: entry('eeeeeeeeeeeeeeeeeeeeeeee', 'sha256:g'),
      }),
      [
        { identifier: 'create', byIdentifier: notFound() },
        { identifier: 'in-sync', byId: found(stored(inSync!), 'id') },
        { identifier: 'drifted', byId: found(edited(drifted!), 'id') },
        { identifier: 'changed', byId: found(edited(changed!), 'id') },
        { identifier: 'missing', byId: notFound('id'), byIdentifier: notFound() },
        { identifier: 'conflict', byIdentifier: found(edited(conflict!)) },
        { identifier: 'error', byIdentifier: { status: 'error', message: 'boom' } },
        { identifier: 'gone', byId: notFound('id') },
      ],
    );
    expect(plan.items.map((i) => [i.identifier, i.action])).toEqual([
      ['changed', 'changed-locally'],
      ['conflict', 'conflict'],
      ['create', 'create'],
      ['drifted', 'drifted'],
      ['error', 'error'],
      ['in-sync', 'in-sync'],
      ['missing', 'missing-remotely'],
      ['gone', 'orphaned'],
    ]);
    expect(plan.summary).toEqual({
      create: 1,
      update: 0,
      delete: 0,
      promote: 0,
      inSync: 1,
      drifted: 1,
      changedLocally: 1,
      missingRemotely: 1,
      conflict: 1,
      orphaned: 1,
      error: 1,
    });
  });
});

describe('buildPlan: the same order on every machine', () => {
  // Code-unit order: upper case before lower case, `_` between them, accented letters last. A locale-aware sort
  // (localeCompare, Intl.Collator) would put them otherwise.
  const identifiers = ['b', 'é', 'B', '_x', 'a', 'Z'];
  const expected = ['B', 'Z', '_x', 'a', 'b', 'é'];

  it('definitions by identifier, whatever order the files were read in', () => {
    const desired = identifiers.map((id) => desiredNamed(id));
    const observations = identifiers.map((identifier) => ({ identifier, byIdentifier: notFound() }));
    const forward = planOf(desired, stateWith(), observations);
    expect(forward.items.map((i) => i.identifier)).toEqual(expected);
    expect(planOf([...desired].reverse(), stateWith(), observations)).toEqual(forward);
  });

  it('orphans after the definitions, by identifier, whatever order state lists them in', () => {
    const workflows = Object.fromEntries(
      identifiers.map((id) => [id, entry('eeeeeeeeeeeeeeeeeeeeeeee', id)]),
    );
    const observations = identifiers.map((identifier) => ({ identifier, byId: notFound('id') }));
    const plan = planOf([desiredNamed('zz')], stateWith(workflows), [
      ...observations,
      { identifier: 'zz', byIdentifier: notFound() },
    ]);
    expect(plan.items.map((i) => i.identifier)).toEqual(['zz', ...expected]);
  });

  it('by identifier first, whatever the files are called', () => {
    const desired = [
      { ...desiredNamed('b'), file: 'workflows/1.yaml' },
      { ...desiredNamed('a'), file: 'workflows/2.yaml' },
    ];
    const observations = ['a', 'b'].map((identifier) => ({ identifier, byIdentifier: notFound() }));
    for (const input of [desired, [...desired].reverse()]) {
      expect(planOf(input, stateWith(), observations).items.map((i) => [i.identifier, i.file])).toEqual([
        ['a', 'workflows/2.yaml'],
        ['b', 'workflows/1.yaml'],
      ]);
    }
  });

  it('definitions sharing an identifier by file, in code-unit order', () => {
    const files = ['workflows/b.yaml', 'workflows/B.yaml', 'workflows/a.yaml'];
    const plan = planOf(
      files.map((file) => ({ ...ALPHA, file })),
      stateWith(),
      [{ identifier: 'alpha', byIdentifier: notFound() }],
    );
    expect(plan.items.map((i) => i.file)).toEqual([
      'workflows/B.yaml',
      'workflows/a.yaml',
      'workflows/b.yaml',
    ]);
  });
});
