import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../../src/apply/apply-plan.js';
import { buildIdempotencyKey, lookupIdentifiersFor } from '../../../src/apply/idempotency.js';
import { reconcilePending } from '../../../src/apply/reconcile-pending.js';
import type { DesiredWorkflow } from '../../../src/plan/types.js';
import { RemoteError } from '../../../src/remote/index.js';
import { StateStore } from '../../../src/state/store.js';
import { type Harness, harness, planNow, posts, readStateFile, runSync, TARGET } from './harness.js';

function pendingFor(d: DesiredWorkflow) {
  return {
    identifier: d.identifier,
    lookupIdentifiers: lookupIdentifiersFor(d.identifier, d.body.name),
    name: d.body.name,
    hash: d.hash,
    idempotencyKey: buildIdempotencyKey(TARGET, d.identifier, d.hash),
    startedAt: '2024-10-01T12:00:00.000Z',
  };
}

/** The state as the next process sees it: read from disk. */
async function reopen(h: Harness): Promise<Harness> {
  return { ...h, store: await StateStore.open(h.statePath, { target: TARGET, baseUrl: h.emu.url }) };
}

describe('the create journal', () => {
  it('an interrupted create that reached the service is recorded without a second POST', async () => {
    const h = await harness();
    const [first] = h.desired;
    if (first === undefined) throw new Error('no examples');
    // The previous run journaled the create, sent it, and died before recording the answer.
    await h.store.recordPending(pendingFor(first));
    const created = await h.client.createWorkflow(first.body, {
      idempotencyKey: pendingFor(first).idempotencyKey,
      identifier: first.identifier,
    });
    const next = await reopen(h);
    expect(next.store.snapshot.pending[first.identifier]).toBeDefined();

    const { reconciled, result } = await runSync(next);

    expect(reconciled).toEqual({
      recovered: [{ identifier: first.identifier, id: created.workflow._id, foundAs: first.identifier }],
      cleared: [],
      unresolved: [],
    });
    expect(result.outcomes.find((o) => o.identifier === first.identifier)).toMatchObject({
      outcome: 'in-sync',
      remoteId: created.workflow._id,
    });
    expect(result.summary.created).toBe(h.desired.length - 1);
    expect(posts(h.emu)).toHaveLength(h.desired.length);
    expect(h.emu.workflows()).toHaveLength(h.desired.length);
    const state = await readStateFile(h);
    expect(state.pending).toEqual({});
    expect(state.workflows[first.identifier]).toMatchObject({ id: created.workflow._id, origin: 'created' });
  });

  it('an interrupted create that never reached the service is cleared, then sent with the same key', async () => {
    const h = await harness();
    const [first] = h.desired;
    if (first === undefined) throw new Error('no examples');
    const journaled = pendingFor(first);
    await h.store.recordPending(journaled);
    const next = await reopen(h);

    const { reconciled, result } = await runSync(next);

    expect(reconciled.recovered).toEqual([]);
    expect(reconciled.cleared).toEqual([
      { identifier: first.identifier, reason: 'the interrupted create had not reached the service' },
    ]);
    expect(result.summary.created).toBe(h.desired.length);
    const keys = posts(h.emu).map((r) => r.idempotencyKey);
    expect(keys.filter((k) => k === journaled.idempotencyKey)).toHaveLength(1);
    expect(h.emu.workflows()).toHaveLength(h.desired.length);
    expect((await readStateFile(h)).pending).toEqual({});
  });

  it('an identifier held by another workflow is not mistaken for the interrupted create', async () => {
    const h = await harness();
    const [first] = h.desired;
    if (first === undefined) throw new Error('no examples');
    // Someone else's workflow whose name slugs to the same identifier.
    await h.client.createWorkflow(
      { ...first.body, name: first.body.name.toUpperCase() },
      { idempotencyKey: 'someone-else', identifier: first.identifier },
    );
    await h.store.recordPending(pendingFor(first));

    const report = await reconcilePending({ client: h.client, store: h.store });

    expect(report.recovered).toEqual([]);
    expect(report.cleared).toHaveLength(1);
    expect(report.cleared[0]?.reason).toContain(
      `${JSON.stringify(first.identifier)} belongs to the workflow named ${JSON.stringify(first.body.name.toUpperCase())}`,
    );
    expect(report.cleared[0]?.reason).toContain('duplicate');
    expect(h.store.snapshot.pending).toEqual({});
    expect(h.store.snapshot.workflows).toEqual({});
  });

  it('a journal entry that cannot be checked stays, and that workflow is not created in this run', async () => {
    const h = await harness();
    const [first, ...rest] = h.desired;
    if (first === undefined) throw new Error('no examples');
    const plan = await planNow(h);
    // Journaled by a run whose outcome reconciling could not settle (the service did not answer the lookup).
    await h.store.recordPending(pendingFor(first));

    const result = await applyPlan({
      plan,
      desired: h.desired,
      client: h.client,
      store: h.store,
      concurrency: 2,
    });

    expect(result.outcomes.find((o) => o.identifier === first.identifier)).toMatchObject({
      outcome: 'failed',
      message: expect.stringContaining('could not be checked'),
    });
    expect(result.summary.created).toBe(rest.length);
    expect(h.emu.workflows().map((w) => w.name)).not.toContain(first.body.name);
    expect(h.store.snapshot.pending[first.identifier]).toEqual(pendingFor(first));
  });

  it('a lookup that fails leaves the entry unresolved', async () => {
    const h = await harness({
      emulator: { faults: { errorRate: 1, only: ['GET'] } },
      client: { retries: { maxAttempts: 1 } },
    });
    const [first] = h.desired;
    if (first === undefined) throw new Error('no examples');
    await h.store.recordPending(pendingFor(first));
    const report = await reconcilePending({ client: h.client, store: h.store });
    expect(report.unresolved).toEqual([
      { identifier: first.identifier, message: expect.stringContaining('stays in the journal') },
    ]);
    expect(h.store.snapshot.pending[first.identifier]).toEqual(pendingFor(first));
  });

  it('a rejected key ends reconciling and leaves the journal as it was', async () => {
    const h = await harness({ client: { apiKey: 'wfs_not_a_key_of_this_service_00000' } });
    const [first] = h.desired;
    if (first === undefined) throw new Error('no examples');
    await h.store.recordPending(pendingFor(first));
    const error = await reconcilePending({ client: h.client, store: h.store }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteError);
    expect((error as RemoteError).kind).toBe('auth');
    expect(h.store.snapshot.pending[first.identifier]).toEqual(pendingFor(first));
  });
});
