import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../../src/apply/apply-plan.js';
import { buildSyncAdvice } from '../../../src/apply/create-failure.js';
import { deleteOne } from '../../../src/apply/delete-one.js';
import { remoteVersionOf } from '../../../src/plan/remote-version.js';
import type { DeleteItem } from '../../../src/plan/types.js';
import type { WorkflowResponse } from '../../../src/remote/index.js';
import { remoteError, world } from '../../helpers/create-world.js';
import { storedFor } from '../plan/helpers.js';
import { harness, planNow, readStateFile, runSync, simpleDesired } from './harness.js';

const DELETE = new Set(['create', 'delete'] as const);
const deletes = (h: Awaited<ReturnType<typeof harness>>) =>
  h.emu.requests().filter((r) => r.method === 'DELETE');

/** Two workflows created and recorded; then the file of `gone` is removed (the plan's desired lacks it). */
async function createdThenRemoved() {
  const h = await harness({
    desired: (group) => [simpleDesired(group, 'Kept', 'kept'), simpleDesired(group, 'Gone', 'gone')],
  });
  await runSync(h);
  const removed = { ...h, desired: h.desired.filter((d) => d.identifier !== 'gone') };
  return { h: removed, goneId: (await readStateFile(h)).workflows.gone!.id };
}

describe('sync with delete allowed, against the emulator', () => {
  it('deletes exactly the workflow whose file was removed, verifies the 404, drops it from state', async () => {
    const { h, goneId } = await createdThenRemoved();
    const { plan, result } = await runSync(h, { allow: DELETE });

    expect(plan.items.map((i) => [i.identifier, i.action])).toEqual([
      ['kept', 'in-sync'],
      ['gone', 'delete'],
    ]);
    expect(result.outcomes.at(-1)).toMatchObject({
      identifier: 'gone',
      outcome: 'deleted',
      remoteId: goneId,
      message: `id ${goneId}; deleted on the service`,
    });
    expect(result.status).toBe('ok');
    expect(deletes(h).map((r) => r.path)).toEqual([`/v1/workflows/${goneId}`]);
    expect(h.emu.workflows().map((w) => w.triggers[0]?.identifier)).toEqual(['kept']);
    expect(Object.keys((await readStateFile(h)).workflows)).toEqual(['kept']);
    // A second sync has nothing to do.
    const again = await runSync(h, { allow: DELETE });
    expect(again.plan.items.map((i) => i.action)).toEqual(['in-sync']);
    expect(deletes(h)).toHaveLength(1);
  });

  it('without delete allowed nothing changes: orphaned, no DELETE, state kept', async () => {
    const { h } = await createdThenRemoved();
    const { result } = await runSync(h);
    expect(result.outcomes.at(-1)).toMatchObject({ identifier: 'gone', outcome: 'orphaned' });
    expect(result.status).toBe('action-needed');
    expect(deletes(h)).toEqual([]);
    expect(Object.keys((await readStateFile(h)).workflows).sort()).toEqual(['gone', 'kept']);
  });

  it('a dashboard edit between the plan and the DELETE: skipped (exit 6), nothing deleted', async () => {
    const { h } = await createdThenRemoved();
    const plan = await planNow(h, { allow: DELETE });
    expect(plan.items.at(-1)?.action).toBe('delete');
    h.emu.editWorkflow('gone', (w) => {
      w.name = 'Gone (edited in the dashboard)';
    });
    const result = await applyPlan({
      plan,
      desired: h.desired,
      client: h.client,
      store: h.store,
      concurrency: 2,
    });
    expect(result.outcomes.at(-1)).toMatchObject({ identifier: 'gone', outcome: 'skipped' });
    expect(result.outcomes.at(-1)?.message).toMatch(/changed since the plan/);
    expect(result.status).toBe('action-needed');
    expect(deletes(h)).toEqual([]);
    expect((await readStateFile(h)).workflows.gone).toBeDefined();
    // The next plan leaves it to a person.
    expect((await planNow(h, { allow: DELETE })).items.at(-1)?.action).toBe('orphaned');
  });

  it('a crash after the DELETE, before state was written, converges: the next sync only drops it', async () => {
    const { h } = await createdThenRemoved();
    const plan = await planNow(h, { allow: DELETE });
    const item = plan.items.at(-1) as DeleteItem;
    // The DELETE reached the service; the process died before anything else.
    await h.client.deleteWorkflow(item.remoteId!);
    expect((await readStateFile(h)).workflows.gone).toBeDefined();

    const { plan: next, result } = await runSync(h, { allow: DELETE });
    expect(next.items.at(-1)).toMatchObject({ identifier: 'gone', action: 'delete' });
    expect(next.items.at(-1)?.remoteId).toBeUndefined();
    expect(result.outcomes.at(-1)).toMatchObject({ outcome: 'deleted' });
    expect(result.outcomes.at(-1)?.message).toMatch(/no longer has it: dropped from state; nothing was sent/);
    expect(result.status).toBe('ok');
    expect(deletes(h)).toHaveLength(1);
    expect((await readStateFile(h)).workflows.gone).toBeUndefined();
  });
});

