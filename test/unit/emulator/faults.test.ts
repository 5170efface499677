import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { FaultInjector } from '../../../src/emulator/faults.js';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { mulberry32 } from '../../../src/emulator/random.js';
import { get, post, start, workflowBody } from './helpers.js';

/** A raw POST that reports what arrived on the socket, including a reset. */
function rawPost(
  emulator: RunningEmulator,
  body: unknown,
): Promise<{ status?: number; chunks: number; text: string; error?: string }> {
  return new Promise((resolve) => {
    const payload = JSON.stringify(body);
    const req = request(
      `${emulator.url}/v1/workflows`,
      {
        method: 'POST',
        headers: { authorization: `ApiKey ${emulator.apiKey}`, 'content-type': 'application/json' },
        agent: false,
      },
      (res) => {
        let text = '';
        let chunks = 0;
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          chunks++;
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode, chunks, text }));
        res.on('error', (error) => resolve({ status: res.statusCode, chunks, text, error: error.message }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve({ chunks: 0, text: '', error: error.code ?? error.message }),
    );
    req.end(payload);
  });
}

const statusesOf = async (emulator: RunningEmulator, n: number): Promise<number[]> => {
  const statuses: number[] = [];
  for (let i = 0; i < n; i++) statuses.push((await get(emulator, `w${i}`)).status);
  return statuses;
};

