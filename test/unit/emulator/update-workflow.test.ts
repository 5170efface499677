import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempProjects } from '../../helpers/temp-project.js';
import { call, get, post, start, workflowBody } from './helpers.js';

const tempProject = useTempProjects('wfsync-emulator-put-');

/** `PUT /v1/workflows/{workflowId}` with the service's update semantics, over real HTTP. */

type Emulator = Parameters<typeof call>[0];
const put = (emulator: Emulator, id: string, json: unknown, key?: string) =>
  call(emulator, 'PUT', `/v1/workflows/${id}`, { json, ...(key === undefined ? {} : { key }) });

/** Two steps: an email and an in-app message. */
async function twoSteps(emulator: Emulator) {
  const body = workflowBody(emulator, {
    steps: [
      {
        name: 'mail',
        filters: [
          { value: 'AND', children: [{ on: 'payload', field: 'vip', value: 'true', operator: 'EQUAL' }] },
        ],
        template: {
          type: 'email',
          subject: 'Hello {{name}}',
          content: 'Body',
          cta: undefined,
          feedId: undefined,
        },
      },
      {
        name: 'bell',
        template: { type: 'in_app', content: 'Ping', cta: { type: 'redirect', data: { url: '/x' } } },
      },
    ],
  });
  expect((await post(emulator, body)).status).toBe(201);
  return (await get(emulator, 'order-shipped')).body.data;
}

