import { describe, expect, it } from 'vitest';
import type { WorkflowResponse } from '../../../src/generated/workflow-response.js';
import { buildPlan, type PlanInput } from '../../../src/plan/build-plan.js';
import type { BaseVersion, DesiredWorkflow, PlanItemFields } from '../../../src/plan/types.js';
import type { RemoteObservation } from '../../../src/remote/index.js';
import type { StateFile } from '../../../src/state/types.js';
import { aWorkflowNamed } from '../../helpers/workflow.js';
import { clone, desiredOf, storedFor } from './helpers.js';

/**
 * The classification table of a workflow found on the service, with and without state, with and without a base
 * (`plan --base`): which class, what told it (attribution), and advice that never discards the change under review.
 */

const TARGET = { name: 'dev', baseUrl: 'https://api.example.com' };
const COMMIT = 'c'.repeat(40);

function alpha(content: string, file?: string): DesiredWorkflow {
  return desiredOf(aWorkflowNamed('alpha', { steps: [{ template: { type: 'in_app', content } }] }), { file });
}

/** The file in this change, and the same workflow as it was at the base. */
const FILE = alpha('Hello {{who}}, welcome');
const AT_BASE = alpha('Hello {{who}}');

/** What the service holds: the body of `desired`, or an edit of it made in the dashboard. */
const serviceAs = (desired: DesiredWorkflow): WorkflowResponse => storedFor(desired.body);
const dashboardEdit = (desired: DesiredWorkflow): WorkflowResponse => {
  const workflow = clone(serviceAs(desired));
  workflow.steps[0]!.template!.content = 'Hello {{who}} (edited in the dashboard)';
  return workflow;
};

const present = (desired: DesiredWorkflow): BaseVersion => ({ status: 'present', desired });

interface Row {
  file?: DesiredWorkflow;
  service: WorkflowResponse | undefined;
  /** Undefined: no `--base`. */
  base?: BaseVersion;
  /** A state entry recorded with this hash, found by its id. */
  stateHash?: string;
}

function itemOf(row: Row): PlanItemFields & { planBase?: unknown } {
  const desired = row.file ?? FILE;
  const service = row.service;
  const state: StateFile = { version: 1, target: 'dev', baseUrl: TARGET.baseUrl, workflows: {}, pending: {} };
  const observation: RemoteObservation = { identifier: 'alpha' } as RemoteObservation;
  if (row.stateHash !== undefined) {
    const id = service?._id ?? 'dddddddddddddddddddddddd';
    state.workflows.alpha = {
      id,
      hash: row.stateHash,
      origin: 'created',
      recordedAt: '2024-10-01T00:00:00.000Z',
    };
    observation.byId =
      service === undefined
        ? { status: 'not-found', via: 'id' }
        : { status: 'found', workflow: service, via: 'id' };
    if (service === undefined) observation.byIdentifier = { status: 'not-found', via: 'identifier' };
  } else {
    observation.byIdentifier =
      service === undefined
        ? { status: 'not-found', via: 'identifier' }
        : { status: 'found', workflow: service, via: 'identifier' };
  }
  const input: PlanInput = {
    target: TARGET,
    desired: [desired],
    state,
    observations: new Map([['alpha', observation]]),
  };
  if (row.base !== undefined) {
    const versions = new Map<string, BaseVersion>();
    if (row.base.status !== 'absent') versions.set('alpha', row.base);
    input.base = { ref: 'origin/main', commit: COMMIT, versions };
  }
  const plan = buildPlan(input);
  expect(plan.items).toHaveLength(1);
  expect(plan.base).toEqual(row.base === undefined ? undefined : { ref: 'origin/main', commit: COMMIT });
  return plan.items[0]!;
}

/** No class may advise what would overwrite this change's file: `wfsync pull` is for drift only. */
function expectNoDiscardingAdvice(item: PlanItemFields): void {
  if (item.action !== 'drifted') expect(item.next).not.toContain('wfsync pull');
}

