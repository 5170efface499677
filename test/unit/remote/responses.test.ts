import type { MockAgent } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors.js';
import { ExitCode } from '../../../src/exit-codes.js';
import { createClient, RemoteError } from '../../../src/remote/index.js';
import {
  API_KEY,
  envelope,
  expectNoKey,
  JSON_HEADERS,
  mockOptions,
  newMockAgent,
  ORIGIN,
  recordEvents,
  VirtualClock,
  workflowResponse,
} from '../../helpers/remote.js';

const PATH = '/v1/workflows/order-shipped';

let agent: MockAgent;
beforeEach(() => {
  agent = newMockAgent();
});
afterEach(async () => {
  await agent.close();
});

function pool() {
  return agent.get(ORIGIN);
}

async function getError(promise: Promise<unknown>): Promise<RemoteError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RemoteError);
  const remote = error as RemoteError;
  expectNoKey([remote.message, remote.stack, String((remote.cause as Error | undefined)?.stack)]);
  return remote;
}

describe('successful responses', () => {
  it('GET returns the workflow and sends the key only in the Authorization header', async () => {
    let seen: Record<string, string> = {};
    pool()
      .intercept({ path: PATH, method: 'GET' })
      .reply((opts) => {
        seen = opts.headers as Record<string, string>;
        return { statusCode: 200, data: envelope(), responseOptions: { headers: JSON_HEADERS } };
      });
    const { events, onEvent } = recordEvents();
    const client = createClient(mockOptions(agent, { onEvent }));
    const workflow = await client.getWorkflow('order-shipped');
    expect(workflow?.triggers[0]?.identifier).toBe('order-shipped');
    expect(seen.authorization).toBe(`ApiKey ${API_KEY}`);
    expect(seen.accept).toBe('application/json');
    expect(events.map((e) => e.type)).toEqual(['request', 'response']);
    expect(events[1]).toEqual({ type: 'response', method: 'GET', path: PATH, status: 200, attempt: 1 });
    expectNoKey(events);
  });

  it('uses the base URL path prefix', async () => {
    pool()
      .intercept({ path: `/gateway${PATH}`, method: 'GET' })
      .reply(200, envelope(), { headers: JSON_HEADERS });
    const client = createClient(mockOptions(agent, { baseUrl: `${ORIGIN}/gateway/` }));
    expect(await client.getWorkflow('order-shipped')).toBeDefined();
  });

  it('GET 404 for a workflow is undefined, not an error', async () => {
    const body = { statusCode: 404, message: 'Template with id nope not found', error: 'Not Found' };
    pool()
      .intercept({ path: '/v1/workflows/nope', method: 'GET' })
      .reply(404, body, { headers: JSON_HEADERS });
    expect(await createClient(mockOptions(agent)).getWorkflow('nope')).toBeUndefined();
  });
});

