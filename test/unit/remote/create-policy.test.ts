import type { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient, RemoteError } from '../../../src/remote/index.js';
import {
  createBody,
  envelope,
  JSON_HEADERS,
  mockOptions,
  newMockAgent,
  ORIGIN,
  recordEvents,
} from '../../helpers/remote.js';

// Cases the emulator cannot produce: 503 with Retry-After, connect failures, odd 2xx bodies, lookups that fail.

const CREATE = { path: '/v1/workflows', method: 'POST' } as const;
const LOOKUP = { path: '/v1/workflows/order-shipped', method: 'GET' } as const;
const NOT_FOUND = { statusCode: 404, message: 'Template with id order-shipped not found' };

let agent: MockAgent;
let keys: string[];
beforeEach(() => {
  agent = newMockAgent();
  keys = [];
});
afterEach(async () => {
  await agent.close();
});

/** Reply to a POST, recording the Idempotency-Key it carried. */
function post(status: number, body: string | object, headers: Record<string, string> = JSON_HEADERS) {
  agent
    .get(ORIGIN)
    .intercept(CREATE)
    .reply((opts) => {
      keys.push((opts.headers as Record<string, string>)['idempotency-key'] ?? '');
      return { statusCode: status, data: body, responseOptions: { headers } };
    });
}

function connectError(code: string): Error {
  return Object.assign(new Error(`connect ${code} 203.0.113.9:443`), { code });
}

async function failureOf(promise: Promise<unknown>): Promise<RemoteError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RemoteError);
  return error as RemoteError;
}

const options = { idempotencyKey: 'key-1', identifier: 'order-shipped' };

describe('re-sending a POST that provably did nothing', () => {
  it('503 with Retry-After: same key, no lookup', async () => {
    post(503, { statusCode: 503, message: 'Service Unavailable' }, { ...JSON_HEADERS, 'retry-after': '2' });
    post(201, envelope());
    const { events, onEvent } = recordEvents();
    const result = await createClient(mockOptions(agent, { onEvent })).createWorkflow(createBody(), options);
    expect(result).toMatchObject({ attempts: 2, reconciled: false });
    expect(keys).toEqual(['key-1', 'key-1']);
    expect(events.find((e) => e.type === 'retry')).toMatchObject({ status: 503, delayMs: 2000, attempt: 2 });
    expect(events.some((e) => e.type === 'reconcile')).toBe(false);
  });

  it.each(['ECONNREFUSED', 'ENOTFOUND', 'UND_ERR_CONNECT_TIMEOUT'])(
    '%s before sending: same key, no lookup',
    async (code) => {
      agent.get(ORIGIN).intercept(CREATE).replyWithError(connectError(code));
      post(201, envelope());
      const result = await createClient(mockOptions(agent)).createWorkflow(createBody(), options);
      expect(result.attempts).toBe(2);
    },
  );

  it('a TLS failure is not retried', async () => {
    agent.get(ORIGIN).intercept(CREATE).replyWithError(connectError('CERT_HAS_EXPIRED'));
    const error = await failureOf(createClient(mockOptions(agent)).createWorkflow(createBody(), options));
    expect(error.kind).toBe('network');
    expect(error.message).toBe(
      'POST /v1/workflows: the TLS handshake with api.example.test failed: its certificate has expired (CERT_HAS_EXPIRED); tell whoever runs the service',
    );
  });
});