describe('deleteOne, step by step', () => {
  const workflow = storedFor({ name: 'Gone', notificationGroupId: 'a'.repeat(24), steps: [] });
  const item: DeleteItem = {
    identifier: 'gone',
    action: 'delete',
    stateId: workflow._id,
    remoteId: workflow._id,
    remoteVersion: remoteVersionOf(workflow),
    changes: [],
    next: '',
  };
  const context = (w: ReturnType<typeof world>) => ({
    client: w.client,
    store: w.store,
    emit: w.emit,
    advice: buildSyncAdvice(),
  });

  it('reads, deletes, reads back (404), then drops the entry: in that order', async () => {
    let deleted = false;
    const w = world({
      get: async () => (deleted ? undefined : workflow),
      del: async () => {
        deleted = true;
      },
    });
    const { result } = await deleteOne(context(w), item);
    expect(result.outcome).toBe('deleted');
    expect(w.log.filter((s) => s.do !== 'emit')).toEqual([
      { do: 'GET', key: workflow._id },
      { do: 'DELETE', id: workflow._id },
      { do: 'GET', key: workflow._id },
      { do: 'forget', identifier: 'gone' },
    ]);
  });

  it('a lost answer to the DELETE: the read back finds it gone, so it is deleted', async () => {
    let deleted = false;
    const w = world({
      get: async () => (deleted ? undefined : workflow),
      del: async () => {
        deleted = true;
        throw remoteError('network', 'connection reset', { method: 'DELETE' });
      },
    });
    const { result } = await deleteOne(context(w), item);
    expect(result).toMatchObject({ outcome: 'deleted' });
    expect(result.message).toMatch(/answer was lost/);
  });

  it('a refused DELETE (401, a Production key): failed, the run stops, state kept', async () => {
    const w = world({
      get: async () => workflow,
      del: async () => {
        throw remoteError('auth', '401 only allowed in Development environment', { method: 'DELETE' });
      },
    });
    const outcome = await deleteOne(context(w), item);
    expect(outcome.result.outcome).toBe('failed');
    expect(outcome.stop).toBe('auth');
    expect(w.log.some((s) => s.do === 'forget')).toBe(false);
  });

  it('the service still has it after a DELETE it answered: failed, state kept', async () => {
    const w = world({ get: async () => workflow, del: async () => {} });
    const { result } = await deleteOne(context(w), item);
    expect(result).toMatchObject({
      outcome: 'failed',
      message: 'the service answered the DELETE, but still has the workflow',
    });
    expect(w.log.some((s) => s.do === 'forget')).toBe(false);
  });

  it('another version on the service now: skipped with no DELETE', async () => {
    const edited: WorkflowResponse = { ...workflow, updatedAt: '2031-01-01T00:00:00.000Z', __v: 3 };
    const w = world({ get: async () => edited });
    const { result } = await deleteOne(context(w), item);
    expect(result.outcome).toBe('skipped');
    expect(w.log.filter((s) => s.do !== 'emit')).toEqual([{ do: 'GET', key: workflow._id }]);
  });

  it('dropping it from state fails: failed, and the next run (which finds it gone) drops it', async () => {
    let deleted = false;
    const w = world({
      get: async () => (deleted ? undefined : workflow),
      del: async () => {
        deleted = true;
      },
      failing: { forget: new Error('EROFS') },
    });
    const outcome = await deleteOne(context(w), item);
    expect(outcome.result.outcome).toBe('failed');
    expect(outcome.result.message).toMatch(
      /deleted on the service, but dropping it from state failed \(EROFS\); the next run drops it/,
    );
    expect(outcome.stop).toBe('state');
  });
});
