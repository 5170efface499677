import { describe, expect, it } from 'vitest';
import { IDEMPOTENCY_DOCS_LINK } from '../../../src/emulator/idempotency.js';
import { call, post, start, workflowBody } from './helpers.js';

const withKey = (key: string) => ({ headers: { 'Idempotency-Key': key } });

describe('Idempotency-Key', () => {
  it('replays the first 201 for the same key and body, without creating again', async () => {
    const emulator = await start({ seed: 1 });
    const body = workflowBody(emulator);
    const first = await post(emulator, body, withKey('k-1'));
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotency-key')).toBe('k-1');
    expect(first.headers.get('idempotency-replay')).toBeNull();
    // Same JSON, other formatting: the service compares the parsed body.
    const replay = await call(emulator, 'POST', '/v1/workflows', {
      raw: JSON.stringify(body, null, 4),
      ...withKey('k-1'),
    });
    expect(replay.status).toBe(201);
    expect(replay.headers.get('idempotency-replay')).toBe('true');
    expect(replay.headers.get('idempotency-key')).toBe('k-1');
    expect(replay.body).toEqual(first.body);
    expect(emulator.workflows()).toHaveLength(1);
    expect(emulator.requests().map((r) => r.idempotencyKey)).toEqual(['k-1', 'k-1']);
  });

  it('answers 422 for the same key with another body', async () => {
    const emulator = await start();
    await post(emulator, workflowBody(emulator), withKey('k-2'));
    const reply = await post(emulator, workflowBody(emulator, { name: 'Other' }), withKey('k-2'));
    expect(reply.status).toBe(422);
    expect(reply.body).toMatchObject({
      statusCode: 422,
      message: 'Request with key "k-2" is being reused for a different body',
      error: 'Unprocessable Entity',
    });
    expect(reply.headers.get('link')).toBe(IDEMPOTENCY_DOCS_LINK);
    expect(emulator.workflows()).toHaveLength(1);
  });

  it('answers 409 with Retry-After: 1 while the first request is still being processed', async () => {
    // Processing time keeps the first request in flight while the second arrives.
    const emulator = await start({ faults: { latencyMs: 1500, only: ['POST'] } });
    const body = workflowBody(emulator);
    const replies = await Promise.all([
      post(emulator, body, withKey('k-3')),
      post(emulator, body, withKey('k-3')),
    ]);
    const statuses = replies.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 409]);
    const conflict = replies.find((r) => r.status === 409)!;
    expect(conflict.headers.get('retry-after')).toBe('1');
    expect(conflict.body.message).toBe(
      'Request with key "k-3" is currently being processed. Please retry after 1 second',
    );
    expect(conflict.body.error).toBe('Conflict');
    expect(emulator.workflows()).toHaveLength(1);
    // Once done, the same key replays.
    emulator.setFaults(undefined);
    const later = await post(emulator, body, withKey('k-3'));
    expect(later.status).toBe(201);
    expect(later.headers.get('idempotency-replay')).toBe('true');
  });

  it('replays a remembered validation error too', async () => {
    const emulator = await start();
    const first = await post(emulator, {}, withKey('k-4'));
    expect(first.status).toBe(400);
    const again = await post(emulator, {}, withKey('k-4'));
    expect(again.status).toBe(400);
    expect(again.headers.get('idempotency-replay')).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('answers 400 for a key longer than 255 characters', async () => {
    const emulator = await start();
    const key = 'k'.repeat(256);
    const reply = await post(emulator, workflowBody(emulator), withKey(key));
    expect(reply.status).toBe(400);
    expect(reply.body.message).toBe(
      `idempotencyKey "${key}" has exceeded the maximum allowed length of 255 characters`,
    );
    expect(emulator.workflows()).toHaveLength(0);
    expect((await post(emulator, workflowBody(emulator), withKey('k'.repeat(255)))).status).toBe(201);
  });

  it('is ignored on GET, for an empty key, and when the feature is off', async () => {
    const emulator = await start({ idempotency: false });
    const body = workflowBody(emulator);
    await post(emulator, body, withKey('k-5'));
    const second = await post(emulator, body, withKey('k-5'));
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotency-replay')).toBeNull();
    expect(second.headers.get('idempotency-key')).toBeNull();
    expect(emulator.workflows()).toHaveLength(2);

    const on = await start();
    await post(on, workflowBody(on), withKey(''));
    expect((await post(on, workflowBody(on), withKey(''))).headers.get('idempotency-replay')).toBeNull();
    expect(on.workflows()).toHaveLength(2);
    const read = await call(on, 'GET', '/v1/workflows/order-shipped', withKey('k-6'));
    expect(read.status).toBe(200);
    expect(on.requests().at(-1)).not.toHaveProperty('idempotencyKey');
  });

  it('releases a key whose request met an injected 500 before processing, so a retry creates', async () => {
    const emulator = await start({ faults: { errorRate: 1 } });
    const body = workflowBody(emulator);
    expect((await post(emulator, body, withKey('k-7'))).status).toBe(500);
    emulator.setFaults(undefined);
    const retry = await post(emulator, body, withKey('k-7'));
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotency-replay')).toBeNull();
  });
});
