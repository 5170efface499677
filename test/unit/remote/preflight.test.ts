import { describe, expect, it } from 'vitest';
import { fetchPreflightFacts, RemoteError } from '../../../src/remote/index.js';
import { clientFor, emulator } from './emulator-helpers.js';

/** The facts a plan checks before merge, asked of the emulator over real HTTP. */

describe('fetchPreflightFacts', () => {
  it('asks each route once when told to, nothing otherwise', async () => {
    const emu = await emulator({ notificationGroups: [{ name: 'transactional' }] });
    const { client } = clientFor(emu);
    const facts = await fetchPreflightFacts(client, { environment: true, groups: true });
    expect(facts.environment).toEqual({
      status: 'found',
      value: expect.objectContaining({ _id: emu.environmentId, name: 'Development' }),
    });
    expect(facts.groups).toEqual({
      status: 'found',
      value: emu.notificationGroups.map((g) => ({ _id: g.id, name: g.name })),
    });
    expect(
      emu
        .requests()
        .map((r) => `${r.method} ${r.path}`)
        .sort(),
    ).toEqual(['GET /v1/environments/me', 'GET /v1/notification-groups']);

    const none = await fetchPreflightFacts(client, { environment: false, groups: false });
    expect(none).toEqual({ environment: { status: 'not-asked' }, groups: { status: 'not-asked' } });
    expect(emu.requests()).toHaveLength(2);
  });

  it('a failure that does not end the command is "unavailable", with the client’s message', async () => {
    const emu = await emulator({ faults: { errorRate: 1 } });
    const { client } = clientFor(emu, { retries: { maxAttempts: 2 } });
    const facts = await fetchPreflightFacts(client, { environment: true, groups: false });
    expect(facts.environment).toEqual({
      status: 'unavailable',
      reason: expect.stringMatching(/^GET \/v1\/environments\/me: 500 Internal Server Error/),
    });
  });

  it('a refused key is "unavailable" too (the same key just read the workflows); an exhausted rate limit ends it', async () => {
    const emu = await emulator();
    const { client } = clientFor(emu, { apiKey: 'wfs_not_this_environment_key' });
    const facts = await fetchPreflightFacts(client, { environment: true, groups: true });
    expect(facts.environment).toMatchObject({
      status: 'unavailable',
      reason: expect.stringContaining('401'),
    });
    expect(facts.groups).toMatchObject({ status: 'unavailable' });
    expect(JSON.stringify(facts)).not.toContain('wfs_not_this_environment_key');

    const limited = await emulator({ faults: { rateLimitBurst: { every: 0, count: 1 } } });
    const { client: refused } = clientFor(limited, { retries: { rateLimitWaits: 1 } });
    const error = await fetchPreflightFacts(refused, { environment: true, groups: false }).catch((e) => e);
    expect(error).toBeInstanceOf(RemoteError);
    expect((error as RemoteError).kind).toBe('rate-limited');
  });
});