describe('PUT /v1/workflows/{workflowId}', () => {
  it('sets only non-empty fields, keeps the identity, moves updatedAt and bumps __v', async () => {
    let now = Date.parse('2024-05-01T10:00:00.000Z');
    const emulator = await start({ seed: 3, clock: () => now });
    await post(emulator, workflowBody(emulator, { tags: ['a'], description: 'Kept.' }));
    const created = (await get(emulator, 'order-shipped')).body.data;
    now += 60_000;
    const reply = await put(emulator, created._id, {
      name: 'Order Shipped (edited)',
      // An empty description is not set: a description cannot be cleared.
      description: '',
      tags: [],
      critical: false,
      preferenceSettings: { sms: false },
      // Not taken by this route (the status route sets them), nor unknown fields.
      active: true,
      draft: false,
      unknownField: 1,
    });
    expect(reply.status).toBe(200);
    const updated = reply.body.data;
    expect(updated).toEqual({
      ...created,
      name: 'Order Shipped (edited)',
      tags: [],
      preferenceSettings: { email: true, sms: false, in_app: true, chat: true, push: true },
      updatedAt: '2024-05-01T10:01:00.000Z',
      __v: 1,
    });
    expect(updated.description).toBe('Kept.');
    expect(updated.active).toBe(false);
    expect((await get(emulator, created._id)).body.data).toEqual(updated);
  });

  it('matches steps by _templateId only: kept templates keep their id, new ones get one, omitted ones go', async () => {
    const emulator = await start({ seed: 4 });
    const created = await twoSteps(emulator);
    const [mail, bell] = created.steps;
    const reply = await put(emulator, created._id, {
      steps: [
        // Reordered: the in-app step first, matched by its template id, whatever its name and _id say.
        {
          _id: mail._id,
          name: 'renamed',
          _templateId: bell._templateId,
          template: { type: 'in_app', content: '' },
        },
        // A new step: no _templateId (its _id and name match the old email step, which does not count).
        { _id: mail._id, name: 'mail', template: { type: 'sms', content: 'Parcel {{code}}' } },
      ],
    });
    expect(reply.status).toBe(200);
    const steps = reply.body.data.steps;
    expect(steps.map((s: { _templateId: string }) => s._templateId)).toEqual([
      bell._templateId,
      expect.any(String),
    ]);
    expect(steps[1]._templateId).not.toBe(mail._templateId);
    expect(steps[0]).toMatchObject({ _id: bell._templateId, _parentId: null, name: 'renamed' });
    expect(steps[1]._parentId).toBe(bell._templateId);
    // An empty content is not set; an omitted cta is removed; the type stays.
    expect(steps[0].template).toMatchObject({ type: 'in_app', content: 'Ping', _id: bell._templateId });
    expect(steps[0].template.cta).toBeUndefined();
    expect(steps[1].template).toMatchObject({ type: 'sms', content: 'Parcel {{code}}' });
    // The trigger's variables come from the steps as sent.
    expect(reply.body.data.triggers[0].variables).toEqual([expect.objectContaining({ name: 'code' })]);
    expect(reply.body.data.triggers[0].subscriberVariables).toEqual([
      expect.objectContaining({ name: 'phone' }),
    ]);
  });

  it('never changes a kept step’s type, and drops per-step fields left out', async () => {
    const emulator = await start({ seed: 5 });
    const created = await twoSteps(emulator);
    const mail = created.steps[0];
    const reply = await put(emulator, created._id, {
      steps: [{ _templateId: mail._templateId, template: { type: 'sms', content: 'Now an SMS?' } }],
    });
    const [step] = reply.body.data.steps;
    expect(step.template).toMatchObject({ type: 'email', subject: 'Hello {{name}}', content: 'Now an SMS?' });
    expect(step.filters).toEqual([]);
    expect(step.name).toBeUndefined();
    expect(reply.body.data.steps).toHaveLength(1);
  });

  it('`steps: []` removes every step; steps left out of the body keep them', async () => {
    const emulator = await start({ seed: 6 });
    const created = await twoSteps(emulator);
    expect((await put(emulator, created._id, { name: 'Renamed' })).body.data.steps).toHaveLength(2);
    expect((await put(emulator, created._id, { steps: [] })).body.data.steps).toEqual([]);
  });

  it('changes the identifier unless another workflow has it', async () => {
    const emulator = await start({ seed: 7 });
    const created = await twoSteps(emulator);
    await post(emulator, workflowBody(emulator, { name: 'Other' }));
    const clash = await put(emulator, created._id, { identifier: 'other' });
    expect(clash.status).toBe(400);
    expect(clash.body.message).toBe('Notification template with identifier other already exists');
    const renamed = await put(emulator, created._id, { identifier: 'parcel-sent' });
    expect(renamed.body.data.triggers[0].identifier).toBe('parcel-sent');
    expect((await get(emulator, 'parcel-sent')).body.data._id).toBe(created._id);
    // Its own identifier is not a clash.
    expect((await put(emulator, created._id, { identifier: 'parcel-sent' })).status).toBe(200);
  });

  it('answers the service’s 400s and 404s, and changes nothing', async () => {
    const emulator = await start({ seed: 8, slugGeneration: 'v2' });
    const created = await twoSteps(emulator);
    const before = emulator.workflows();
    const cases: Array<[string, unknown, number, unknown]> = [
      [created._id, { name: 5 }, 400, ['name must be a string']],
      [created._id, { tags: ['x', 'x'] }, 400, ["All tags's elements must be unique"]],
      [created._id, { notificationGroupId: 'general' }, 400, ['notificationGroupId must be a mongodb id']],
      [
        created._id,
        { steps: [{ template: { type: 'fax' } }] },
        400,
        [expect.stringMatching(/^type must be one of/)],
      ],
      [created._id, {}, 400, 'No properties found for update'],
      [created._id, { active: true, description: '', tags: null }, 400, 'No properties found for update'],
      [
        '0123456789abcdef01234567',
        { name: 'x' },
        404,
        'Notification template with id 0123456789abcdef01234567 not found',
      ],
      ['order-shipped', { name: 'x' }, 404, 'Notification template with id order-shipped not found'],
      [
        created._id,
        { steps: [{ _templateId: '0123456789abcdef01234567', template: { type: 'email' } }] },
        404,
        'Message template with id 0123456789abcdef01234567 not found',
      ],
    ];
    for (const [id, body, status, message] of cases) {
      const reply = await put(emulator, id, body);
      expect(reply.status, JSON.stringify(body)).toBe(status);
      expect(reply.body).toMatchObject({ statusCode: status, message });
    }
    expect(emulator.workflows()).toEqual(before);
  });

  it('is not atomic: a step failing half-way leaves the earlier template writes, not the new step list', async () => {
    const emulator = await start({ seed: 9 });
    const created = await twoSteps(emulator);
    const [mail, bell] = created.steps;
    const reply = await put(emulator, created._id, {
      steps: [
        { _templateId: mail._templateId, template: { type: 'email', content: 'Written' } },
        { name: 'no template' },
      ],
    });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe("Something un-expected happened, template couldn't be found");
    const after = (await get(emulator, created._id)).body.data;
    expect(after.steps.map((s: { _templateId: string }) => s._templateId)).toEqual([
      mail._templateId,
      bell._templateId,
    ]);
    expect(after.steps[0].template.content).toBe('Written');
    expect(after.updatedAt).toBe(created.updatedAt);
  });

  it('has no environment guard: a Production key edits the Production copy only', async () => {
    const emulator = await start({ seed: 10, productionKeys: ['prod'] });
    const created = await twoSteps(emulator);
    const missing = await put(emulator, created._id, { name: 'x' }, 'prod');
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe(`Notification template with id ${created._id} not found`);
    expect((await put(emulator, created._id, { name: 'x' }, 'wrong')).body.message).toBe('API Key not found');
  });

  it('a response lost after processing (a fault on PUT only) still leaves the edit stored', async () => {
    const emulator = await start({ seed: 11 });
    const { _id } = (await post(emulator, workflowBody(emulator))).body.data;
    emulator.setFaults({ resetAfterRate: 1, only: ['PUT'] });
    await expect(put(emulator, _id, { description: 'Landed.' })).rejects.toThrow();
    emulator.setFaults(undefined);
    expect((await get(emulator, _id)).body.data.description).toBe('Landed.');
    expect(emulator.requests().at(-2)).toMatchObject({ method: 'PUT', status: 200, fault: 'reset-after' });
  });

  it('persists the edit to the data file', async () => {
    const dir = tempProject();
    const dataFile = join(dir, 'data.json');
    const first = await start({ dataFile });
    const { _id } = (await post(first, workflowBody(first))).body.data;
    expect((await put(first, _id, { description: 'kept' })).status).toBe(200);
    await first.close();
    const second = await start({ dataFile });
    expect((await get(second, 'order-shipped')).body.data.description).toBe('kept');
  });
});
