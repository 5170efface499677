import { Novu } from '@novu/node';
import { describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { start } from './helpers.js';

/**
 * The service's own Node SDK (`@novu/node`, which reaches workflows through `/v1/notification-templates`) against
 * the started emulator over loopback HTTP: every workflow and changes route the SDK has and the emulator answers.
 */

const PROD_KEY = 'wfs_test_production_key';

function sdk(emulator: RunningEmulator, key = emulator.apiKey): Novu {
  return new Novu(key, { backendUrl: emulator.url });
}

/** An SDK call that must fail: its status and the service's error body. */
async function failure(call: Promise<unknown>): Promise<{ status: number; body: { message: unknown } }> {
  try {
    await call;
  } catch (error) {
    const response = (error as { response?: { status: number; data: { message: unknown } } }).response;
    if (response !== undefined) return { status: response.status, body: response.data };
    throw error;
  }
  throw new Error('expected the call to fail');
}

function body(emulator: RunningEmulator, name: string) {
  return {
    name,
    notificationGroupId: emulator.notificationGroupId,
    steps: [{ name: 'bell', template: { type: 'in_app' as never, content: `Hi {{firstName}}, ${name}` } }],
  };
}

describe('the Node SDK against the emulator', () => {
  it('create and getOne: the 201 and 200 envelopes, by id', async () => {
    const emulator = await start({ seed: 21 });
    const novu = sdk(emulator);
    const created = await novu.notificationTemplates.create(body(emulator, 'Order Shipped'));
    expect(created.status).toBe(201);
    const workflow = created.data.data;
    expect(workflow.triggers[0].identifier).toBe('order-shipped');
    const read = await novu.notificationTemplates.getOne(workflow._id);
    expect(read.status).toBe(200);
    expect(read.data.data).toEqual(emulator.workflows()[0]);
  });

  it('update, updateStatus, getAll and delete, with the service’s errors', async () => {
    const emulator = await start({ seed: 22 });
    const novu = sdk(emulator);
    const { _id, steps } = (await novu.notificationTemplates.create(body(emulator, 'Order Shipped'))).data
      .data;
    await novu.notificationTemplates.create(body(emulator, 'Trial Ending'));

    const updated = await novu.notificationTemplates.update(_id, {
      name: 'Order Sent',
      steps: [
        { _templateId: steps[0]._templateId, template: { type: 'in_app', content: 'Sent {{orderId}}' } },
      ],
    } as never);
    expect(updated.status).toBe(200);
    expect(updated.data.data).toMatchObject({ _id, name: 'Order Sent' });
    expect(updated.data.data.steps[0]).toMatchObject({ _templateId: steps[0]._templateId });
    expect(updated.data.data.steps[0].template.content).toBe('Sent {{orderId}}');
    const noop = await failure(novu.notificationTemplates.update(_id, {} as never));
    expect(noop).toMatchObject({ status: 400, body: { message: 'No properties found for update' } });

    const activated = await novu.notificationTemplates.updateStatus(_id, true);
    expect(activated.data.data).toMatchObject({ _id, active: true, draft: false });
    const same = await failure(novu.notificationTemplates.updateStatus(_id, true));
    expect(same).toMatchObject({
      status: 400,
      body: { message: 'You must provide a different status from the current status' },
    });

    const page = (await novu.notificationTemplates.getAll(0, 1)).data;
    expect(page).toMatchObject({ totalCount: 2, page: 0, pageSize: 1 });
    expect(page.data.map((w: { name: string }) => w.name)).toEqual(['Trial Ending']);
    const second = (await novu.notificationTemplates.getAll(1, 1)).data;
    expect(second.data.map((w: { _id: string }) => w._id)).toEqual([_id]);

    const deleted = await novu.notificationTemplates.delete(_id);
    expect(deleted.status).toBe(200);
    expect(deleted.data).toEqual({ data: true });
    expect((await failure(novu.notificationTemplates.getOne(_id))).status).toBe(404);
    const again = await failure(novu.notificationTemplates.delete(_id));
    expect(again).toMatchObject({ status: 400, body: { message: `Could not find workflow with id ${_id}` } });
    expect((await novu.notificationTemplates.getAll()).data.totalCount).toBe(1);
  });

  it('changes.get, getCount, applyOne and applyMany promote to Production', async () => {
    const emulator = await start({ seed: 23, productionKeys: [PROD_KEY] });
    const novu = sdk(emulator);
    const production = sdk(emulator, PROD_KEY);
    const ids: string[] = [];
    for (const name of ['Order Shipped', 'Trial Ending', 'Password Reset']) {
      ids.push((await novu.notificationTemplates.create(body(emulator, name))).data.data._id);
    }
    // An edit folds into the workflow's one pending change.
    await novu.notificationTemplates.update(ids[0]!, { description: 'Edited.' } as never);
    expect((await novu.changes.getCount()).data).toEqual({ data: 3 });
    const listed = (await novu.changes.get({ page: 0, limit: 2, promoted: false })).data;
    expect(listed).toMatchObject({ totalCount: 3, page: 0, pageSize: 2 });
    expect(listed.data.map((c: { templateName: string }) => c.templateName)).toEqual([
      'Password Reset',
      'Trial Ending',
    ]);
    const all = (await novu.changes.get({ page: 0, limit: 10, promoted: false })).data.data;
    const changeOf = (id: string) => all.find((c: { _entityId: string }) => c._entityId === id)._id as string;
    expect(
      all.every((c: { type: string; enabled: boolean }) => c.type === 'NotificationTemplate' && !c.enabled),
    ).toBe(true);

    const one = await novu.changes.applyOne(changeOf(ids[0]!));
    expect(one.status).toBe(201);
    const applied = one.data.data;
    // The step's template change (a hidden child) first, then the workflow's.
    expect(applied.map((c: { type: string }) => c.type)).toEqual(['MessageTemplate', 'NotificationTemplate']);
    const promoted = (await production.notificationTemplates.getAll()).data.data;
    expect(promoted).toHaveLength(1);
    expect(promoted[0]).toMatchObject({ _parentId: ids[0], description: 'Edited.', name: 'Order Shipped' });
    expect(promoted[0]._id).not.toBe(ids[0]);
    expect((await production.notificationTemplates.getOne(promoted[0]._id)).data.data.name).toBe(
      'Order Shipped',
    );

    // Applied oldest first whatever the order given; an unknown id is skipped.
    const many = await novu.changes.applyMany([
      changeOf(ids[2]!),
      '0123456789abcdef01234567',
      changeOf(ids[1]!),
    ]);
    expect(many.status).toBe(201);
    expect(many.data.data.map((c: Array<{ _entityId: string }>) => c.at(-1)!._entityId)).toEqual([
      ids[1],
      ids[2],
    ]);
    expect((await novu.changes.getCount()).data).toEqual({ data: 0 });
    expect((await novu.changes.get({ promoted: true })).data.totalCount).toBe(3);
    expect((await production.notificationTemplates.getAll()).data.totalCount).toBe(3);

    // A delete promotes too.
    const promotedCopies = (await production.notificationTemplates.getAll()).data.data;
    await novu.notificationTemplates.delete(ids[1]!);
    const [deletion] = (await novu.changes.get({ promoted: false })).data.data;
    await novu.changes.applyOne(deletion._id);
    const left = (await production.notificationTemplates.getAll()).data.data;
    expect(left.map((w: { _parentId: string }) => w._parentId).sort()).toEqual([ids[0], ids[2]].sort());
    const deletedCopy = promotedCopies.find((w: { _parentId: string }) => w._parentId === ids[1])._id;
    expect((await failure(production.notificationTemplates.getOne(deletedCopy))).status).toBe(404);
  });

  it('refuses a Production key what only Development may do', async () => {
    const emulator = await start({ seed: 24, productionKeys: [PROD_KEY] });
    const { _id } = (await sdk(emulator).notificationTemplates.create(body(emulator, 'Order Shipped'))).data
      .data;
    const [change] = (await sdk(emulator).changes.get({ promoted: false })).data.data;
    const production = sdk(emulator, PROD_KEY);
    const message = 'This action is only allowed in Development environment';
    for (const call of [
      production.notificationTemplates.create(body(emulator, 'Other')),
      production.notificationTemplates.delete(_id),
      production.notificationTemplates.updateStatus(_id, true),
    ]) {
      expect(await failure(call)).toMatchObject({ status: 401, body: { message } });
    }
    expect((await failure(production.changes.applyOne(change._id))).status).toBe(404);
    expect((await failure(production.changes.applyMany([change._id]))).status).toBe(404);
    expect((await production.changes.getCount()).data).toEqual({ data: 0 });
    expect(emulator.productionWorkflows()).toEqual([]);
    expect(emulator.workflows().map((w) => w._id)).toEqual([_id]);
  });
});