describe('answers that are not the service', () => {
  it('does not follow a redirect, and names only the Location host', async () => {
    pool()
      .intercept({ path: PATH, method: 'GET' })
      .reply(302, '', { headers: { location: 'https://login.evil.test/steal?token=abc123' } });
    const error = await getError(createClient(mockOptions(agent)).getWorkflow('order-shipped'));
    expect(error.kind).toBe('protocol');
    expect(error.message).toBe(
      `GET ${PATH}: 302 redirect to login.evil.test, not followed (the API key is only sent to the configured base URL); check baseUrl in wfsync.config.yaml: if the service moved, use the address it redirects to`,
    );
    expect(error.message).not.toContain('abc123');
  });

  it('retries an HTML 502 page on GET, then says what it is', async () => {
    const page = '<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1></body></html>';
    pool()
      .intercept({ path: PATH, method: 'GET' })
      .reply(502, page, { headers: { 'content-type': 'text/html' } })
      .times(2);
    const { events, onEvent } = recordEvents();
    const client = createClient(mockOptions(agent, { onEvent, retries: { maxAttempts: 2 } }));
    const error = await getError(client.getWorkflow('order-shipped'));
    expect(error.kind).toBe('protocol');
    expect(error.status).toBe(502);
    expect(error.message).toBe(
      `GET ${PATH}: 502 with an HTML page instead of JSON (a proxy or gateway error?) (gave up after 2 attempts); is the service up? check baseUrl in wfsync.config.yaml`,
    );
    expect(events.filter((e) => e.type === 'retry')).toHaveLength(1);
  });

  it.each([
    ['plain text', 'text/plain', 'ok', 'with content type "text/plain" instead of JSON'],
    ['no content type', undefined, envelope(), 'without a content type (JSON expected)'],
    ['bad JSON', 'application/json', '{"data": {', 'with a body that is not valid JSON'],
    ['no envelope', 'application/json', JSON.stringify(workflowResponse()), 'without the {data} envelope'],
    [
      'an array in data',
      'application/json',
      JSON.stringify({ data: [workflowResponse()] }),
      'without the {data} envelope',
    ],
    [
      'a bad _id',
      'application/json',
      envelope({ _id: 'nope' }),
      'does not have the expected shape (/data/_id must match pattern "^[0-9a-f]{24}$")',
    ],
    ['bad triggers', 'application/json', envelope({ triggers: 'none' }), '/data/triggers must be array'],
  ])('a 200 with %s is a protocol error', async (_label, type, body, expected) => {
    pool()
      .intercept({ path: PATH, method: 'GET' })
      .reply(200, body, { headers: type === undefined ? {} : { 'content-type': type } })
      .persist();
    const error = await getError(createClient(mockOptions(agent)).getWorkflow('order-shipped'));
    expect(error.kind).toBe('protocol');
    expect(error.exitCode).toBe(ExitCode.Failure);
    expect(error.message).toContain(`GET ${PATH}: 200 `);
    expect(error.message).toContain(expected);
  });

  it('asks again when a GET body is cut short into invalid JSON', async () => {
    pool()
      .intercept({ path: PATH, method: 'GET' })
      .reply(200, envelope().slice(0, 40), { headers: JSON_HEADERS });
    pool().intercept({ path: PATH, method: 'GET' }).reply(200, envelope(), { headers: JSON_HEADERS });
    const { events, onEvent } = recordEvents();
    const workflow = await createClient(mockOptions(agent, { onEvent })).getWorkflow('order-shipped');
    expect(workflow?.name).toBe('Order Shipped');
    expect(events.filter((e) => e.type === 'retry')).toMatchObject([{ attempt: 2, status: 200 }]);
  });

  it('refuses a body over maxResponseBytes, announced or not', async () => {
    const big = envelope({ description: 'x'.repeat(5000) });
    pool().intercept({ path: PATH, method: 'GET' }).reply(200, big, { headers: JSON_HEADERS });
    const announced = { ...JSON_HEADERS, 'content-length': String(Buffer.byteLength(big)) };
    pool().intercept({ path: PATH, method: 'GET' }).reply(200, big, { headers: announced });
    for (let i = 0; i < 2; i++) {
      const error = await getError(
        createClient(mockOptions(agent, { maxResponseBytes: 2000 })).getWorkflow('order-shipped'),
      );
      expect(error.kind).toBe('protocol');
      expect(error.message).toContain('200 but the response is larger than the 2000 bytes limit');
    }
  });

  it('a 404 route (wrong base URL) is an error, not "absent"', async () => {
    const body = {
      statusCode: 404,
      message: 'Cannot GET /api/v1/workflows/order-shipped',
      error: 'Not Found',
    };
    pool()
      .intercept({ path: `/api${PATH}`, method: 'GET' })
      .reply(404, body, { headers: JSON_HEADERS });
    pool()
      .intercept({ path: PATH, method: 'GET' })
      .reply(404, '<html>nginx</html>', { headers: { 'content-type': 'text/html' } });
    const wrongPrefix = await getError(
      createClient(mockOptions(agent, { baseUrl: `${ORIGIN}/api` })).getWorkflow('order-shipped'),
    );
    expect(wrongPrefix.kind).toBe('not-found');
    expect(wrongPrefix.message).toContain('404 the service has no such endpoint: Cannot GET');
    const proxy = await getError(createClient(mockOptions(agent)).getWorkflow('order-shipped'));
    expect(proxy.kind).toBe('not-found');
  });
});

