import { describe, expect, it } from 'vitest';
import type { WorkflowResponse } from '../../../src/generated/workflow-response.js';
import { buildPromotionPlan, type PromotionInput } from '../../../src/plan/promotion.js';
import { remoteVersionOf } from '../../../src/plan/remote-version.js';
import type { DesiredWorkflow, PlanItemFields } from '../../../src/plan/types.js';
import type { RemoteLookup } from '../../../src/remote/index.js';
import type { StateEntry, StateFile } from '../../../src/state/types.js';
import { aWorkflowNamed } from '../../helpers/workflow.js';
import { clone, desiredOf, storedFor } from './helpers.js';

const PROD_GROUP = 'ffffffffffffffffffffffff';

function desiredNamed(name: string, active?: boolean): DesiredWorkflow {
  return desiredOf(
    aWorkflowNamed(name, {
      ...(active === undefined ? {} : { active }),
      steps: [{ template: { type: 'in_app', content: 'Hello {{who}}' } }],
    }),
  );
}

function stateWith(target: string, workflows: Record<string, StateEntry> = {}): StateFile {
  return { version: 1, target, baseUrl: 'https://api.example.com', workflows, pending: {} };
}

/** Development's copy, as sync created it. */
function inDevelopment(desired: DesiredWorkflow): WorkflowResponse {
  return storedFor(desired.body);
}

/** Production's copy of `source`, as promotion makes it: another id, the parent, the Production group. */
function inProduction(source: WorkflowResponse): WorkflowResponse {
  return {
    ...clone(source),
    _id: 'bbbbbbbbbbbbbbbbbbbbbbbb',
    _parentId: source._id,
    _notificationGroupId: PROD_GROUP,
  };
}

function synced(desired: DesiredWorkflow, workflow: WorkflowResponse): StateEntry {
  return {
    id: workflow._id,
    hash: desired.hash,
    origin: 'created',
    remoteVersion: remoteVersionOf(workflow),
    recordedAt: '2024-10-01T00:00:00.000Z',
  };
}

function planOne(
  desired: DesiredWorkflow,
  sides: { development?: WorkflowResponse; production?: RemoteLookup; sourceEntry?: StateEntry },
): PlanItemFields {
  const { identifier } = desired;
  const input: PromotionInput = {
    target: { name: 'production', baseUrl: 'https://api.example.com' },
    source: 'development',
    desired: [desired],
    state: stateWith('production'),
    sourceState: stateWith(
      'development',
      sides.sourceEntry === undefined ? {} : { [identifier]: sides.sourceEntry },
    ),
    development: new Map([
      [
        identifier,
        {
          identifier,
          byIdentifier:
            sides.development === undefined
              ? { status: 'not-found', via: 'identifier' }
              : { status: 'found', workflow: sides.development, via: 'identifier' },
        },
      ],
    ]),
    production: new Map(sides.production === undefined ? [] : [[identifier, sides.production]]),
    productionGroups: new Map([[desired.body.notificationGroupId, PROD_GROUP]]),
  };
  const plan = buildPromotionPlan(input);
  expect(plan.items).toHaveLength(1);
  return plan.items[0]!;
}

const ALPHA = desiredNamed('alpha', true);

describe('buildPromotionPlan: how each workflow is classified', () => {
  it('Development holds the file, Production lacks it: promote, naming the Development workflow', () => {
    const source = inDevelopment(ALPHA);
    const item = planOne(ALPHA, {
      development: source,
      production: { status: 'not-found', via: 'id' },
      sourceEntry: synced(ALPHA, source),
    });
    expect(item).toMatchObject({ action: 'promote', sourceId: source._id, changes: [] });
    expect(item.sourceVersion).toBe(remoteVersionOf(source));
    expect(item.next).toBe(
      '`wfsync sync` will apply its pending change in development, creating it in Production.',
    );
  });

  it("Production's copy equals the file (its group mapped to Production's): in sync", () => {
    const source = inDevelopment(ALPHA);
    const copy = inProduction(source);
    const item = planOne(ALPHA, {
      development: source,
      production: { status: 'found', workflow: copy, via: 'id' },
      sourceEntry: synced(ALPHA, source),
    });
    expect(item).toMatchObject({ action: 'in-sync', remoteId: copy._id, changes: [] });
  });

  it("Production's copy differs: promote, the diff from Production to the file", () => {
    const source = inDevelopment(ALPHA);
    const copy = inProduction(source);
    copy.steps[0]!.template!.content = 'Old {{who}}';
    const item = planOne(ALPHA, {
      development: source,
      production: { status: 'found', workflow: copy, via: 'id' },
    });
    expect(item.action).toBe('promote');
    expect(item.changes.map((c) => [c.path, c.actual, c.desired])).toEqual([
      ['steps[0].template.content', 'Old {{who}}', 'Hello {{who}}'],
    ]);
    expect(item.diff).toMatch(/^-.*content: Old \{\{who\}\}$/m);
    expect(item.diff).toMatch(/^\+.*content: Hello \{\{who\}\}$/m);
    expect(item.next).toContain("replacing Production's copy");
  });

  it('created without active: true: the plan says it arrives inactive', () => {
    const inactive = desiredNamed('beta');
    const item = planOne(inactive, { development: inDevelopment(inactive) });
    expect(item.action).toBe('promote');
    expect(item.next).toContain('it arrives inactive (the file does not set `active: true`)');
  });

  it('Development differs and the file changed since its sync: changed-locally, sync development first', () => {
    const source = inDevelopment(ALPHA);
    const older = { ...synced(ALPHA, source), hash: `sha256:${'1'.repeat(64)}` };
    const stale = clone(source);
    stale.steps[0]!.template!.content = 'Before {{who}}';
    const item = planOne(ALPHA, { development: stale, sourceEntry: older });
    expect(item.action).toBe('changed-locally');
    expect(item.next).toContain('sync it first (`wfsync sync --target development`), then promote');
  });

  it('Development differs though the file did not change since its sync: drifted, an unreviewed edit', () => {
    const source = inDevelopment(ALPHA);
    const entry = synced(ALPHA, source);
    const edited = clone(source);
    edited.steps[0]!.template!.content = 'Edited {{who}}';
    const item = planOne(ALPHA, { development: edited, sourceEntry: entry });
    expect(item.action).toBe('drifted');
    expect(item.next).toContain('promoting would ship an unreviewed edit');
  });

  it('Development equals the file but its version moved since the sync: drifted (an undeclared field)', () => {
    const source = inDevelopment(ALPHA);
    const entry = synced(ALPHA, source);
    const touched = { ...clone(source), updatedAt: '2025-01-01T00:00:00.000Z', __v: 3 };
    const item = planOne(ALPHA, { development: touched, sourceEntry: entry });
    expect(item.action).toBe('drifted');
    expect(item.next).toContain('in fields the file does not declare');
  });

  it('missing in Development: a person syncs development first', () => {
    const item = planOne(ALPHA, {});
    expect(item.action).toBe('missing-remotely');
    expect(item.next).toContain('development does not have this workflow: sync it first');
  });

  it('Production could not be read: error, nothing promoted', () => {
    const source = inDevelopment(ALPHA);
    const item = planOne(ALPHA, { development: source, production: { status: 'error', message: 'boom' } });
    expect(item).toMatchObject({ action: 'error', error: 'Production: boom' });
  });
});
