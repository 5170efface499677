import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../../src/apply/apply-plan.js';
import { harness, planNow, posts, readStateFile, runSync, simpleDesired } from './harness.js';

describe('the identifier the service gives a created workflow', () => {
  it('taken by another workflow after planning: the duplicate is reported, nothing is recorded', async () => {
    const h = await harness({
      desired: (groupId) => [simpleDesired(groupId, 'order shipped', 'order-shipped')],
    });
    const plan = await planNow(h);
    expect(plan.items.map((i) => i.action)).toEqual(['create']);
    // Created in the dashboard between plan and apply; its name slugs to the same identifier.
    const other = await h.client.createWorkflow(
      { ...h.desired[0]?.body, name: 'Order Shipped' },
      { idempotencyKey: 'dashboard', identifier: 'order-shipped' },
    );

    const result = await applyPlan({
      plan,
      desired: h.desired,
      client: h.client,
      store: h.store,
      concurrency: 1,
    });

    const duplicate = h.emu.workflows().find((w) => w._id !== other.workflow._id);
    const suffixed = duplicate?.triggers[0]?.identifier;
    expect(suffixed).toMatch(/^order-shipped-.+/);
    expect(result.status).toBe('failed');
    expect(result.outcomes).toEqual([
      {
        identifier: 'order-shipped',
        file: 'workflows/order-shipped.yaml',
        remoteId: duplicate?._id,
        outcome: 'failed',
        message: `the identifier order-shipped is taken by another workflow (id ${other.workflow._id}), so the service created a duplicate: workflow ${duplicate?._id} with the identifier ${suffixed}`,
        next: `delete workflow ${duplicate?._id} (${suffixed}) in the dashboard, then rename this workflow or adopt the existing one with \`wfsync pull order-shipped\``,
      },
    ]);
    const state = await readStateFile(h);
    expect(state.workflows).toEqual({});
    expect(state.pending).toEqual({});

    // The next run sees the other workflow under the identifier: a conflict, never a third POST.
    const postsBefore = posts(h.emu).length;
    const next = await runSync(h);
    expect(next.plan.items.map((i) => i.action)).toEqual(['conflict']);
    expect(posts(h.emu)).toHaveLength(postsBefore);
  });

  it('derived differently from the name: recorded anyway, so the next run does not create it again', async () => {
    // The older server slugs `orderShipped` to `ordershipped`, not the declared `order-shipped`.
    const h = await harness({
      desired: (groupId) => [simpleDesired(groupId, 'orderShipped', 'order-shipped')],
    });
    const { result } = await runSync(h);
    const [created] = h.emu.workflows();
    expect(created?.triggers[0]?.identifier).toBe('ordershipped');
    expect(result.outcomes[0]).toMatchObject({
      outcome: 'failed',
      remoteId: created?._id,
      message: `the service gave workflow ${created?._id} the identifier ordershipped, not order-shipped: triggers of order-shipped will not reach it`,
    });
    expect((await readStateFile(h)).workflows['order-shipped']).toMatchObject({ id: created?._id });

    const postsBefore = posts(h.emu).length;
    const next = await runSync(h);
    expect(next.plan.items[0]?.action).not.toBe('create');
    expect(posts(h.emu)).toHaveLength(postsBefore);
    expect(h.emu.workflows()).toHaveLength(1);
  });
});
