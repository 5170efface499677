import { describe, expect, it } from 'vitest';
import type { WorkflowResponse } from '../../../src/generated/workflow-response.js';
import { buildPlan, removedAtBase } from '../../../src/plan/build-plan.js';
import { remoteVersionOf } from '../../../src/plan/remote-version.js';
import type { BaseVersion, DesiredWorkflow, Plan, PlanItemFields } from '../../../src/plan/types.js';
import type { RemoteObservation } from '../../../src/remote/index.js';
import type { StateEntry, StateFile } from '../../../src/state/types.js';
import { aWorkflowNamed } from '../../helpers/workflow.js';
import { clone, desiredOf, storedFor } from './helpers.js';

/**
 * A workflow whose file was removed: `delete` only when the target allows it and the service still holds the
 * version wfsync knew (state's recorded version, else the base's definition); otherwise `orphaned`, saying why.
 */

const TARGET = { name: 'dev', baseUrl: 'https://api.example.com' };
const COMMIT = 'c'.repeat(40);
const OLD = desiredOf(
  aWorkflowNamed('old', { steps: [{ template: { type: 'in_app', content: 'Bye {{who}}' } }] }),
);
const SERVICE = storedFor(OLD.body);
const VERSION = remoteVersionOf(SERVICE);
const DELETE = new Set(['create', 'delete'] as const);
const CREATE_ONLY = new Set(['create'] as const);

const dashboardEdit = (): WorkflowResponse => {
  const workflow = clone(SERVICE);
  workflow.steps[0]!.template!.content = 'Bye {{who}} (edited)';
  workflow.updatedAt = '2031-01-01T00:00:00.000Z';
  workflow.__v = 1;
  return workflow;
};

function stateOf(entry?: Partial<StateEntry>): StateFile {
  const workflows: Record<string, StateEntry> =
    entry === undefined
      ? {}
      : {
          old: {
            id: SERVICE._id,
            hash: OLD.hash,
            origin: 'created',
            recordedAt: '2030-01-01T00:00:00.000Z',
            ...entry,
          },
        };
  return { version: 1, target: 'dev', baseUrl: TARGET.baseUrl, workflows, pending: {} };
}

interface Row {
  state: StateFile;
  observation?: Omit<RemoteObservation, 'identifier'>;
  allow?: ReadonlySet<'create' | 'update' | 'delete'>;
  atBase?: BaseVersion;
}

function planOf(row: Row): Plan {
  return buildPlan({
    target: TARGET,
    desired: [],
    state: row.state,
    observations: new Map(row.observation ? [['old', { identifier: 'old', ...row.observation }]] : []),
    allow: row.allow ?? DELETE,
    run: { target: 'dev', targetIsDefault: true },
    ...(row.atBase === undefined
      ? {}
      : { base: { ref: 'main', commit: COMMIT, versions: new Map([['old', row.atBase]]) } }),
  });
}

function only(plan: Plan): PlanItemFields {
  expect(plan.items).toHaveLength(1);
  return plan.items[0]!;
}

const byId = (workflow: WorkflowResponse | undefined) =>
  workflow === undefined
    ? {
        byId: { status: 'not-found', via: 'id' } as const,
        byIdentifier: { status: 'not-found', via: 'identifier' } as const,
      }
    : { byId: { status: 'found', workflow, via: 'id' } as const };

