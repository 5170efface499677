import { describe, expect, it } from 'vitest';
import { createClient, RemoteError } from '../../../src/remote/index.js';
import { recordEvents, VirtualClock } from '../../helpers/remote.js';
import { clientFor, emulator, rejection } from './emulator-helpers.js';
import { answerJson as json, httpService as service } from './servers.js';

/** The two read-only routes about the key's environment, over real HTTP: the emulator, or a server of our own. */

const CANARY = 'wfs_canary_7d3f0e9a1b2c4d5e6f708192a3b4c5d6';

function clientOf(url: string, options: { onEvent?: (e: unknown) => void; basePath?: string } = {}) {
  const clock = new VirtualClock();
  const client = createClient({
    baseUrl: `${url}${options.basePath ?? ''}`,
    apiKey: 'wfs_test_key_0123456789',
    now: clock.now,
    sleep: clock.sleep,
    random: () => 0.5,
    retries: { maxAttempts: 3 },
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
  });
  return client;
}

const ENVIRONMENT = {
  _id: '65a1b2c3d4e5f60718293a4b',
  name: 'Development',
  _organizationId: '65a1b2c3d4e5f60718293a00',
  identifier: 'abc123',
  apiKeys: [{ key: CANARY, _userId: '65a1b2c3d4e5f60718293a01' }],
  widget: { notificationCenterEncryption: false },
};

describe('getCurrentEnvironment', () => {
  it('the emulator’s Development and Production environments, apiKeys never kept', async () => {
    const emu = await emulator({ developmentKeys: [CANARY], productionKeys: ['wfs_prod_key_0123456789'] });
    const recorder = recordEvents();
    const { client } = clientFor(emu, { onEvent: recorder.onEvent });
    const dev = await client.getCurrentEnvironment();
    expect(dev).toEqual({
      _id: emu.environmentId,
      name: 'Development',
      _organizationId: expect.stringMatching(/^[0-9a-f]{24}$/),
      identifier: expect.any(String),
    });
    expect(JSON.stringify(dev)).not.toContain(CANARY);
    expect(JSON.stringify(recorder.events)).not.toContain(CANARY);
    expect(recorder.events.map((e) => `${e.type} ${e.method} ${e.path} ${e.status ?? ''}`.trim())).toEqual([
      'request GET /v1/environments/me',
      'response GET /v1/environments/me 200',
    ]);

    const { client: production } = clientFor(emu, { apiKey: 'wfs_prod_key_0123456789' });
    const prod = await production.getCurrentEnvironment();
    expect(prod).toMatchObject({ name: 'Production', _parentId: emu.environmentId });
    expect(prod).not.toHaveProperty('apiKeys');
  });

  it('keeps only the fields wfsync uses, whatever else the service sends', async () => {
    const { url } = await service((_req, res) =>
      json(res, 200, { data: { ...ENVIRONMENT, _parentId: null } }),
    );
    const environment = await clientOf(url).getCurrentEnvironment();
    expect(environment).toEqual({
      _id: ENVIRONMENT._id,
      name: 'Development',
      _organizationId: ENVIRONMENT._organizationId,
      identifier: 'abc123',
    });
  });

  it('a 404 is "the service has no such route": undefined, not an error', async () => {
    const { url } = await service((req, res) =>
      json(res, 404, { statusCode: 404, message: `Cannot GET ${req.url}`, error: 'Not Found' }),
    );
    expect(await clientOf(url).getCurrentEnvironment()).toBeUndefined();
    expect(await clientOf(url).listNotificationGroups()).toBeUndefined();
    const { url: plain } = await service((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('Not Found');
    });
    expect(await clientOf(plain).getCurrentEnvironment()).toBeUndefined();
  });

  it('an answer of the wrong shape is a protocol error naming the field, never quoting the keys', async () => {
    const { url } = await service((_req, res) =>
      json(res, 200, { data: { ...ENVIRONMENT, _id: CANARY, name: 7 } }),
    );
    const error = await rejection(clientOf(url).getCurrentEnvironment());
    expect(error.kind).toBe('protocol');
    expect(error.message).toMatch(
      /^GET \/v1\/environments\/me: 200 with an answer that does not have the expected shape \(\/data\/_id must match pattern .*, \/data\/name must be string\)/,
    );
    expect(error.message).not.toContain(CANARY);
  });

  it('a body that does not parse is retried, and described without quoting it', async () => {
    // Unquoted, so that the parser's own message would quote the key's first characters.
    const broken = `{"data":{"apiKeys":[{"key":${CANARY}}]}}`;
    const { url, seen } = await service((_req, res) => json(res, 200, broken));
    const error = await rejection(clientOf(url).getCurrentEnvironment());
    expect(error.kind).toBe('protocol');
    expect(error.message).toContain('200 with a body that is not valid JSON');
    expect(seen).toHaveLength(3);
    for (const text of [error.message, error.stack, JSON.stringify(error), String(error.cause)]) {
      expect(text).not.toContain(CANARY.slice(0, 8));
    }
  });

  it('an answer nested past the limit is a protocol error, not retried, never a stack overflow', async () => {
    const deep = `{"data":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const { url, seen } = await service((_req, res) => json(res, 200, deep));
    const error = await rejection(clientOf(url).listNotificationGroups());
    expect(error.kind).toBe('protocol');
    expect(error.message).toContain('200 with a response nested deeper than 128 levels');
    expect(seen).toHaveLength(1);
  });

  it('goes through the same retries, base path and auth errors as a workflow GET', async () => {
    const { url, seen } = await service((req, res, n) => {
      if (n === 1) {
        res.writeHead(503, { 'retry-after': '0', 'content-type': 'application/json' });
        res.end('{"statusCode":503,"message":"Service Unavailable"}');
      } else if (req.headers.authorization !== 'ApiKey wfs_test_key_0123456789') json(res, 401, {});
      else json(res, 200, { data: ENVIRONMENT });
    });
    const environment = await clientOf(url, { basePath: '/api' }).getCurrentEnvironment();
    expect(environment?.name).toBe('Development');
    expect(seen.map((r) => r.path)).toEqual(['/api/v1/environments/me', '/api/v1/environments/me']);

    const { url: refusing } = await service((_req, res) =>
      json(res, 401, { statusCode: 401, message: 'API Key not found' }),
    );
    const error = await rejection(clientOf(refusing).getCurrentEnvironment());
    expect(error).toBeInstanceOf(RemoteError);
    expect(error.kind).toBe('auth');
  });
});

describe('listNotificationGroups', () => {
  it('the environment’s groups: id and name, General first', async () => {
    const emu = await emulator({ notificationGroups: [{ name: 'transactional' }] });
    const { client } = clientFor(emu);
    expect(await client.listNotificationGroups()).toEqual(
      emu.notificationGroups.map((g) => ({ _id: g.id, name: g.name })),
    );
    expect((await client.listNotificationGroups())?.[0]?.name).toBe('General');
  });

  it('checks the shape: an array of groups with ids', async () => {
    const { url } = await service((_req, res) =>
      json(res, 200, { data: [{ _id: 'general', name: 'General' }] }),
    );
    const error = await rejection(clientOf(url).listNotificationGroups());
    expect(error.message).toContain('/data/0/_id must match pattern');
    const { url: notArray } = await service((_req, res) => json(res, 200, { data: { _id: 'x' } }));
    expect((await rejection(clientOf(notArray).listNotificationGroups())).message).toContain(
      '/data must be array',
    );
  });
});