describe('without state, with a base', () => {
  it('the service matches the file: in sync (sync records it), no attribution', () => {
    const item = itemOf({ service: serviceAs(FILE), base: present(AT_BASE) });
    expect(item.action).toBe('in-sync');
    expect(item.attribution).toBeUndefined();
    expect(item.next).toMatch(/sync will record it in state/);
  });

  it('new since the base, not on the service: create', () => {
    const item = itemOf({ service: undefined, base: { status: 'absent' } });
    expect(item.action).toBe('create');
    expect(item.attribution).toBeUndefined();
  });

  it('changed since the base, not on the service: create', () => {
    expect(itemOf({ service: undefined, base: present(AT_BASE) }).action).toBe('create');
  });

  it('new since the base, and the service has the identifier with something else: conflict (base)', () => {
    const item = itemOf({ service: serviceAs(AT_BASE), base: { status: 'absent' } });
    expect(item).toMatchObject({ action: 'conflict', attribution: 'base' });
    expect(item.next).toBe(
      'this change adds the file, but the service already has a workflow `alpha` that differs from it: give this ' +
        "one a new name and identifier so sync creates it, or make the dashboard's workflow match the file (sync " +
        "then records it); sync never overwrites the service's workflow.",
    );
    expectNoDiscardingAdvice(item);
  });

  it('unchanged since the base (same body hash), the service differs: drifted (base)', () => {
    const item = itemOf({ file: FILE, service: dashboardEdit(FILE), base: present(FILE) });
    expect(item).toMatchObject({ action: 'drifted', attribution: 'base' });
    expect(item.next).toBe(
      "this change does not touch the file, but the service's workflow differs (edited in the dashboard?): accept " +
        'it into the file with `wfsync pull alpha` in a change of its own, or change it back in the dashboard; ' +
        "sync never overwrites the service's workflow.",
    );
  });

  it('a base version under another file name with the same body (a rename, comments) is unchanged: drifted', () => {
    const renamed = alpha('Hello {{who}}, welcome', 'workflows/old-name.yaml');
    expect(renamed.hash).toBe(FILE.hash);
    const item = itemOf({ service: dashboardEdit(FILE), base: present(renamed) });
    expect(item).toMatchObject({ action: 'drifted', attribution: 'base' });
  });

  it('changed in this change, the service still holds the base version: changed-locally (base)', () => {
    const item = itemOf({ service: serviceAs(AT_BASE), base: present(AT_BASE) });
    expect(item).toMatchObject({ action: 'changed-locally', attribution: 'base' });
    expect(item.changes.map((c) => c.path)).toEqual(['steps[0].template.content']);
    expect(item.next).toBe(
      "this change edits the file, and the service still holds the base's version, but this target does not allow " +
        'updates: allow them (`allow: [create, update]` under the target in the config, or `--allow update` for one ' +
        'run) and sync updates it, or, once the change is approved, make the same edit in the dashboard (sync then ' +
        'finds them equal and records it).',
    );
    expectNoDiscardingAdvice(item);
  });

  it('changed in this change, and the service matches neither version: conflict (base), reconcile by hand', () => {
    const item = itemOf({ service: dashboardEdit(AT_BASE), base: present(AT_BASE) });
    expect(item).toMatchObject({ action: 'conflict', attribution: 'base' });
    expect(item.next).toMatch(/^this change edits the file and the service's workflow was changed too/);
    expect(item.next).toContain('reconcile them by hand');
    expectNoDiscardingAdvice(item);
  });

  it('a base version that could not be read: conflict (unknown), saying why', () => {
    const reason = 'workflows/alpha.yaml at the base is not a valid definition';
    const item = itemOf({ service: serviceAs(AT_BASE), base: { status: 'unreadable', reason } });
    expect(item).toMatchObject({ action: 'conflict', attribution: 'unknown' });
    expect(item.next).toContain(`(its definition at the base could not be read: ${reason})`);
    expectNoDiscardingAdvice(item);
  });
});

describe('without state or a base', () => {
  it('the service differs: conflict whose next says what cannot be known and how to know it', () => {
    const item = itemOf({ service: serviceAs(AT_BASE) });
    expect(item).toMatchObject({ action: 'conflict', attribution: 'unknown' });
    expect(item.next).toBe(
      "the service's workflow `alpha` differs from the file, and wfsync cannot tell whether the file or the service " +
        'changed (no state records it and no base was given): run `wfsync plan --base <branch>` (in a pull ' +
        'request, the base branch; CI sets GITHUB_BASE_REF), or commit the state file, to know; until then ' +
        'overwrite neither side.',
    );
    expectNoDiscardingAdvice(item);
  });

  it('the service matches: in sync; not there: create', () => {
    expect(itemOf({ service: serviceAs(FILE) }).action).toBe('in-sync');
    expect(itemOf({ service: undefined }).action).toBe('create');
  });
});

describe('with state (its hash decides, with or without a base)', () => {
  for (const base of [undefined, present(AT_BASE), present(FILE), { status: 'absent' } as const]) {
    const label = base === undefined ? 'no base' : `base ${base.status}`;

    it(`${label}: the file unchanged since created, the service differs: drifted (state)`, () => {
      const item = itemOf({ service: dashboardEdit(FILE), stateHash: FILE.hash, base });
      expect(item).toMatchObject({ action: 'drifted', attribution: 'state' });
      expect(item.next).toMatch(/^the file has not changed since the workflow was created/);
    });

    it(`${label}: the file changed since created: changed-locally (state), advice keeps the change`, () => {
      const item = itemOf({ service: serviceAs(AT_BASE), stateHash: AT_BASE.hash, base });
      expect(item).toMatchObject({ action: 'changed-locally', attribution: 'state' });
      expect(item.next).toMatch(/^the file changed since the workflow was created/);
      expectNoDiscardingAdvice(item);
    });

    it(`${label}: in sync and gone from the service carry no attribution`, () => {
      expect(itemOf({ service: serviceAs(FILE), stateHash: FILE.hash, base }).attribution).toBeUndefined();
      const gone = itemOf({ service: undefined, stateHash: FILE.hash, base });
      expect(gone.action).toBe('missing-remotely');
      expect(gone.attribution).toBeUndefined();
    });
  }

  it('the recorded id is gone and another workflow holds the identifier: the base decides', () => {
    const state: StateFile = {
      version: 1,
      target: 'dev',
      baseUrl: TARGET.baseUrl,
      workflows: {
        alpha: {
          id: 'd'.repeat(24),
          hash: FILE.hash,
          origin: 'created',
          recordedAt: '2024-10-01T00:00:00.000Z',
        },
      },
      pending: {},
    };
    const observations = new Map<string, RemoteObservation>([
      [
        'alpha',
        {
          identifier: 'alpha',
          byId: { status: 'not-found', via: 'id' },
          byIdentifier: { status: 'found', workflow: serviceAs(AT_BASE), via: 'identifier' },
        } as RemoteObservation,
      ],
    ]);
    const versions = new Map<string, BaseVersion>([['alpha', present(AT_BASE)]]);
    const plan = buildPlan({
      target: TARGET,
      desired: [FILE],
      state,
      observations,
      base: { ref: 'main', commit: COMMIT, versions },
    });
    expect(plan.items[0]).toMatchObject({ action: 'changed-locally', attribution: 'base' });
  });
});