describe('service errors', () => {
  it('422 errors{field:{messages}} become flat server messages (exit 3)', async () => {
    const body = {
      statusCode: 422,
      message: 'Validation Error',
      errors: {
        name: { messages: ['name must be a string'] },
        steps: { messages: ['must be an array', 'too short'] },
      },
    };
    pool().intercept({ path: '/v1/workflows', method: 'POST' }).reply(422, body, { headers: JSON_HEADERS });
    const client = createClient(mockOptions(agent));
    const error = await getError(
      client.createWorkflow({ name: 1 }, { idempotencyKey: 'k-1', identifier: 'x' }),
    );
    expect(error.kind).toBe('validation');
    expect(error.exitCode).toBe(ExitCode.Invalid);
    expect(error.serverMessages).toEqual([
      'name must be a string',
      'steps: must be an array',
      'steps: too short',
    ]);
  });

  it('400 with a message array keeps every message', async () => {
    const body = {
      statusCode: 400,
      message: ['name must be a string', 'Notification group must be provided '],
      error: 'Bad Request',
    };
    pool().intercept({ path: '/v1/workflows', method: 'POST' }).reply(400, body, { headers: JSON_HEADERS });
    const error = await getError(
      createClient(mockOptions(agent)).createWorkflow({}, { idempotencyKey: 'k-1', identifier: 'x' }),
    );
    expect(error.serverMessages).toEqual(['name must be a string', 'Notification group must be provided ']);
    expect(error.message).toBe(
      'POST /v1/workflows: 400 the service rejected the request: name must be a string; Notification group must be provided ',
    );
  });

  it.each([
    [
      'Missing authorization header',
      'the service did not receive the API key (it said: Missing authorization header); check that nothing between wfsync and the service drops or replaces the Authorization header',
    ],
    [
      'Invalid authentication scheme: "Bearer"',
      'the service did not receive the API key (it said: Invalid authentication scheme: "Bearer"); check that nothing between wfsync and the service drops or replaces the Authorization header',
    ],
    [
      'API Key not found',
      'the API key in $NOVU_API_KEY was rejected; check that $NOVU_API_KEY holds a key of the environment this target syncs to',
    ],
    [
      'This action is only allowed in Development environment',
      "creating workflows needs a Development-environment key, and this one belongs to Production; set $NOVU_API_KEY to the Development environment's key",
    ],
    ['Forbidden resource', 'authentication failed: Forbidden resource; check $NOVU_API_KEY'],
  ])('401 %j is explained (exit 4, not retried)', async (serverMessage, explanation) => {
    pool()
      .intercept({ path: PATH, method: 'GET' })
      .reply(401, { statusCode: 401, message: serverMessage }, { headers: JSON_HEADERS });
    const error = await getError(createClient(mockOptions(agent)).getWorkflow('order-shipped'));
    expect(error.kind).toBe('auth');
    expect(error.exitCode).toBe(ExitCode.Auth);
    expect(error.serverMessages).toEqual([serverMessage]);
    expect(error.message).toBe(`GET ${PATH}: 401 ${explanation}`);
  });

  it('strips the key even when a server echoes it back', async () => {
    const body = { statusCode: 401, message: `API Key not found: ${API_KEY}` };
    pool().intercept({ path: PATH, method: 'GET' }).reply(401, body, { headers: JSON_HEADERS });
    const error = await getError(createClient(mockOptions(agent)).getWorkflow('order-shipped'));
    expect(error.kind).toBe('auth');
    expect(error.message).toBe(
      `GET ${PATH}: 401 the API key in $NOVU_API_KEY was rejected; check that $NOVU_API_KEY holds a key of the environment this target syncs to`,
    );
    expectNoKey(error.serverMessages);
  });
});

describe('rate limits', () => {
  it('a 429 with RateLimit-Reset and no Retry-After: waits the reset out once, then asks again', async () => {
    const limitHeaders = {
      ...JSON_HEADERS,
      'ratelimit-limit': '150',
      'ratelimit-remaining': '0',
      'ratelimit-reset': '2',
    };
    pool()
      .intercept({ path: PATH, method: 'GET' })
      .reply(429, { message: 'slow down' }, { headers: limitHeaders });
    pool().intercept({ path: PATH, method: 'GET' }).reply(200, envelope(), { headers: JSON_HEADERS });
    const clock = new VirtualClock();
    const { events, onEvent } = recordEvents();
    const client = createClient(mockOptions(agent, { onEvent, now: clock.now, sleep: clock.sleep }));
    const before = clock.now();
    expect(await client.getWorkflow('order-shipped')).toBeDefined();
    expect(clock.now() - before).toBe(2000);
    expect(events.filter((e) => e.type === 'retry' || e.type === 'wait')).toMatchObject([
      { type: 'retry', status: 429, delayMs: 2000 },
    ]);
  });
});

describe('events', () => {
  it('a listener that throws does not break the call', async () => {
    pool().intercept({ path: PATH, method: 'GET' }).reply(200, envelope(), { headers: JSON_HEADERS });
    const seen: string[] = [];
    const onEvent = (event: { type: string }) => {
      seen.push(event.type);
      throw new Error('progress display crashed');
    };
    const workflow = await createClient(mockOptions(agent, { onEvent })).getWorkflow('order-shipped');
    expect(workflow).toEqual(workflowResponse());
    expect(seen).toEqual(['request', 'response']);
  });
});

describe('options', () => {
  it('refuses plain http to a remote host unless allowed, and an empty key', () => {
    expect(() => createClient({ baseUrl: 'http://api.example.com', apiKey: API_KEY })).toThrow(ConfigError);
    expect(() =>
      createClient({ baseUrl: 'http://api.example.com', apiKey: API_KEY, allowInsecureHttp: true }),
    ).not.toThrow();
    expect(() => createClient({ baseUrl: ORIGIN, apiKey: '  ', apiKeyEnv: 'NOVU_API_KEY' })).toThrow(
      'no API key: $NOVU_API_KEY is empty',
    );
    expect(() => createClient({ baseUrl: ORIGIN, apiKey: 'two words' })).toThrow(ConfigError);
  });

  it('refuses ids that cannot go into a path, before any request', async () => {
    const client = createClient(mockOptions(agent));
    const error = await getError(client.getWorkflow('..'));
    expect(error.kind).toBe('validation');
    expect(error.message).toBe('GET /v1/workflows/{workflowId}: ".." is not a workflow id or identifier');
  });
});
