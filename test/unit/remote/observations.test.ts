import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createClient, fetchObservations, RemoteError } from '../../../src/remote/index.js';
import { emptyState } from '../../../src/state/format.js';
import { harness, simpleDesired, TARGET } from '../apply/harness.js';
import { workflowBody } from './emulator-helpers.js';

const GONE_ID = '0123456789abcdef01234567';

async function setup(options: Parameters<typeof harness>[0] = {}) {
  const h = await harness({
    desired: (groupId) => [simpleDesired(groupId, 'order shipped', 'order-shipped')],
    ...options,
  });
  const body = h.desired[0]?.body;
  return { h, body: body! };
}

describe('fetchObservations', () => {
  it('looks a workflow without a state entry up by identifier', async () => {
    const { h, body } = await setup();
    const created = await h.client.createWorkflow(body, {
      idempotencyKey: 'k1',
      identifier: 'order-shipped',
    });
    const observations = await fetchObservations({
      client: h.client,
      identifiers: ['order-shipped', 'welcome', 'order-shipped'],
      state: emptyState(TARGET, h.emu.url),
      concurrency: 2,
    });
    expect([...observations.keys()]).toEqual(['order-shipped', 'welcome']);
    expect(observations.get('order-shipped')).toEqual({
      identifier: 'order-shipped',
      byIdentifier: {
        status: 'found',
        via: 'identifier',
        workflow: expect.objectContaining({ _id: created.workflow._id }),
      },
    });
    expect(observations.get('welcome')).toEqual({
      identifier: 'welcome',
      byIdentifier: { status: 'not-found', via: 'identifier' },
    });
  });

  it('uses the recorded id, and only when it is gone asks by identifier too', async () => {
    const { h, body } = await setup();
    const created = await h.client.createWorkflow(body, {
      idempotencyKey: 'k1',
      identifier: 'order-shipped',
    });
    const state = emptyState(TARGET, h.emu.url);
    const entry = {
      hash: `sha256:${'0'.repeat(64)}`,
      origin: 'created' as const,
      recordedAt: '2024-10-01T00:00:00.000Z',
    };
    state.workflows['order-shipped'] = { id: created.workflow._id, ...entry };
    state.workflows.welcome = { id: GONE_ID, ...entry };
    const before = h.emu.requests().length;

    const observations = await fetchObservations({
      client: h.client,
      identifiers: ['order-shipped', 'welcome'],
      state,
      concurrency: 1,
    });

    expect(observations.get('order-shipped')).toEqual({
      identifier: 'order-shipped',
      byId: { status: 'found', via: 'id', workflow: expect.objectContaining({ _id: created.workflow._id }) },
    });
    expect(observations.get('welcome')).toEqual({
      identifier: 'welcome',
      byId: { status: 'not-found', via: 'id' },
      byIdentifier: { status: 'not-found', via: 'identifier' },
    });
    expect(
      h.emu
        .requests()
        .slice(before)
        .map((r) => r.path),
    ).toEqual([`/v1/workflows/${created.workflow._id}`, `/v1/workflows/${GONE_ID}`, '/v1/workflows/welcome']);
  });

  it('a lookup that fails becomes an error observation; the others go on', async () => {
    const { h } = await setup({
      emulator: { faults: { errorRate: 1, only: ['GET'] } },
      client: { retries: { maxAttempts: 1 } },
    });
    const observations = await fetchObservations({
      client: h.client,
      identifiers: ['order-shipped', 'welcome'],
      state: emptyState(TARGET, h.emu.url),
      concurrency: 2,
    });
    for (const identifier of ['order-shipped', 'welcome']) {
      expect(observations.get(identifier)?.byIdentifier).toEqual({
        status: 'error',
        httpStatus: 500,
        message: expect.stringContaining(`GET /v1/workflows/${identifier}: 500`),
      });
    }
  });

  it('a rejected key rejects the whole call', async () => {
    const { h } = await setup({ client: { apiKey: 'wfs_not_a_key_of_this_service_00000' } });
    const error = await fetchObservations({
      client: h.client,
      identifiers: ['order-shipped', 'welcome', 'other'],
      state: emptyState(TARGET, h.emu.url),
      concurrency: 1,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteError);
    expect((error as RemoteError).kind).toBe('auth');
    expect((error as RemoteError).message).toMatch(/^GET \/v1\/workflows\/order-shipped: 401/);
    // The list's 401 proved nothing (each is looked up then); the first lookup's stopped the ones not started.
    expect(h.emu.requests().map((r) => r.path)).toEqual([
      '/v1/workflows?page=0&limit=100',
      '/v1/workflows/order-shipped',
    ]);
  });

  it('an aborted signal starts no lookup and rejects with its reason', async () => {
    const { h } = await setup();
    const controller = new AbortController();
    const reason = new Error('interrupted');
    controller.abort(reason);
    const error = await fetchObservations({
      client: h.client,
      identifiers: ['order-shipped'],
      state: emptyState(TARGET, h.emu.url),
      concurrency: 1,
      signal: controller.signal,
    }).catch((e: unknown) => e);
    expect(error).toBe(reason);
    expect(h.emu.requests()).toHaveLength(0);
  });
});

describe('fetchObservations with more lookups by identifier than go at once', () => {
  const NEW = ['order-shipped', 'welcome', 'password-reset'];

  it('reads the list first and asks only for the identifiers it holds: the rest are absent', async () => {
    const { h, body } = await setup();
    const created = await h.client.createWorkflow(body, {
      idempotencyKey: 'k1',
      identifier: 'order-shipped',
    });
    const before = h.emu.requests().length;
    const observations = await fetchObservations({
      client: h.client,
      identifiers: NEW,
      state: emptyState(TARGET, h.emu.url),
      concurrency: 2,
    });
    expect(
      h.emu
        .requests()
        .slice(before)
        .map((r) => `${r.method} ${r.path}`),
    ).toEqual(['GET /v1/workflows?page=0&limit=100', 'GET /v1/workflows/order-shipped']);
    // What the lookups by identifier would have found, each.
    expect(Object.fromEntries(observations)).toEqual({
      'order-shipped': {
        identifier: 'order-shipped',
        byIdentifier: {
          status: 'found',
          via: 'identifier',
          workflow: expect.objectContaining({ _id: created.workflow._id }),
        },
      },
      welcome: { identifier: 'welcome', byIdentifier: { status: 'not-found', via: 'identifier' } },
      'password-reset': {
        identifier: 'password-reset',
        byIdentifier: { status: 'not-found', via: 'identifier' },
      },
    });
  });

  it('an environment the first page does not hold: every identifier is looked up, as without the list', async () => {
    const { h } = await setup();
    // One more than a page.
    for (let i = 0; i <= 100; i++) {
      const other = { ...workflowBody(h.emu, `Other ${i}`) };
      await h.client.createWorkflow(other, { idempotencyKey: `other-${i}`, identifier: `other-${i}` });
    }
    const before = h.emu.requests().length;
    const observations = await fetchObservations({
      client: h.client,
      identifiers: NEW,
      state: emptyState(TARGET, h.emu.url),
      concurrency: 2,
    });
    expect(
      h.emu
        .requests()
        .slice(before)
        .map((r) => r.path),
    ).toEqual(['/v1/workflows?page=0&limit=100', ...NEW.map((id) => `/v1/workflows/${id}`)]);
    for (const id of NEW)
      expect(observations.get(id)?.byIdentifier).toEqual({ status: 'not-found', via: 'identifier' });
  });

  it('a list that fails is not retried: each identifier is looked up, with its own retries', async () => {
    const { h } = await setup({
      emulator: { faults: { errorRate: 1, only: ['GET'] } },
      client: { retries: { maxAttempts: 1 } },
    });
    const observations = await fetchObservations({
      client: h.client,
      identifiers: NEW,
      state: emptyState(TARGET, h.emu.url),
      concurrency: 2,
    });
    expect(h.emu.requests().map((r) => r.path)).toEqual([
      '/v1/workflows?page=0&limit=100',
      ...NEW.map((id) => `/v1/workflows/${id}`),
    ]);
    for (const id of NEW) expect(observations.get(id)?.byIdentifier?.status).toBe('error');
  });
});

/** A loopback port nothing listens on: bind one, then close it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('fetchObservations against an unreachable service', () => {
  it('rejects once with the connection error instead of reporting every workflow as an error', async () => {
    const port = await closedPort();
    const client = createClient({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: 'wfs_test_key',
      retries: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 },
    });
    try {
      const lookups = fetchObservations({
        client,
        identifiers: ['a', 'b', 'c'],
        state: emptyState('dev', `http://127.0.0.1:${port}`),
        concurrency: 2,
      });
      const error = await lookups.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RemoteError);
      expect((error as RemoteError).unreachable).toBe(true);
      expect((error as RemoteError).message).toMatch(
        /^GET \/v1\/workflows\/\w: could not connect to 127\.0\.0\.1:\d+: connection refused/,
      );
    } finally {
      await client.close();
    }
  });
});
