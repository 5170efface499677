import { describe, expect, it } from 'vitest';
import { call, get, post, start, workflowBody } from './helpers.js';

const clock = () => Date.UTC(2024, 9, 1, 12, 0, 0, 0);

describe('API key authentication', () => {
  it.each([
    [{ key: null }, 'Missing authorization header'],
    [{ authorization: '' }, 'Missing authorization header'],
    [{ authorization: 'Bearer abc' }, 'Invalid authentication scheme: "Bearer"'],
    [{ authorization: 'apikey abc' }, 'Invalid authentication scheme: "apikey"'],
    [{ authorization: 'ApiKey' }, 'API Key not found'],
    [{ authorization: 'ApiKey ' }, 'API Key not found'],
    [{ key: 'wrong' }, 'API Key not found'],
  ])('%j → 401 %s on both operations', async (options, message) => {
    const emulator = await start({ clock });
    for (const reply of [
      await post(emulator, workflowBody(emulator), options),
      await get(emulator, 'x', options),
    ]) {
      expect(reply.status).toBe(401);
      expect(reply.body).toEqual({
        statusCode: 401,
        timestamp: '2024-10-01T12:00:00.000Z',
        path: expect.stringMatching(/^\/v1\/workflows/),
        message,
        error: 'Unauthorized',
      });
    }
    expect(emulator.workflows()).toEqual([]);
  });

  it('accepts the configured key, and a key with its own spaces', async () => {
    const emulator = await start({ apiKey: 'my key' });
    expect(emulator.apiKey).toBe('my key');
    expect((await post(emulator, workflowBody(emulator))).status).toBe(201);
    expect((await post(emulator, workflowBody(emulator), { key: 'my' })).status).toBe(401);
  });

  it('generates a random local key when none is given', async () => {
    const a = await start({ seed: 1 });
    const b = await start({ seed: 1 });
    expect(a.apiKey).toMatch(/^wfs_local_[0-9a-f]{32}$/);
    expect(a.apiKey).not.toBe(b.apiKey);
  });

  it('refuses creates with a Production key, which reads its own (empty) environment', async () => {
    const emulator = await start({ clock, productionKeys: ['prod-key'] });
    const created = await post(emulator, workflowBody(emulator));
    expect(created.status).toBe(201);
    const refused = await post(emulator, workflowBody(emulator, { name: 'Other' }), { key: 'prod-key' });
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({
      statusCode: 401,
      timestamp: '2024-10-01T12:00:00.000Z',
      path: '/v1/workflows',
      message: 'This action is only allowed in Development environment',
      error: 'Unauthorized',
    });
    expect(emulator.workflows()).toHaveLength(1);
    expect((await get(emulator, created.body.data._id, { key: 'prod-key' })).status).toBe(404);
    expect((await get(emulator, created.body.data._id)).status).toBe(200);
  });

  it('never records the Authorization header or the key', async () => {
    const emulator = await start({ apiKey: 'secret-key-123' });
    await post(emulator, workflowBody(emulator));
    await call(emulator, 'GET', '/v1/workflows/x', { authorization: 'ApiKey secret-key-123' });
    await call(emulator, 'GET', '/v1/workflows/x?key=1', { authorization: 'Bearer secret-key-123' });
    const records = emulator.requests();
    expect(records.map((r) => [r.method, r.path, r.status])).toEqual([
      ['POST', '/v1/workflows', 201],
      ['GET', '/v1/workflows/x', 404],
      ['GET', '/v1/workflows/x?key=1', 401],
    ]);
    expect(JSON.stringify(records)).not.toContain('secret-key-123');
    expect(JSON.stringify(records).toLowerCase()).not.toContain('authorization');
  });
});

describe('listening', () => {
  it.each(['0.0.0.0', '192.168.1.10', '::', 'example.com'])(
    'refuses the non-loopback host %s',
    async (host) => {
      await expect(start({ host })).rejects.toThrow(/loopback/);
    },
  );

  it('listens on ::1 when asked, with a bracketed URL', async () => {
    let emulator: Awaited<ReturnType<typeof start>>;
    try {
      emulator = await start({ host: '::1' });
    } catch (error) {
      // Hosts without IPv6 cannot bind ::1; nothing to check there.
      expect(String(error)).toMatch(/cannot listen/);
      return;
    }
    expect(emulator.url).toMatch(/^http:\/\/\[::1\]:\d+$/);
    expect((await get(emulator, 'x')).status).toBe(404);
  });

  it('reports a port already in use as a clear error', async () => {
    const first = await start();
    const port = Number(new URL(first.url).port);
    await expect(start({ port })).rejects.toThrow(
      `cannot listen on 127.0.0.1:${port}: the port is already in use`,
    );
  });
});
