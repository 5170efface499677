import { describe, expect, it } from 'vitest';
import { call, start } from './helpers.js';

const clock = () => Date.UTC(2024, 9, 1, 12, 0, 0, 0);
const OBJECT_ID = /^[0-9a-f]{24}$/;

describe('GET /v1/environments/me', () => {
  it('answers the key’s environment, apiKeys included, as the service does', async () => {
    const emulator = await start({
      clock,
      seed: 7,
      developmentKeys: ['dev-second'],
      productionKeys: ['prod-1', 'prod-2'],
    });
    const dev = await call(emulator, 'GET', '/v1/environments/me');
    expect(dev.status).toBe(200);
    expect(dev.body.data).toEqual({
      _id: emulator.environmentId,
      name: 'Development',
      _organizationId: expect.stringMatching(OBJECT_ID),
      identifier: expect.any(String),
      apiKeys: [
        { key: emulator.apiKey, _userId: expect.stringMatching(OBJECT_ID) },
        { key: 'dev-second', _userId: expect.stringMatching(OBJECT_ID) },
      ],
      createdAt: '2024-10-01T12:00:00.000Z',
      updatedAt: '2024-10-01T12:00:00.000Z',
    });
    expect(dev.body.data).not.toHaveProperty('_parentId');
    // The second Development key is Development too.
    expect((await call(emulator, 'GET', '/v1/environments/me', { key: 'dev-second' })).body.data._id).toBe(
      emulator.environmentId,
    );

    const prod = await call(emulator, 'GET', '/v1/environments/me', { key: 'prod-2' });
    expect(prod.status).toBe(200);
    expect(prod.body.data).toMatchObject({
      name: 'Production',
      _parentId: emulator.environmentId,
      _organizationId: dev.body.data._organizationId,
      apiKeys: [{ key: 'prod-1' }, { key: 'prod-2' }],
    });
    expect(prod.body.data._id).not.toBe(emulator.environmentId);
    expect(prod.body.data.identifier).not.toBe(dev.body.data.identifier);
  });

  it('is routed as the service routes: any case, a trailing slash, a query; other methods are 404', async () => {
    const emulator = await start({ clock });
    for (const path of ['/v1/Environments/ME', '/v1/environments/me/', '/v1/environments/me?x=1']) {
      expect((await call(emulator, 'GET', path)).status, path).toBe(200);
    }
    const posted = await call(emulator, 'POST', '/v1/environments/me', { json: {} });
    expect(posted.status).toBe(404);
    expect(posted.body.message).toBe('Cannot POST /v1/environments/me');
  });

  it('needs a key like every route, and is rate limited and faulted like them', async () => {
    const emulator = await start({ clock, rateLimit: { limit: 1, windowSeconds: 1, burst: 1 } });
    const missing = await call(emulator, 'GET', '/v1/environments/me', { key: null });
    expect(missing.status).toBe(401);
    expect(missing.body.message).toBe('Missing authorization header');
    expect((await call(emulator, 'GET', '/v1/environments/me', { key: 'nope' })).body.message).toBe(
      'API Key not found',
    );
    const first = await call(emulator, 'GET', '/v1/environments/me');
    expect(first.status).toBe(200);
    expect(first.headers.get('ratelimit-limit')).toBe('1');
    const second = await call(emulator, 'GET', '/v1/notification-groups');
    expect(second.status).toBe(429);

    const faulty = await start({ clock, seed: 1, faults: { errorRate: 1 } });
    const failed = await call(faulty, 'GET', '/v1/environments/me');
    expect(failed.status).toBe(500);
    expect(failed.body.errorId).toEqual(expect.any(String));
    expect(faulty.requests().map((r) => r.fault)).toEqual(['error-500']);
  });
});

describe('GET /v1/notification-groups', () => {
  it('lists General first, then the configured groups, in the key’s environment', async () => {
    const emulator = await start({
      clock,
      seed: 2,
      productionKeys: ['prod'],
      notificationGroups: [{ name: 'transactional', id: '6650f0c0ffee00000000a001' }, { name: 'marketing' }],
    });
    const reply = await call(emulator, 'GET', '/v1/notification-groups');
    expect(reply.status).toBe(200);
    const groups = reply.body.data as Array<Record<string, unknown>>;
    expect(groups.map((g) => [g._id, g.name])).toEqual([
      [emulator.notificationGroupId, 'General'],
      ['6650f0c0ffee00000000a001', 'transactional'],
      [expect.stringMatching(OBJECT_ID), 'marketing'],
    ]);
    for (const group of groups) {
      expect(group).toMatchObject({
        _environmentId: emulator.environmentId,
        _organizationId: expect.stringMatching(OBJECT_ID),
        createdAt: '2024-10-01T12:00:00.000Z',
        updatedAt: '2024-10-01T12:00:00.000Z',
      });
    }
    expect(emulator.notificationGroups).toEqual(groups.map((g) => ({ id: g._id, name: g.name })));

    const production = (await call(emulator, 'GET', '/v1/notification-groups', { key: 'prod' })).body.data;
    expect(production).toHaveLength(1);
    expect(production[0]).toMatchObject({ name: 'General', _parentId: emulator.notificationGroupId });
    expect(production[0]._id).not.toBe(emulator.notificationGroupId);
    expect(production[0]._environmentId).not.toBe(emulator.environmentId);
  });

  it('configuring groups changes no workflow id (groups draw from their own stream)', async () => {
    const body = (e: { notificationGroupId: string }) => ({
      name: 'Hello',
      notificationGroupId: e.notificationGroupId,
      steps: [{ template: { type: 'chat', content: 'x' } }],
    });
    const plain = await start({ clock, seed: 9 });
    const withGroups = await start({ clock, seed: 9, notificationGroups: [{ name: 'a' }, { name: 'b' }] });
    const a = await call(plain, 'POST', '/v1/workflows', { json: body(plain) });
    const b = await call(withGroups, 'POST', '/v1/workflows', { json: body(withGroups) });
    expect(b.body.data._id).toBe(a.body.data._id);
    expect(withGroups.notificationGroupId).toBe(plain.notificationGroupId);
  });

  it('a repeated id (or General’s) is listed once', async () => {
    const first = await start({ clock, seed: 4 });
    const emulator = await start({
      clock,
      seed: 4,
      notificationGroups: [
        { name: 'again', id: first.notificationGroupId },
        { name: 'x', id: '6650f0c0ffee00000000a002' },
        { name: 'y', id: '6650f0c0ffee00000000a002' },
      ],
    });
    expect(emulator.notificationGroups.map((g) => g.name)).toEqual(['General', 'x']);
  });
});
