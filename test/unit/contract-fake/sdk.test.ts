import { Novu } from '@novu/node';
import { afterEach, describe, expect, it } from 'vitest';
import { type ContractFake, startContractFake } from '../../helpers/contract-fake/index.js';

/**
 * The service's own Node SDK against the contract fake: the routes and query strings it uses (the
 * `/v1/notification-templates` twins, the changes API) are the ones the fake answers.
 */

const fakes: ContractFake[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((f) => f.close()));
});

function body(fake: ContractFake, name: string) {
  return {
    name,
    notificationGroupId: fake.groupId,
    steps: [{ name: 'bell', template: { type: 'in_app' as never, content: `Hi {{firstName}}, ${name}` } }],
  };
}

async function failure(call: Promise<unknown>): Promise<{ status: number; message: unknown }> {
  try {
    await call;
  } catch (error) {
    const response = (error as { response?: { status: number; data: { message: unknown } } }).response;
    if (response !== undefined) return { status: response.status, message: response.data.message };
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('the Node SDK against the contract fake', () => {
  it('notificationTemplates and changes, from create to Production', async () => {
    const fake = await startContractFake();
    fakes.push(fake);
    const novu = new Novu(fake.devKey, { backendUrl: fake.url });
    const production = new Novu(fake.prodKey, { backendUrl: fake.url });
    const { _id, steps } = (await novu.notificationTemplates.create(body(fake, 'Order Shipped'))).data.data;
    await novu.notificationTemplates.create(body(fake, 'Trial Ending'));
    expect((await novu.notificationTemplates.getOne(_id)).data.data._id).toBe(_id);

    const updated = await novu.notificationTemplates.update(_id, {
      name: 'Order Sent',
      steps: [
        { _templateId: steps[0]._templateId, template: { type: 'in_app', content: 'Sent {{orderId}}' } },
      ],
    } as never);
    expect(updated.data.data.steps[0]._templateId).toBe(steps[0]._templateId);
    expect(await failure(novu.notificationTemplates.update(_id, {} as never))).toEqual({
      status: 400,
      message: 'No properties found for update',
    });
    expect((await novu.notificationTemplates.updateStatus(_id, true)).data.data.active).toBe(true);
    expect((await failure(novu.notificationTemplates.updateStatus(_id, true))).status).toBe(400);
    const page = (await novu.notificationTemplates.getAll(1, 1)).data;
    expect(page).toMatchObject({ totalCount: 2, page: 1, pageSize: 1 });

    expect((await novu.changes.getCount()).data).toEqual({ data: 2 });
    const listed = (await novu.changes.get({ page: 0, limit: 1, promoted: false })).data;
    expect(listed).toMatchObject({ totalCount: 2, page: 0, pageSize: 1 });
    const all = (await novu.changes.get({ page: 0, limit: 10, promoted: false })).data.data;
    await novu.changes.applyOne(all[0]._id);
    await novu.changes.applyMany([all[1]._id]);
    expect((await novu.changes.getCount()).data).toEqual({ data: 0 });
    const copies = (await production.notificationTemplates.getAll()).data.data;
    expect(copies.map((w: { name: string }) => w.name).sort()).toEqual(['Order Sent', 'Trial Ending']);

    const deletedCopy = copies.find((w: { _parentId: string }) => w._parentId === _id)._id as string;
    expect((await novu.notificationTemplates.delete(_id)).data).toEqual({ data: true });
    expect((await failure(novu.notificationTemplates.delete(_id))).status).toBe(400);
    expect((await failure(production.notificationTemplates.delete(deletedCopy))).status).toBe(401);

    // The delete is a pending change too; applying it soft-deletes the Production copy (gone from GET and the list).
    const [deletion] = (await novu.changes.get({ page: 0, limit: 10, promoted: false })).data.data;
    expect(deletion).toMatchObject({ _entityId: _id, type: 'NotificationTemplate', enabled: false });
    expect((await novu.changes.applyOne(deletion._id)).status).toBe(201);
    expect((await failure(production.notificationTemplates.getOne(deletedCopy))).status).toBe(404);
    const left = (await production.notificationTemplates.getAll()).data.data;
    expect(left.map((w: { name: string }) => w.name)).toEqual(['Trial Ending']);
    expect((await novu.changes.getCount()).data).toEqual({ data: 0 });
  });
});