describe('faults', () => {
  it('reset before: the socket dies, nothing is stored', async () => {
    const emulator = await start({ faults: { resetBeforeRate: 1 } });
    const reply = await rawPost(emulator, workflowBody(emulator));
    expect(reply.status).toBeUndefined();
    expect(reply.error).toBe('ECONNRESET');
    expect(emulator.workflows()).toEqual([]);
    expect(emulator.requests()).toMatchObject([{ method: 'POST', status: 0, fault: 'reset-before' }]);
  });

  it('reset after: the workflow is stored but the answer is lost', async () => {
    const emulator = await start({ faults: { resetAfterRate: 1 } });
    const reply = await rawPost(emulator, workflowBody(emulator));
    expect(reply.status).toBeUndefined();
    expect(reply.error).toBe('ECONNRESET');
    expect(emulator.workflows()).toHaveLength(1);
    expect(emulator.requests()).toMatchObject([{ method: 'POST', status: 201, fault: 'reset-after' }]);
    // The client's reconciliation path: the workflow is found by its identifier.
    emulator.setFaults(undefined);
    expect((await get(emulator, 'order-shipped')).status).toBe(200);
  });

  it('error rate: a 500 with an errorId, nothing stored', async () => {
    const clock = () => Date.UTC(2024, 0, 2);
    const emulator = await start({ clock, faults: { errorRate: 1 } });
    const reply = await post(emulator, workflowBody(emulator));
    expect(reply.status).toBe(500);
    expect(reply.body).toEqual({
      statusCode: 500,
      timestamp: '2024-01-02T00:00:00.000Z',
      path: '/v1/workflows',
      message: 'Internal server error, contact support and provide them with the errorId',
      errorId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(emulator.workflows()).toEqual([]);
  });

  it('html error rate: a proxy’s 502 page, nothing stored', async () => {
    const emulator = await start({ faults: { htmlErrorRate: 1 } });
    const reply = await post(emulator, workflowBody(emulator));
    expect(reply.status).toBe(502);
    expect(reply.headers.get('content-type')).toBe('text/html');
    expect(reply.text).toContain('<title>502 Bad Gateway</title>');
    expect(emulator.workflows()).toEqual([]);
    expect(emulator.requests()[0]?.fault).toBe('html-502');
  });

  it('truncated body: processed and stored, but the JSON arrives cut in half', async () => {
    const emulator = await start({ faults: { truncateBodyRate: 1 } });
    const reply = await rawPost(emulator, workflowBody(emulator));
    expect(reply.status).toBe(201);
    expect(() => JSON.parse(reply.text)).toThrow();
    expect(reply.text.length).toBeGreaterThan(10);
    expect(emulator.workflows()).toHaveLength(1);
    const full = JSON.stringify({ data: emulator.workflows()[0] });
    expect(full.startsWith(reply.text.slice(0, 40))).toBe(true);
  });

  it('slow body: headers first, then the complete body in pieces', async () => {
    const emulator = await start({ faults: { slowBodyMs: 300 } });
    const reply = await rawPost(emulator, workflowBody(emulator));
    expect(reply.status).toBe(201);
    expect(reply.chunks).toBeGreaterThan(1);
    expect(JSON.parse(reply.text).data.name).toBe('Order Shipped');
    expect(emulator.requests()[0]?.fault).toBe('slow-body');
  });

  it('rate-limit burst: after every `every` requests the next `count` get 429', async () => {
    const emulator = await start({ faults: { rateLimitBurst: { every: 2, count: 1 } } });
    expect(await statusesOf(emulator, 6)).toEqual([404, 404, 429, 404, 404, 429]);
    const limited = emulator.requests()[2]!;
    expect(limited).toMatchObject({ status: 429, fault: 'rate-limit-burst' });
    const reply = await get(emulator, 'x');
    expect(reply.status).toBe(404);
    emulator.reset();
    expect(await statusesOf(emulator, 3)).toEqual([404, 404, 429]);
    const burst = await get(emulator, 'x');
    expect(burst.status).toBe(404);
  });

  it('rate-limit burst 429 carries Retry-After and the throttler body', async () => {
    const emulator = await start({ faults: { rateLimitBurst: { every: 0, count: 1 } } });
    const reply = await get(emulator, 'x');
    expect(reply.status).toBe(429);
    expect(reply.headers.get('retry-after')).toBe('1');
    expect(reply.body.message).toBe('API rate limit exceeded');
    expect(reply.body).not.toHaveProperty('error');
  });

  it('`only` limits faults to the named methods', async () => {
    const emulator = await start({ faults: { errorRate: 1, only: ['POST'] } });
    expect((await get(emulator, 'x')).status).toBe(404);
    expect((await post(emulator, workflowBody(emulator))).status).toBe(500);
  });

  it('the same seed injects the same faults into the same sequence of requests', async () => {
    const run = async (seed: number) => statusesOf(await start({ seed, faults: { errorRate: 0.5 } }), 24);
    const a = await run(123);
    expect(await run(123)).toEqual(a);
    expect(a).toContain(500);
    expect(a).toContain(404);
    expect(await run(124)).not.toEqual(a);
  });

  it('setFaults switches faults on and off at run time', async () => {
    const emulator = await start();
    expect((await get(emulator, 'x')).status).toBe(404);
    emulator.setFaults({ errorRate: 1 });
    expect((await get(emulator, 'x')).status).toBe(500);
    emulator.setFaults(undefined);
    expect((await get(emulator, 'x')).status).toBe(404);
  });

  it('rejects impossible fault settings', async () => {
    await expect(start({ faults: { errorRate: 2 } })).rejects.toThrow(/errorRate/);
    const emulator = await start();
    expect(() => emulator.setFaults({ latencyMs: [50, 10] })).toThrow(/latencyMs/);
    expect(() => emulator.setFaults({ rateLimitBurst: { every: 0, count: 0 } })).toThrow(/rateLimitBurst/);
  });
});

describe('FaultInjector', () => {
  it('draws latency within the range, the same for the same seed', () => {
    const plans = (seed: number) => {
      const injector = new FaultInjector(mulberry32(seed), { latencyMs: [100, 200] });
      return Array.from({ length: 20 }, () => injector.plan('GET').latencyMs);
    };
    const a = plans(7);
    expect(plans(7)).toEqual(a);
    expect(a.every((ms) => ms >= 100 && ms <= 200)).toBe(true);
    expect(new Set(a).size).toBeGreaterThan(5);
  });

  it('draws the same numbers whatever is configured, so adding a fault does not move the others', () => {
    const errors = (faults: object) => {
      const injector = new FaultInjector(mulberry32(99), { errorRate: 0.3, ...faults });
      return Array.from({ length: 40 }, () => injector.plan('POST').early === 'error-500');
    };
    expect(errors({ latencyMs: [0, 50], truncateBodyRate: 0.5 })).toEqual(errors({}));
  });
});

describe('closing', () => {
  it('cuts processing time short: close() does not wait a minute for a slow request', async () => {
    const emulator = await start();
    let arrived = false;
    emulator.setFaults({ latencyMs: 60_000 });
    const pending = post(emulator, workflowBody(emulator)).finally(() => {
      arrived = true;
    });
    // Let the request reach the handler's processing delay, then close.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(arrived).toBe(false);
    await emulator.close();
    await expect(pending).rejects.toThrow();
  });
});
