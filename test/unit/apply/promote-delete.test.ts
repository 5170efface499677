import { describe, expect, it } from 'vitest';
import { applyPromotion } from '../../../src/apply/promote-plan.js';
import type { ApplyStore } from '../../../src/apply/store.js';
import type { WorkflowResponse } from '../../../src/generated/workflow-response.js';
import type { Plan } from '../../../src/plan/types.js';
import type { ServiceChange } from '../../../src/remote/index.js';
import type { StateEntry, StateFile } from '../../../src/state/types.js';
import { stubClient } from '../../helpers/remote.js';
import { aWorkflowNamed } from '../../helpers/workflow.js';
import { clone, desiredOf, storedFor } from '../plan/helpers.js';

/**
 * applyPromotion with a promoted delete: only the deleted Development workflow's pending change is applied, the
 * Production copy is read back with the Production key (gone, or the item fails), and only then is it dropped from
 * state. A lost answer, a refused apply and a change applied meanwhile each end as the read says.
 */

const idOf = (n: number) => n.toString(16).padStart(24, '0');
const SOURCE_ID = idOf(100);
const COPY_ID = idOf(900);
const OURS = idOf(500);
const THEIRS = idOf(501);

interface WorldOptions {
  /** Development lists the delete's change. */
  pending?: boolean;
  /** What applying our change does: delete the copy (default), delete it then lose the answer, refuse, or nothing. */
  apply?: 'deletes' | 'answer-lost' | 'refused' | 'nothing';
  /** Production still has the copy before anything is applied. */
  copyPresent?: boolean;
}

function world(options: WorldOptions = {}) {
  const desired = desiredOf(
    aWorkflowNamed('alpha', { active: true, steps: [{ template: { type: 'in_app', content: 'Hi' } }] }),
  );
  const copies = new Map<string, WorkflowResponse>();
  if (options.copyPresent !== false)
    copies.set(COPY_ID, { ...clone(storedFor(desired.body)), _id: COPY_ID, _parentId: SOURCE_ID });
  const changes: ServiceChange[] = [
    { _id: THEIRS, _entityId: idOf(7), type: 'NotificationTemplate', enabled: false },
    ...(options.pending === false
      ? []
      : [{ _id: OURS, _entityId: SOURCE_ID, type: 'NotificationTemplate', enabled: false }]),
  ];
  const applied: string[] = [];
  const source = stubClient('development', {
    listPendingChanges: async () => changes,
    applyChange: async (id) => {
      applied.push(id);
      const how = options.apply ?? 'deletes';
      if (how === 'refused') throw new Error('503 from the service');
      if (how !== 'nothing' && id === OURS) copies.delete(COPY_ID);
      if (how === 'answer-lost') throw new Error('socket hang up');
      return [changes.find((c) => c._id === id)!];
    },
  });
  const production = stubClient('production', {
    listWorkflows: async () => [...copies.values()].map((w) => ({ _id: w._id, _parentId: SOURCE_ID })),
    getWorkflow: async (id) => copies.get(id),
  });
  const entry: StateEntry = { id: COPY_ID, hash: desired.hash, origin: 'created', recordedAt: '' };
  const recorded: Record<string, StateEntry> = { alpha: entry };
  const store: ApplyStore = {
    get snapshot(): StateFile {
      return { version: 1, target: 'production', baseUrl: '', workflows: { ...recorded }, pending: {} };
    },
    recordPending: async () => {},
    clearPending: async () => {},
    recordWorkflow: async (identifier, e) => {
      recorded[identifier] = e;
    },
    forget: async (identifier) => {
      delete recorded[identifier];
    },
  };
  const plan: Plan = {
    version: 1,
    target: { name: 'production', baseUrl: 'https://api.example.com' },
    items: [
      {
        identifier: 'alpha',
        action: 'delete',
        stateId: COPY_ID,
        remoteId: COPY_ID,
        remoteVersion: 'v',
        sourceId: SOURCE_ID,
        changes: [],
        next: '',
      },
    ],
    summary: {
      create: 0,
      update: 0,
      delete: 1,
      promote: 0,
      inSync: 0,
      drifted: 0,
      changedLocally: 0,
      missingRemotely: 0,
      conflict: 0,
      orphaned: 0,
      error: 0,
    },
    ignoredFields: [],
  };
  const run = () =>
    applyPromotion({
      plan,
      desired: [],
      source,
      sourceName: 'development',
      production,
      store,
      concurrency: 2,
    });
  return { run, applied, recorded, copies };
}

describe('applyPromotion: a promoted delete', () => {
  it("applies only the deleted workflow's change, finds the copy gone, then drops it from state", async () => {
    const w = world();
    const result = await w.run();
    expect(w.applied).toEqual([OURS]);
    expect(result.outcomes).toEqual([
      expect.objectContaining({ identifier: 'alpha', outcome: 'deleted', remoteId: COPY_ID }),
    ]);
    expect(result.outcomes[0]?.message).toContain('verified with the Production key');
    expect(result.summary.deleted).toBe(1);
    expect(result.status).toBe('ok');
    expect(w.recorded).toEqual({});
  });

  it("the apply's answer was lost after the service applied it: the read finds the copy gone, so it is deleted", async () => {
    const w = world({ apply: 'answer-lost' });
    const result = await w.run();
    expect(result.outcomes[0]).toMatchObject({ outcome: 'deleted' });
    expect(result.outcomes[0]?.message).toContain("the apply's answer was lost");
    expect(w.recorded).toEqual({});
  });

  it('the apply was refused and the copy is still there: failed, and state keeps the entry for the next run', async () => {
    const w = world({ apply: 'refused' });
    const result = await w.run();
    expect(result.outcomes[0]).toMatchObject({ outcome: 'failed' });
    expect(result.outcomes[0]?.message).toContain('not deleted: applying its pending delete failed: 503');
    expect(Object.keys(w.recorded)).toEqual(['alpha']);
  });

  it('the service answered, but Production still has the copy: failed, not forgotten', async () => {
    const w = world({ apply: 'nothing' });
    const result = await w.run();
    expect(result.outcomes[0]?.message).toBe(
      'its pending delete was applied, but Production still has its copy',
    );
    expect(Object.keys(w.recorded)).toEqual(['alpha']);
  });

  it('no pending change any more: nothing is applied; a copy already gone is dropped, one still there fails', async () => {
    const gone = world({ pending: false, copyPresent: false });
    const done = await gone.run();
    expect(gone.applied).toEqual([]);
    expect(done.outcomes[0]).toMatchObject({ outcome: 'deleted' });
    expect(gone.recorded).toEqual({});

    const kept = world({ pending: false });
    const failed = await kept.run();
    expect(kept.applied).toEqual([]);
    expect(failed.outcomes[0]).toMatchObject({ outcome: 'failed' });
    expect(failed.outcomes[0]?.message).toContain('Development no longer lists a pending change for it');
    expect(Object.keys(kept.recorded)).toEqual(['alpha']);
  });
});
