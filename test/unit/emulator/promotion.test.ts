import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, get, post, start, workflowBody } from './helpers.js';

/** Promotion over real HTTP: the changes routes and what applying does to Production. */

const PROD = 'wfs_test_production_key';
type Emulator = Parameters<typeof call>[0];

async function pending(emulator: Emulator): Promise<Array<{ _id: string; _entityId: string }>> {
  return (await call(emulator, 'GET', '/v1/changes?promoted=false&limit=100')).body.data;
}

async function applyAll(emulator: Emulator): Promise<void> {
  const changeIds = (await pending(emulator)).map((c) => c._id);
  expect((await call(emulator, 'POST', '/v1/changes/bulk/apply', { json: { changeIds } })).status).toBe(201);
}

describe('promotion to Production', () => {
  it('creates the Production copy with a new _id, then overwrites it, keeping its ids and template copies', async () => {
    let now = Date.parse('2024-06-01T00:00:00.000Z');
    const emulator = await start({ seed: 31, productionKeys: [PROD], clock: () => now });
    const dev = (await post(emulator, workflowBody(emulator))).body.data;
    await applyAll(emulator);
    const [first] = emulator.productionWorkflows();
    expect(first).toMatchObject({ _parentId: dev._id, name: 'Order Shipped', active: false, draft: true });
    expect(first!._id).not.toBe(dev._id);
    expect(first!._environmentId).not.toBe(dev._environmentId);
    const template = first!.steps[0]!.template as { _id: string; _parentId: string };
    expect(template._parentId).toBe(dev.steps[0]._templateId);
    expect(template._id).not.toBe(dev.steps[0]._templateId);
    // The Production key reads it by its own id, and by identifier.
    expect((await get(emulator, first!._id, { key: PROD })).body.data).toEqual(first);
    expect((await get(emulator, 'order-shipped', { key: PROD })).body.data._id).toBe(first!._id);
    expect((await get(emulator, dev._id, { key: PROD })).status).toBe(404);

    now += 1000;
    const put = await call(emulator, 'PUT', `/v1/workflows/${dev._id}`, {
      json: {
        name: 'Order Sent',
        steps: [{ _templateId: dev.steps[0]._templateId, template: { type: 'in_app', content: 'Sent' } }],
      },
    });
    expect(put.status).toBe(200);
    await call(emulator, 'PUT', `/v1/workflows/${dev._id}/status`, { json: { active: true } });
    expect(await pending(emulator)).toHaveLength(1);
    await applyAll(emulator);
    const [second] = emulator.productionWorkflows();
    expect(second).toMatchObject({ _id: first!._id, name: 'Order Sent', active: true, draft: false, __v: 1 });
    expect(second!.steps[0]!._templateId).toBe(template._id);
    expect((second!.steps[0]!.template as { content: string }).content).toBe('Sent');
    expect(second!.createdAt).toBe(first!.createdAt);
  });

  it('promotes a group Production lacks on the way, once', async () => {
    const emulator = await start({
      seed: 32,
      productionKeys: [PROD],
      notificationGroups: [{ name: 'Billing' }],
    });
    const billing = emulator.notificationGroups.find((g) => g.name === 'Billing')!.id;
    await post(emulator, workflowBody(emulator, { notificationGroupId: billing }));
    await post(emulator, workflowBody(emulator, { name: 'Invoice Due', notificationGroupId: billing }));
    await applyAll(emulator);
    const groups = (await call(emulator, 'GET', '/v1/notification-groups', { key: PROD })).body.data;
    expect(groups.map((g: { name: string }) => g.name)).toEqual(['General', 'Billing']);
    const promoted = groups[1];
    expect(promoted._parentId).toBe(billing);
    expect(emulator.productionWorkflows().map((w) => w._notificationGroupId)).toEqual([
      promoted._id,
      promoted._id,
    ]);
  });

  it('a dashboard edit folds into the pending change, applying twice is harmless, a delete promotes', async () => {
    const emulator = await start({ seed: 33, productionKeys: [PROD] });
    const dev = (await post(emulator, workflowBody(emulator))).body.data;
    emulator.editWorkflow(dev._id, (w) => Object.assign(w, { description: 'From the dashboard.' }));
    const [change] = await pending(emulator);
    expect(change!._entityId).toBe(dev._id);
    const first = await call(emulator, 'POST', `/v1/changes/${change!._id}/apply`);
    expect(first.status).toBe(201);
    // Answered as found, before it was applied.
    expect(first.body.data.at(-1)).toMatchObject({ _id: change!._id, enabled: false });
    expect((await call(emulator, 'POST', `/v1/changes/${change!._id}/apply`)).status).toBe(201);
    expect(emulator.productionWorkflows()).toHaveLength(1);
    expect(emulator.productionWorkflows()[0]!.description).toBe('From the dashboard.');
    expect((await call(emulator, 'DELETE', `/v1/workflows/${dev._id}`)).body).toEqual({ data: true });
    await applyAll(emulator);
    expect(emulator.productionWorkflows()).toEqual([]);
    await post(emulator, workflowBody(emulator));
    emulator.reset();
    expect(emulator.pendingChanges()).toEqual([]);
    expect((await call(emulator, 'GET', '/v1/changes?promoted=true')).body.totalCount).toBe(0);
  });

  it('checks the list’s query as the service does and answers unknown changes with 404', async () => {
    const emulator = await start({ seed: 34 });
    const missing = await call(emulator, 'GET', '/v1/changes');
    expect(missing.status).toBe(400);
    expect(missing.body.message).toEqual(['promoted should not be null or undefined']);
    const big = await call(emulator, 'GET', '/v1/changes?promoted=false&limit=101&page=-1');
    expect(big.body.message).toEqual(['page must not be less than 0', 'limit must not be greater than 100']);
    expect((await call(emulator, 'GET', '/v1/workflows?limit=0')).body.message).toEqual([
      'limit must not be less than 1',
    ]);
    expect((await call(emulator, 'POST', '/v1/changes/0123456789abcdef01234567/apply')).status).toBe(404);
    const bulk = await call(emulator, 'POST', '/v1/changes/bulk/apply', { json: { changeIds: 'x' } });
    expect(bulk.status).toBe(400);
  });

  it('pages pending changes across several pages, newest first', async () => {
    const emulator = await start({ seed: 35 });
    for (let i = 0; i < 5; i++) await post(emulator, workflowBody(emulator, { name: `Flow ${i}` }));
    const page = async (n: number) =>
      (await call(emulator, 'GET', `/v1/changes?promoted=false&page=${n}&limit=2`)).body;
    const pages = [await page(0), await page(1), await page(2)];
    expect(pages.map((p) => p.totalCount)).toEqual([5, 5, 5]);
    expect(pages.flatMap((p) => p.data.map((c: { templateName: string }) => c.templateName))).toEqual([
      'Flow 4',
      'Flow 3',
      'Flow 2',
      'Flow 1',
      'Flow 0',
    ]);
    expect((await call(emulator, 'GET', '/v1/changes/count')).body).toEqual({ data: 5 });
  });

  it('keeps changes, Production copies and promoted groups across a restart on a data file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wfsync-emulator-promote-'));
    try {
      const dataFile = join(dir, 'data.json');
      const options = {
        dataFile,
        productionKeys: [PROD],
        notificationGroups: [{ name: 'Billing', id: 'ab'.repeat(12) }],
      };
      const first = await start(options);
      await post(first, workflowBody(first, { notificationGroupId: 'ab'.repeat(12) }));
      await applyAll(first);
      await post(first, workflowBody(first, { name: 'Still Pending' }));
      const production = first.productionWorkflows();
      await first.close();
      const second = await start(options);
      expect(second.productionWorkflows()).toEqual(production);
      expect((await pending(second)).length).toBe(1);
      const groups = (await call(second, 'GET', '/v1/notification-groups', { key: PROD })).body.data;
      expect(groups.map((g: { _id: string }) => g._id)).toContain(production[0]!._notificationGroupId);
      expect((await get(second, production[0]!._id, { key: PROD })).status).toBe(200);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
