import { describe, expect, it } from 'vitest';
import type { WriteAction } from '../../../src/generated/config.js';
import type { WorkflowResponse } from '../../../src/generated/workflow-response.js';
import { PLAN_ACTIONS } from '../../../src/plan/actions.js';
import { buildPromotionPlan } from '../../../src/plan/promotion.js';
import type { RemovedCopy } from '../../../src/plan/promotion-delete.js';
import { remoteVersionOf } from '../../../src/plan/remote-version.js';
import type { PlanItemFields } from '../../../src/plan/types.js';
import { buildPlanView } from '../../../src/report/plan/view.js';
import type { StateEntry, StateFile } from '../../../src/state/types.js';
import { aWorkflowNamed } from '../../helpers/workflow.js';
import { clone, desiredOf, storedFor } from './helpers.js';

/**
 * A promoted target's workflow whose file was removed: its delete is promoted only when the target allows `delete`,
 * Production's copy is the one wfsync promoted, Development deleted the workflow (and its state dropped it) and lists
 * a pending change for it; everything else needs a person, and says why.
 */

const ALPHA = desiredOf(
  aWorkflowNamed('alpha', {
    active: true,
    steps: [{ template: { type: 'in_app', content: 'Hello {{who}}' } }],
  }),
);
const SOURCE: WorkflowResponse = storedFor(ALPHA.body);
const COPY: WorkflowResponse = {
  ...clone(SOURCE),
  _id: 'bbbbbbbbbbbbbbbbbbbbbbbb',
  _parentId: SOURCE._id,
  _notificationGroupId: 'ffffffffffffffffffffffff',
};
const CHANGE = 'cccccccccccccccccccccccc';

function stateWith(target: string, workflows: Record<string, StateEntry> = {}): StateFile {
  return { version: 1, target, baseUrl: 'https://api.example.com', workflows, pending: {} };
}

/** The entry promotion recorded for `copy`. */
function promoted(copy: WorkflowResponse): StateEntry {
  return {
    id: copy._id,
    hash: ALPHA.hash,
    origin: 'created',
    file: ALPHA.file,
    remoteVersion: remoteVersionOf(copy),
    recordedAt: '2024-10-01T00:00:00.000Z',
  };
}

const DELETED: RemovedCopy = {
  production: { status: 'found', workflow: COPY, via: 'id' },
  development: { status: 'not-found', via: 'id' },
  pendingChangeId: CHANGE,
};

function planRemoved(
  read: RemovedCopy | undefined,
  options: { allow?: WriteAction[]; entry?: StateEntry; sourceEntry?: StateEntry } = {},
): PlanItemFields {
  const plan = buildPromotionPlan({
    target: { name: 'production', baseUrl: 'https://api.example.com' },
    source: 'development',
    desired: [],
    state: stateWith('production', { alpha: options.entry ?? promoted(COPY) }),
    sourceState: stateWith(
      'development',
      options.sourceEntry === undefined ? {} : { alpha: options.sourceEntry },
    ),
    development: new Map(),
    production: new Map(),
    productionGroups: new Map(),
    removed: new Map(read === undefined ? [] : [['alpha', read]]),
    allow: new Set(options.allow ?? ['create', 'delete']),
    run: { target: 'production', targetIsDefault: false },
  });
  expect(plan.items).toHaveLength(1);
  expect(plan.summary[PLAN_ACTIONS[plan.items[0]!.action].summaryKey]).toBe(1);
  return plan.items[0]!;
}

