import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, get, post, start, workflowBody } from './helpers.js';

/** The dashboard's edit, `PUT /v1/workflows/{workflowId}`, over real HTTP. */

const put = (emulator: Parameters<typeof call>[0], id: string, json: unknown, key?: string) =>
  call(emulator, 'PUT', `/v1/workflows/${id}`, { json, ...(key === undefined ? {} : { key }) });

describe('PUT /v1/workflows/{workflowId}', () => {
  it('replaces the fields sent, keeps the rest and the identity, moves updatedAt, bumps __v', async () => {
    let now = Date.parse('2024-05-01T10:00:00.000Z');
    const emulator = await start({ seed: 3, clock: () => now });
    await post(emulator, workflowBody(emulator, { tags: ['a'] }));
    // As GET returns it (the create's answer adds the populated group).
    const created = (await get(emulator, 'order-shipped')).body.data;
    now += 60_000;
    const reply = await put(emulator, created._id, {
      name: 'Order Shipped (edited)',
      description: 'Edited in the dashboard.',
      active: true,
      draft: true,
      critical: null,
      preferenceSettings: { sms: false },
      unknownField: 1,
    });
    expect(reply.status).toBe(200);
    const updated = reply.body.data;
    expect(updated).toEqual({
      ...created,
      name: 'Order Shipped (edited)',
      description: 'Edited in the dashboard.',
      active: true,
      // The service sets draft from active, whatever was sent.
      draft: false,
      preferenceSettings: { email: true, sms: false, in_app: true, chat: true, push: true },
      updatedAt: '2024-05-01T10:01:00.000Z',
      __v: 1,
    });
    // The trigger identifier stays: applications keep triggering it.
    expect(updated.triggers[0].identifier).toBe('order-shipped');
    expect((await get(emulator, 'order-shipped')).body.data).toEqual(updated);
    expect(emulator.workflows()).toEqual([updated]);
  });

  it('new steps get new ids and the trigger’s variables are derived from them again', async () => {
    const emulator = await start({ seed: 4 });
    const created = (await post(emulator, workflowBody(emulator))).body.data;
    const reply = await put(emulator, 'order-shipped', {
      steps: [{ name: 'sms', template: { type: 'sms', content: 'Parcel {{trackingCode}}' } }],
    });
    expect(reply.status).toBe(200);
    const updated = reply.body.data;
    expect(updated.steps).toHaveLength(1);
    expect(updated.steps[0].template).toMatchObject({ type: 'sms', content: 'Parcel {{trackingCode}}' });
    expect(updated.steps[0]._id).not.toBe(created.steps[0]._id);
    expect(updated.triggers[0]).toMatchObject({
      _id: created.triggers[0]._id,
      identifier: 'order-shipped',
      variables: [{ name: 'trackingCode', type: 'String' }],
      subscriberVariables: [{ name: 'phone' }],
    });
  });

  it('answers the create’s validation messages for the fields sent, and changes nothing', async () => {
    const emulator = await start({ seed: 5, slugGeneration: 'v2' });
    await post(emulator, workflowBody(emulator));
    const before = emulator.workflows();
    const cases: Array<[unknown, unknown]> = [
      [{ name: 5 }, ['name must be a string']],
      [{ tags: ['x', 'x'] }, ["All tags's elements must be unique"]],
      [{ notificationGroupId: 'general' }, ['notificationGroupId must be a mongodb id']],
      [{ steps: [{ name: 'no template' }] }, 'Unexpected error: message template is missing'],
      [{ steps: [{ template: { type: 'fax' } }] }, [expect.stringMatching(/^type must be one of/)]],
      [{ active: 'yes' }, ['active must be a boolean value']],
    ];
    for (const [body, message] of cases) {
      const reply = await put(emulator, 'order-shipped', body);
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect(reply.body).toMatchObject({ statusCode: 400, message, error: 'Bad Request' });
    }
    expect(emulator.workflows()).toEqual(before);
  });

  it('is Development-only, 404 for an unknown workflow, and works on the notification-templates twin', async () => {
    const emulator = await start({ seed: 6, productionKeys: ['prod'] });
    const created = (await post(emulator, workflowBody(emulator))).body.data;
    const refused = await put(emulator, created._id, { name: 'x' }, 'prod');
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe('This action is only allowed in Development environment');
    expect((await put(emulator, created._id, { name: 'x' }, 'wrong')).body.message).toBe('API Key not found');
    const unknown = await put(emulator, '0123456789abcdef01234567', { name: 'x' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Template with id 0123456789abcdef01234567 not found');
    const twin = await call(emulator, 'PUT', `/v1/notification-templates/${created._id}`, {
      json: { description: 'via the twin' },
    });
    expect(twin.status).toBe(200);
    expect(twin.body.data.description).toBe('via the twin');
    expect((await call(emulator, 'PUT', '/v1/workflows', { json: {} })).status).toBe(404);
    expect(emulator.workflows()[0]!.name).toBe('Order Shipped');
  });

  it('persists the edit to the data file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wfsync-emulator-put-'));
    try {
      const dataFile = join(dir, 'data.json');
      const first = await start({ dataFile });
      await post(first, workflowBody(first));
      expect((await put(first, 'order-shipped', { description: 'kept' })).status).toBe(200);
      await first.close();
      const second = await start({ dataFile });
      expect((await get(second, 'order-shipped')).body.data.description).toBe('kept');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
