import { describe, expect, it } from 'vitest';
import { call, get, post, start, workflowBody } from './helpers.js';

/** The status route, the soft delete and the paged list, over real HTTP, on both route families. */

describe('PUT /v1/workflows/{id}/status', () => {
  it('sets active and draft with it, moves updatedAt, refuses the same status and bad bodies', async () => {
    let now = Date.parse('2024-07-01T00:00:00.000Z');
    const emulator = await start({ seed: 41, clock: () => now });
    const created = (await post(emulator, workflowBody(emulator))).body.data;
    now += 5000;
    const reply = await call(emulator, 'PUT', `/v1/notification-templates/${created._id}/status`, {
      json: { active: true },
    });
    expect(reply.status).toBe(200);
    expect(reply.body.data).toMatchObject({
      active: true,
      draft: false,
      updatedAt: '2024-07-01T00:00:05.000Z',
    });
    expect((await get(emulator, created._id)).body.data).toEqual(reply.body.data);
    const cases: Array<[string, unknown, number, unknown]> = [
      [created._id, { active: true }, 400, 'You must provide a different status from the current status'],
      [created._id, {}, 400, ['active should not be null or undefined', 'active must be a boolean value']],
      [created._id, { active: 'no' }, 400, ['active must be a boolean value']],
      [
        '0123456789abcdef01234567',
        { active: false },
        404,
        'Template with id 0123456789abcdef01234567 not found',
      ],
    ];
    for (const [id, json, status, message] of cases) {
      const answer = await call(emulator, 'PUT', `/v1/workflows/${id}/status`, { json });
      expect(answer.status, JSON.stringify(json)).toBe(status);
      expect(answer.body.message).toEqual(message);
    }
  });
});

describe('DELETE /v1/workflows/{id}', () => {
  it('soft-deletes: {data: true}, then GET 404, the list omits it, the identifier is free, a second delete 400', async () => {
    const emulator = await start({ seed: 42 });
    const created = (await post(emulator, workflowBody(emulator))).body.data;
    const reply = await call(emulator, 'DELETE', `/v1/workflows/${created._id}`);
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ data: true });
    expect((await get(emulator, created._id)).status).toBe(404);
    expect((await get(emulator, 'order-shipped')).status).toBe(404);
    expect((await call(emulator, 'GET', '/v1/workflows')).body.totalCount).toBe(0);
    expect(emulator.workflows()).toEqual([]);
    for (const id of [created._id, 'order-shipped']) {
      const again = await call(emulator, 'DELETE', `/v1/notification-templates/${id}`);
      expect(again.status).toBe(400);
      expect(again.body.message).toBe(`Could not find workflow with id ${id}`);
    }
    // The identifier is free again: no suffix.
    const recreated = (await post(emulator, workflowBody(emulator))).body.data;
    expect(recreated.triggers[0].identifier).toBe('order-shipped');
  });
});

describe('GET /v1/workflows?page&limit', () => {
  it('lists the key’s environment, newest first, paged, at the top level', async () => {
    const emulator = await start({ seed: 43, productionKeys: ['prod'] });
    for (const name of ['A', 'B', 'C']) await post(emulator, workflowBody(emulator, { name }));
    const first = (await call(emulator, 'GET', '/v1/workflows?page=0&limit=2')).body;
    expect(first).toMatchObject({ totalCount: 3, page: 0, pageSize: 2 });
    expect(first.data.map((w: { name: string }) => w.name)).toEqual(['C', 'B']);
    const rest = (await call(emulator, 'GET', '/v1/notification-templates?page=1&limit=2')).body;
    expect(rest.data.map((w: { name: string }) => w.name)).toEqual(['A']);
    // Defaults: page 0, limit 10.
    expect((await call(emulator, 'GET', '/v1/workflows')).body).toMatchObject({ page: 0, pageSize: 10 });
    const production = (await call(emulator, 'GET', '/v1/workflows', { key: 'prod' })).body;
    expect(production).toEqual({ data: [], totalCount: 0, page: 0, pageSize: 10 });
  });
});
