import { describe, expect, it } from 'vitest';
import { applyPromotion } from '../../../src/apply/promote-plan.js';
import type { ApplyStore } from '../../../src/apply/store.js';
import type { WorkflowResponse } from '../../../src/generated/workflow-response.js';
import type { DesiredWorkflow, Plan, PlanItem } from '../../../src/plan/types.js';
import type { ServiceChange } from '../../../src/remote/index.js';
import type { StateEntry, StateFile } from '../../../src/state/types.js';
import { stubClient } from '../../helpers/remote.js';
import { aWorkflowNamed } from '../../helpers/workflow.js';
import { clone, desiredOf, storedFor } from '../plan/helpers.js';

const idOf = (n: number) => n.toString(16).padStart(24, '0');

function desiredNamed(name: string, layoutId?: string): DesiredWorkflow {
  const template = {
    type: 'email' as const,
    subject: 'Hi',
    content: 'Hello',
    ...(layoutId ? { layoutId } : {}),
  };
  return desiredOf(aWorkflowNamed(name, { active: true, steps: [{ template }] }));
}

/** Development's workflows by identifier, Production's copies appearing as their changes are applied. */
function service(desired: DesiredWorkflow[], others: ServiceChange[]) {
  const sources = new Map(
    desired.map((d, i) => [d.identifier, { ...storedFor(d.body), _id: idOf(100 + i) }]),
  );
  const changes: ServiceChange[] = [
    ...others,
    ...[...sources.values()].map((w, i) => ({
      _id: idOf(500 + i),
      _entityId: w._id,
      type: 'NotificationTemplate',
      enabled: false,
    })),
  ];
  const applied: string[] = [];
  const copies = new Map<string, WorkflowResponse>();
  const source = stubClient('development', {
    listPendingChanges: async () => changes,
    applyChange: async (id) => {
      applied.push(id);
      const change = changes.find((c) => c._id === id)!;
      const workflow = [...sources.values()].find((w) => w._id === change._entityId);
      if (workflow !== undefined) {
        const copyId = idOf(900 + copies.size);
        copies.set(copyId, { ...clone(workflow), _id: copyId, _parentId: workflow._id });
      }
      return [change];
    },
  });
  const production = stubClient('production', {
    listWorkflows: async () =>
      [...copies.values()].map((w) => ({ _id: w._id, _parentId: String(w._parentId) })),
    getWorkflow: async (id) => copies.get(id),
    listNotificationGroups: async () => [],
  });
  return { sources, source, production, applied };
}

function promotePlan(desired: DesiredWorkflow[], sources: Map<string, WorkflowResponse>): Plan {
  const items: PlanItem[] = desired.map((d) => ({
    identifier: d.identifier,
    action: 'promote',
    file: d.file,
    desiredHash: d.hash,
    sourceId: sources.get(d.identifier)!._id,
    sourceVersion: 'v',
    changes: [],
    next: '',
    ...(d.body.steps[0]?.template && (d.body.steps[0].template as { layoutId?: string }).layoutId
      ? { layoutIds: [(d.body.steps[0].template as { layoutId: string }).layoutId] }
      : {}),
  }));
  const summary = {
    create: 0,
    update: 0,
    delete: 0,
    promote: items.length,
    inSync: 0,
    drifted: 0,
    changedLocally: 0,
  };
  return {
    version: 1,
    target: { name: 'production', baseUrl: 'https://api.example.com' },
    items,
    summary: { ...summary, missingRemotely: 0, conflict: 0, orphaned: 0, error: 0 },
    ignoredFields: [],
  };
}

function memoryStore(): ApplyStore & { recorded: Record<string, StateEntry> } {
  const recorded: Record<string, StateEntry> = {};
  const snapshot: StateFile = { version: 1, target: 'production', baseUrl: '', workflows: {}, pending: {} };
  return {
    recorded,
    get snapshot() {
      return { ...snapshot, workflows: { ...recorded } };
    },
    recordPending: async () => {},
    clearPending: async () => {},
    recordWorkflow: async (identifier, entry) => {
      recorded[identifier] = entry;
    },
    forget: async (identifier) => {
      delete recorded[identifier];
    },
  };
}

describe('applyPromotion: which changes are applied', () => {
  it("only the promote items' own changes, the layouts they use first; never another workflow's", async () => {
    const layout = idOf(42);
    const desired = [desiredNamed('alpha', layout), desiredNamed('beta')];
    const others: ServiceChange[] = [
      { _id: idOf(1), _entityId: idOf(7), type: 'NotificationTemplate', enabled: false },
      { _id: idOf(2), _entityId: layout, type: 'Layout', enabled: false },
      { _id: idOf(3), _entityId: idOf(8), type: 'Layout', enabled: false },
    ];
    const world = service(desired, others);
    const store = memoryStore();
    const result = await applyPromotion({
      plan: promotePlan(desired, world.sources),
      desired,
      source: world.source,
      sourceName: 'development',
      production: world.production,
      store,
      concurrency: 1,
    });
    expect(world.applied).toEqual([idOf(2), idOf(500), idOf(501)]);
    expect(result.outcomes.map((o) => [o.identifier, o.outcome])).toEqual([
      ['alpha', 'promoted'],
      ['beta', 'promoted'],
    ]);
    expect(result.status).toBe('ok');
    expect(Object.keys(store.recorded)).toEqual(['alpha', 'beta']);
    expect(store.recorded.alpha?.id).toBe(idOf(900));
  });

  it('a workflow without a pending change is not promoted, and nothing of it is applied', async () => {
    const desired = [desiredNamed('alpha')];
    const world = service(desired, []);
    const plan = promotePlan(desired, world.sources);
    const lost = { ...plan, items: plan.items.map((i) => ({ ...i, sourceId: idOf(999) })) };
    const result = await applyPromotion({
      plan: lost,
      desired,
      source: world.source,
      sourceName: 'development',
      production: world.production,
      store: memoryStore(),
      concurrency: 1,
    });
    expect(world.applied).toEqual([]);
    expect(result.outcomes[0]).toMatchObject({ outcome: 'failed' });
    expect(result.outcomes[0]?.message).toContain('Development has no pending change for this workflow');
  });
});