describe('a POST whose outcome is unknown', () => {
  it('a 201 with an unusable body is looked up, never re-sent', async () => {
    post(201, envelope({ _id: 'garbage' }));
    agent.get(ORIGIN).intercept(LOOKUP).reply(200, envelope(), { headers: JSON_HEADERS });
    const result = await createClient(mockOptions(agent)).createWorkflow(createBody(), options);
    expect(result).toMatchObject({ reconciled: true, attempts: 1 });
  });

  it('a 201 that cannot be found afterwards is outcome-unknown', async () => {
    post(201, '<html>ok</html>', { 'content-type': 'text/html' });
    agent.get(ORIGIN).intercept(LOOKUP).reply(404, NOT_FOUND, { headers: JSON_HEADERS });
    const error = await failureOf(createClient(mockOptions(agent)).createWorkflow(createBody(), options));
    expect(error.kind).toBe('outcome-unknown');
    expect(error.message).toBe(
      'POST /v1/workflows: 201 with an HTML page instead of JSON; the service answered 201 but no workflow was found afterwards: the workflow may or may not have been created; run `wfsync plan` (or `wfsync state`) to see whether it exists before syncing again',
    );
    expect(keys).toHaveLength(1);
  });

  it('looks up every identifier the service might have derived', async () => {
    agent
      .get(ORIGIN)
      .intercept(CREATE)
      .replyWithError(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }));
    agent.get(ORIGIN).intercept(LOOKUP).reply(404, NOT_FOUND, { headers: JSON_HEADERS });
    agent
      .get(ORIGIN)
      .intercept({ path: '/v1/workflows/ordershipped', method: 'GET' })
      .reply(200, envelope({ name: 'orderShipped' }), { headers: JSON_HEADERS });
    const result = await createClient(mockOptions(agent)).createWorkflow(createBody('orderShipped'), {
      ...options,
      alternateIdentifiers: ['ordershipped'],
    });
    expect(result).toMatchObject({ reconciled: true, attempts: 1 });
    expect(result.workflow.name).toBe('orderShipped');
  });

  it('a lookup that fails leaves the outcome unknown', async () => {
    post(500, { statusCode: 500, message: 'Internal server error', errorId: 'e-1' });
    agent
      .get(ORIGIN)
      .intercept(LOOKUP)
      .reply(401, { statusCode: 401, message: 'API Key not found' }, { headers: JSON_HEADERS });
    const error = await failureOf(createClient(mockOptions(agent)).createWorkflow(createBody(), options));
    expect(error.kind).toBe('outcome-unknown');
    expect(error.message).toContain(
      'POST /v1/workflows: 500 Internal Server Error (errorId e-1); looking it up failed (GET /v1/workflows/order-shipped: 401 the API key in $NOVU_API_KEY was rejected): the workflow may or may not have been created',
    );
    expect(error.cause).toBeInstanceOf(Error);
  });

  it('409 until the attempts run out: an earlier request with this key may still land', async () => {
    for (let i = 0; i < 2; i++)
      post(
        409,
        { statusCode: 409, message: 'Request with key "key-1" is currently being processed.' },
        { ...JSON_HEADERS, 'retry-after': '1' },
      );
    const error = await failureOf(
      createClient(mockOptions(agent, { retries: { maxAttempts: 2 } })).createWorkflow(createBody(), options),
    );
    expect(error.kind).toBe('outcome-unknown');
    expect(error.message).toContain('409 a request with the same Idempotency-Key is still being processed');
    expect(keys).toEqual(['key-1', 'key-1']);
  });
});

describe('checks before the first POST', () => {
  it('refuses an identifier it could not look up, and a bad key or body, sending nothing', async () => {
    const client = createClient(mockOptions(agent));
    const error = await failureOf(
      client.createWorkflow(createBody(), { idempotencyKey: 'k', identifier: '' }),
    );
    expect(error.kind).toBe('validation');
    await expect(
      client.createWorkflow(createBody(), { idempotencyKey: 'has space', identifier: 'x' }),
    ).rejects.toThrow(TypeError);
    await expect(
      client.createWorkflow(createBody(), { idempotencyKey: 'k'.repeat(256), identifier: 'x' }),
    ).rejects.toThrow(TypeError);
    await expect(client.createWorkflow([1, 2], { idempotencyKey: 'k', identifier: 'x' })).rejects.toThrow(
      TypeError,
    );
    expect(keys).toEqual([]);
  });

  it('a closed client refuses work', async () => {
    const client = createClient(mockOptions(agent));
    await client.close();
    await expect(client.getWorkflow('x')).rejects.toThrow('the service client is closed');
  });
});