describe('buildPlan: a workflow in state whose file was removed', () => {
  it('delete allowed, the service holds the version recorded: delete (exit 2), with the copy to delete', () => {
    const plan = planOf({ state: stateOf({ remoteVersion: VERSION }), observation: byId(SERVICE) });
    expect(only(plan)).toEqual({
      identifier: 'old',
      action: 'delete',
      name: 'old',
      stateId: SERVICE._id,
      stateHash: OLD.hash,
      remoteId: SERVICE._id,
      remoteVersion: VERSION,
      changes: [],
      next:
        'no definition has this identifier any more, and the service still holds the version wfsync recorded: ' +
        'sync will delete it on the service and drop it from state.',
    });
    expect(plan.summary).toMatchObject({ delete: 1, orphaned: 0 });
  });

  it('delete not allowed: orphaned as before, saying how to allow it', () => {
    const plan = planOf({
      state: stateOf({ remoteVersion: VERSION }),
      observation: byId(SERVICE),
      allow: CREATE_ONLY,
    });
    expect(only(plan)).toMatchObject({ action: 'orphaned', remoteId: SERVICE._id, remoteVersion: VERSION });
    expect(only(plan).next).toBe(
      'no definition has this identifier any more, and target `dev` does not allow sync to delete: add `delete` ' +
        "to the target's `allow` in wfsync.config.yaml (or add `--allow delete` to the command) for sync to delete " +
        'it, or delete it in the dashboard, then run `wfsync state forget old`.',
    );
  });

  it('changed on the service since it was recorded: orphaned, a person decides', () => {
    const plan = planOf({ state: stateOf({ remoteVersion: VERSION }), observation: byId(dashboardEdit()) });
    const item = only(plan);
    expect(item.action).toBe('orphaned');
    expect(item.remoteVersion).not.toBe(VERSION);
    expect(item.next).toMatch(
      /changed since wfsync recorded it .*so sync will not delete it: a person decides/,
    );
  });

  it('a version-only save (same content, new updatedAt) also counts as changed: never deleted on a guess', () => {
    const saved = { ...clone(SERVICE), updatedAt: '2031-02-02T00:00:00.000Z' };
    expect(
      only(planOf({ state: stateOf({ remoteVersion: VERSION }), observation: byId(saved) })).action,
    ).toBe('orphaned');
  });

  it('no recorded version (an older entry): the base decides; without a base, orphaned saying why', () => {
    const unknown = only(planOf({ state: stateOf({}), observation: byId(SERVICE) }));
    expect(unknown.action).toBe('orphaned');
    expect(unknown.next).toMatch(/state recorded no version of it/);
    const sameAsBase = planOf({
      state: stateOf({}),
      observation: byId(SERVICE),
      atBase: { status: 'present', desired: OLD },
    });
    expect(only(sameAsBase)).toMatchObject({ action: 'delete', remoteVersion: VERSION });
    const editedSinceBase = planOf({
      state: stateOf({}),
      observation: byId(dashboardEdit()),
      atBase: { status: 'present', desired: OLD },
    });
    expect(only(editedSinceBase).action).toBe('orphaned');
  });

  it('already gone on the service, delete allowed: delete with no copy to delete (state only drops it)', () => {
    const item = only(planOf({ state: stateOf({ remoteVersion: VERSION }), observation: byId(undefined) }));
    expect(item).toMatchObject({ action: 'delete', stateId: SERVICE._id });
    expect(item.remoteId).toBeUndefined();
    expect(item.remoteVersion).toBeUndefined();
    expect(item.next).toBe(
      'no definition has this identifier and the service no longer has it: sync will drop it from state (nothing is sent).',
    );
  });

  it('already gone, delete not allowed: orphaned, "state forget" as before', () => {
    const item = only(
      planOf({
        state: stateOf({ remoteVersion: VERSION }),
        observation: byId(undefined),
        allow: CREATE_ONLY,
      }),
    );
    expect(item.action).toBe('orphaned');
    expect(item.next).toMatch(/state forget old/);
  });

  it('the lookup failed: orphaned, nothing claimed', () => {
    const item = only(
      planOf({
        state: stateOf({ remoteVersion: VERSION }),
        observation: { byId: { status: 'error', message: 'GET: 503', httpStatus: 503 } },
      }),
    );
    expect(item.action).toBe('orphaned');
    expect(item.remoteId).toBeUndefined();
  });
});

describe('buildPlan: a definition the base had, whose file this change removes, unknown to state', () => {
  const base = (observation: Omit<RemoteObservation, 'identifier'>, allow = DELETE) =>
    planOf({ state: stateOf(), observation, allow, atBase: { status: 'present', desired: OLD } });
  const byIdentifier = (workflow: WorkflowResponse) => ({
    byIdentifier: { status: 'found', workflow, via: 'identifier' } as const,
  });

  it("the service holds the base's version: delete, naming the removed file", () => {
    const item = only(base(byIdentifier(SERVICE)));
    expect(item).toEqual({
      identifier: 'old',
      action: 'delete',
      file: OLD.file,
      name: 'old',
      remoteId: SERVICE._id,
      remoteVersion: VERSION,
      changes: [],
      next: "this change removes its file, and the service still holds the base's version: sync will delete it on the service.",
    });
  });

  it("the service's copy differs from the base's: orphaned, a person decides", () => {
    const item = only(base(byIdentifier(dashboardEdit())));
    expect(item.action).toBe('orphaned');
    expect(item.next).toMatch(/differs from the base's version .*so sync will not delete it/);
  });

  it('gone from the service already: nothing to plan', () => {
    expect(base({ byIdentifier: { status: 'not-found', via: 'identifier' } }).items).toEqual([]);
  });

  it('delete not allowed: nothing planned, as before (and nothing to look up)', () => {
    expect(base(byIdentifier(SERVICE), CREATE_ONLY).items).toEqual([]);
  });

  it('a workflow wfsync never created or adopted and no base had is never deleted', () => {
    const plan = buildPlan({
      target: TARGET,
      desired: [],
      state: stateOf(),
      observations: new Map([['old', { identifier: 'old', ...byIdentifier(SERVICE) }]]),
      allow: DELETE,
      base: { ref: 'main', commit: COMMIT, versions: new Map([['old', { status: 'absent' }]]) },
    });
    expect(plan.items).toEqual([]);
  });

  it('removedAtBase: only what the base had, no file has now and state does not record', () => {
    const other: DesiredWorkflow = { ...OLD, identifier: 'kept' };
    const versions = new Map<string, BaseVersion>([
      ['old', { status: 'present', desired: OLD }],
      ['kept', { status: 'present', desired: other }],
      ['recorded', { status: 'present', desired: { ...OLD, identifier: 'recorded' } }],
      ['broken', { status: 'unreadable', reason: 'invalid' }],
    ]);
    const state = stateOf();
    state.workflows.recorded = {
      id: 'r'.repeat(24),
      hash: 'sha256:r',
      origin: 'created',
      recordedAt: '2030',
    };
    const files = new Map([['kept', other]]);
    expect(removedAtBase({ state, base: { ref: 'main', commit: COMMIT, versions } }, files)).toEqual(['old']);
  });
});