describe('buildPromotionPlan: a removed file on a promoted target', () => {
  it('Development deleted it and lists its pending change, delete allowed: delete, promoting that change', () => {
    const item = planRemoved(DELETED);
    expect(item).toMatchObject({
      action: 'delete',
      sourceId: SOURCE._id,
      remoteId: COPY._id,
      remoteVersion: remoteVersionOf(COPY),
      stateId: COPY._id,
      changes: [],
    });
    expect(item.next).toBe(
      'no definition has this identifier any more, and development deleted its workflow: `wfsync sync --target production` ' +
        "will apply that pending delete in development, deleting Production's copy, and drop it from state.",
    );
    // Production → nothing: every line of the copy removed, none added.
    const lines = item.diff!.split('\n');
    expect(lines.slice(0, 2)).toEqual(['--- service: alpha', '+++ /dev/null']);
    expect(lines).toContain('-name: alpha');
    expect(lines.filter((l) => l.startsWith('+') && !l.startsWith('+++'))).toEqual([]);
  });

  it('delete not allowed: orphaned (a person), naming the setting and the flag', () => {
    const item = planRemoved(DELETED, { allow: ['create'] });
    expect(item).toMatchObject({ action: 'orphaned', remoteId: COPY._id });
    expect(item.sourceId).toBeUndefined();
    expect(item.next).toContain('`targets.production.allow`');
    expect(item.next).toContain('`--allow delete`');
    expect(PLAN_ACTIONS[item.action].needsPerson).toBe(true);
  });

  it('Development still has the workflow: orphaned, sync development first (with delete allowed there)', () => {
    const item = planRemoved({ ...DELETED, development: { status: 'found', workflow: SOURCE, via: 'id' } });
    expect(item.action).toBe('orphaned');
    expect(item.next).toContain('development still has its workflow');
    expect(item.next).toContain('`wfsync sync --target development`');
  });

  it("Development's workflow is gone, but the development state still records it: sync development first", () => {
    const sourceEntry = { ...promoted(SOURCE), id: SOURCE._id };
    const item = planRemoved(DELETED, { sourceEntry });
    expect(item.action).toBe('orphaned');
    expect(item.next).toContain('development still has its workflow (or its state still records it)');
  });

  it('deleted in Development with no pending change, Production still holding its copy: a person, told why', () => {
    const { pendingChangeId: _, ...withoutChange } = DELETED;
    const item = planRemoved(withoutChange);
    expect(item.action).toBe('orphaned');
    expect(item.next).toContain('development has no pending change for it');
    expect(item.next).toContain('`wfsync state forget alpha --target production`');
  });

  it("Production's copy is not the version wfsync promoted: never deleted without a person", () => {
    const moved = { ...clone(COPY), updatedAt: '2025-02-01T00:00:00.000Z', __v: 4 };
    const item = planRemoved({ ...DELETED, production: { status: 'found', workflow: moved, via: 'id' } });
    expect(item.action).toBe('orphaned');
    expect(item.next).toContain("Production's copy is not the version wfsync promoted");
  });

  it("Production's copy names no Development workflow: a person", () => {
    const { _parentId: _, ...orphanCopy } = clone(COPY);
    const item = planRemoved(
      { production: { status: 'found', workflow: orphanCopy as WorkflowResponse, via: 'id' } },
      { entry: promoted(orphanCopy as WorkflowResponse) },
    );
    expect(item.action).toBe('orphaned');
    expect(item.next).toContain('names no development workflow it was promoted from');
  });

  it('Production no longer has it (a crash after the apply): delete, which only drops it from state', () => {
    const item = planRemoved({ production: { status: 'not-found', via: 'id' } });
    expect(item).toMatchObject({ action: 'delete', stateId: COPY._id });
    expect(item.remoteId).toBeUndefined();
    expect(item.sourceId).toBeUndefined();
    expect(item.next).toContain('will drop it from state (nothing is sent)');
    const notAllowed = planRemoved({ production: { status: 'not-found', via: 'id' } }, { allow: ['create'] });
    expect(notAllowed.action).toBe('orphaned');
    expect(notAllowed.next).toContain('`wfsync state forget alpha --target production`');
  });

  it('Production or Development could not be read: error, nothing deleted', () => {
    expect(planRemoved({ production: { status: 'error', message: 'boom' } })).toMatchObject({
      action: 'error',
      error: 'Production: boom',
    });
    expect(planRemoved({ ...DELETED, development: { status: 'error', message: 'down' } })).toMatchObject({
      action: 'error',
      error: 'Development: down',
    });
  });

  it('the plan says it promotes where it deletes only: its closing verb is not "create"', () => {
    const plan = buildPromotionPlan({
      target: { name: 'production', baseUrl: 'https://api.example.com' },
      source: 'development',
      desired: [],
      state: stateWith('production', { alpha: promoted(COPY) }),
      sourceState: stateWith('development'),
      development: new Map(),
      production: new Map(),
      productionGroups: new Map(),
      removed: new Map([['alpha', DELETED]]),
      allow: new Set(['create', 'delete']),
      run: { target: 'production', targetIsDefault: false },
    });
    expect(buildPlanView(plan, 'plan', { target: 'production', targetIsDefault: false }).closing).toBe(
      'Plan: 0 to promote, 1 to delete, 0 in sync. Run "wfsync sync --target production" to delete.',
    );
  });
});
