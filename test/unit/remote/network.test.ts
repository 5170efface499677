import { describe, expect, it } from 'vitest';
import { type ClientOptions, createClient } from '../../../src/remote/index.js';
import { API_KEY, recordEvents, VirtualClock } from '../../helpers/remote.js';
import { rejection } from './emulator-helpers.js';
import { closedPort, rawResponse, rawServer } from './servers.js';

// Raw sockets on 127.0.0.1:0 for what neither the emulator nor MockAgent can do: bodies cut off mid-stream,
// servers that never answer, ports nobody listens on.

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

const JSON_TYPE = { 'content-type': 'application/json' };

describe('network failures', () => {
  it('a body cut off mid-stream is retried on GET, then reported', async () => {
    let requests = 0;
    const url = await rawServer((socket) => {
      requests++;
      socket.end(rawResponse('200 OK', { ...JSON_TYPE, 'content-length': '500' }, '{"data":{"_id":"65a1'));
    });
    const error = await rejection(client(url, { retries: { maxAttempts: 2 } }).getWorkflow('order-shipped'));
    expect(error.kind).toBe('protocol');
    expect(error.detail).toBe('200 but the response body was cut off (gave up after 2 attempts)');
    expect(requests).toBe(2);
  });

  it('a GET whose 404 is cut short is asked again; a whole JSON 404 then means "no such workflow"', async () => {
    const notFound = JSON.stringify({ statusCode: 404, message: 'Workflow cannot be found' });
    const url = await rawServer((socket, request) => {
      const length = String(Buffer.byteLength(notFound));
      // The first answer stops after 9 bytes of the 404 body: not JSON, so it would read as "no such endpoint".
      const body = request === 1 ? notFound.slice(0, 9) : notFound;
      socket.end(rawResponse('404 Not Found', { ...JSON_TYPE, 'content-length': length }, body));
    });
    const { events, onEvent } = recordEvents();
    const found = await client(url, { onEvent }).getWorkflow('order-shipped');
    expect(found).toBeUndefined();
    expect(events.filter((e) => e.type === 'retry')).toEqual([
      expect.objectContaining({ attempt: 2, status: 404, reason: '404 but the response body was cut off' }),
    ]);
    expect(events.filter((e) => e.type === 'request')).toHaveLength(2);
  });

  it('a GET whose 404 body stops arriving is asked again too', async () => {
    const notFound = JSON.stringify({ statusCode: 404, message: 'Workflow cannot be found' });
    const url = await rawServer((socket, request) => {
      const head = rawResponse('404 Not Found', { ...JSON_TYPE, 'content-length': String(notFound.length) });
      if (request === 1) socket.write(`${head}{"status`);
      else socket.end(`${head}${notFound}`);
    });
    const { events, onEvent } = recordEvents();
    const found = await client(url, { onEvent, timeouts: { bodyMs: 100 } }).getWorkflow('order-shipped');
    expect(found).toBeUndefined();
    expect(events.find((e) => e.type === 'retry')?.reason).toBe(
      '404 but the response body did not arrive within 0.1 s',
    );
  });

  it('a server that never answers times out', async () => {
    const url = await rawServer(() => {});
    const error = await rejection(
      client(url, { timeouts: { headersMs: 200 }, retries: { maxAttempts: 2 } }).getWorkflow('x'),
    );
    expect(error.kind).toBe('timeout');
    expect(error.detail).toBe(
      'timed out after 0.2 s waiting for response headers (gave up after 2 attempts)',
    );
  });

  it('a POST that times out is looked up, and the lookup that times out too leaves it unknown', async () => {
    const url = await rawServer(() => {});
    const c = client(url, { timeouts: { headersMs: 100 }, retries: { maxAttempts: 2 } });
    const error = await rejection(c.createWorkflow({ name: 'x' }, { idempotencyKey: 'k', identifier: 'x' }));
    expect(error.kind).toBe('outcome-unknown');
    expect(error.message).toContain(
      'POST /v1/workflows: timed out after 0.1 s waiting for response headers; looking it up failed (GET /v1/workflows/x: timed out',
    );
  });

  it('connection refused is retried, then explained', async () => {
    const url = await closedPort();
    const host = new URL(url).host;
    const error = await rejection(client(url, { retries: { maxAttempts: 3 } }).getWorkflow('x'));
    expect(error.kind).toBe('network');
    expect(error.message).toBe(
      `GET /v1/workflows/x: could not connect to ${host}: connection refused (gave up after 3 attempts); is the service up? check baseUrl in wfsync.config.yaml`,
    );
    expect((error.cause as { code?: string }).code).toBe('ECONNREFUSED');
  });

  it('a POST refused before sending is re-sent without a lookup', async () => {
    const url = await closedPort();
    const paths: string[] = [];
    const c = client(url, {
      retries: { maxAttempts: 2 },
      onEvent: (e) => paths.push(`${e.type} ${e.method}`),
    });
    const error = await rejection(c.createWorkflow({ name: 'x' }, { idempotencyKey: 'k', identifier: 'x' }));
    expect(error.kind).toBe('network');
    expect(paths).toEqual(['request POST', 'retry POST', 'request POST']);
  });
});
