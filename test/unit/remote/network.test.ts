import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type ClientOptions, createClient } from '../../../src/remote/index.js';
import { rejection } from './emulator-helpers.js';
import { API_KEY, VirtualClock } from './helpers.js';

// Raw sockets on 127.0.0.1:0 for what neither the emulator nor MockAgent can do: bodies cut off mid-stream,
// servers that never answer, ports nobody listens on.

const servers: Server[] = [];
const sockets = new Set<Socket>();
afterEach(async () => {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function rawServer(onRequest: (socket: Socket) => void): Promise<string> {
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.once('data', () => onRequest(socket));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return `http://127.0.0.1:${address.port}`;
}

function client(baseUrl: string, extra: Partial<ClientOptions> = {}) {
  const clock = new VirtualClock();
  return createClient({
    baseUrl,
    apiKey: API_KEY,
    now: clock.now,
    sleep: clock.sleep,
    random: () => 0.5,
    ...extra,
  });
}

describe('network failures', () => {
  it('a body cut off mid-stream is retried on GET, then reported', async () => {
    let requests = 0;
    const url = await rawServer((socket) => {
      requests++;
      socket.end(
        'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{"data":{"_id":"65a1',
      );
    });
    const error = await rejection(client(url, { retry: { maxAttempts: 2 } }).getWorkflow('order-shipped'));
    expect(error.kind).toBe('protocol');
    expect(error.message).toBe(
      'GET /v1/workflows/order-shipped: 200 but the response body was cut off (gave up after 2 attempts)',
    );
    expect(requests).toBe(2);
  });

  it('a server that never answers times out', async () => {
    const url = await rawServer(() => {});
    const error = await rejection(
      client(url, { timeouts: { headersMs: 200 }, retry: { maxAttempts: 2 } }).getWorkflow('x'),
    );
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe('GET /v1/workflows/x: no response within 0.2 s (gave up after 2 attempts)');
  });

  it('a POST that times out is looked up, and the lookup that times out too leaves it unknown', async () => {
    const url = await rawServer(() => {});
    const c = client(url, { timeouts: { headersMs: 100 }, retry: { maxAttempts: 2 } });
    const error = await rejection(c.createWorkflow({ name: 'x' }, { idempotencyKey: 'k', identifier: 'x' }));
    expect(error.kind).toBe('outcome-unknown');
    expect(error.message).toContain(
      'POST /v1/workflows: no response within 0.1 s; looking it up failed (GET /v1/workflows/x: no response',
    );
  });

  it('connection refused is retried, then explained', async () => {
    const url = await rawServer(() => {});
    await new Promise((resolve) => servers.pop()?.close(resolve));
    const host = new URL(url).host;
    const error = await rejection(client(url, { retry: { maxAttempts: 3 } }).getWorkflow('x'));
    expect(error.kind).toBe('network');
    expect(error.message).toBe(
      `GET /v1/workflows/x: could not connect to ${host}: connection refused (is the service running?) (gave up after 3 attempts)`,
    );
    expect((error.cause as { code?: string }).code).toBe('ECONNREFUSED');
  });

  it('a POST refused before sending is re-sent without a lookup', async () => {
    const url = await rawServer(() => {});
    await new Promise((resolve) => servers.pop()?.close(resolve));
    const paths: string[] = [];
    const c = client(url, { retry: { maxAttempts: 2 }, onEvent: (e) => paths.push(`${e.type} ${e.method}`) });
    const error = await rejection(c.createWorkflow({ name: 'x' }, { idempotencyKey: 'k', identifier: 'x' }));
    expect(error.kind).toBe('network');
    expect(paths).toEqual(['request POST', 'retry POST', 'request POST']);
  });
});
