import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import type { ClientEvent } from '../../../src/remote/index.js';
import { clientFor, createOptions, emulator, rejection, workflowBody } from './emulator-helpers.js';

/** A listener that clears the emulator's faults once the client starts reconciling. */
function healOnReconcile(emu: { setFaults(f: undefined): void }) {
  return (event: ClientEvent) => {
    if (event.type === 'reconcile') emu.setFaults(undefined);
  };
}

describe('a POST whose outcome is unknown', () => {
  it('reset after processing: found by GET, never sent twice', async () => {
    const emu = await emulator({ faults: { resetAfterRate: 1, only: ['POST'] } });
    const { client, events } = clientFor(emu);
    const result = await client.createWorkflow(workflowBody(emu), createOptions());
    expect(result).toMatchObject({ reconciled: true, replayed: false, attempts: 1 });
    expect(result.workflow._id).toBe(emu.workflows()[0]?._id);
    expect(emu.workflows()).toHaveLength(1);
    expect(emu.requests().map((r) => `${r.method} ${r.status}`)).toEqual(['POST 201', 'GET 200']);
    expect(events.find((e) => e.type === 'reconcile')).toMatchObject({
      method: 'POST',
      reason: expect.stringMatching(
        /^the connection to 127\.0\.0\.1:\d+ was closed by the other side before the response arrived$/,
      ),
    });
  });

  it('reset before processing: GET finds nothing, sent again with the same key, stored once', async () => {
    const emu = await emulator({ faults: { resetBeforeRate: 1, only: ['POST'] } });
    const { client } = clientFor(emu, { onEvent: healOnReconcile(emu) });
    const options = createOptions();
    const result = await client.createWorkflow(workflowBody(emu), options);
    expect(result).toMatchObject({ reconciled: false, attempts: 2 });
    expect(emu.workflows()).toHaveLength(1);
    const posts = emu.requests().filter((r) => r.method === 'POST');
    expect(posts.map((r) => r.idempotencyKey)).toEqual([options.idempotencyKey, options.idempotencyKey]);
    expect(emu.requests().map((r) => `${r.method} ${r.status}`)).toEqual(['POST 0', 'GET 404', 'POST 201']);
  });

  it('reset before processing, every time: ends after the attempts, saying nothing was created', async () => {
    const emu = await emulator({ faults: { resetBeforeRate: 1, only: ['POST'] } });
    const { client } = clientFor(emu, { retries: { maxAttempts: 2 } });
    const error = await rejection(client.createWorkflow(workflowBody(emu), createOptions()));
    expect(error.kind).toBe('network');
    expect(error.detail).toMatch(
      /^the connection to 127\.0\.0\.1:\d+ was closed by the other side before the response arrived \(gave up after 2 attempts; a lookup found no workflow "order-shipped"\)$/,
    );
    expect(emu.workflows()).toHaveLength(0);
  });

  it('a 500 (nothing stored) is looked up, then re-sent', async () => {
    const emu = await emulator({ faults: { errorRate: 1, only: ['POST'] } });
    const { client } = clientFor(emu, { onEvent: healOnReconcile(emu) });
    const result = await client.createWorkflow(workflowBody(emu), createOptions());
    expect(result.attempts).toBe(2);
    expect(emu.requests().map((r) => `${r.method} ${r.status}`)).toEqual(['POST 500', 'GET 404', 'POST 201']);
  });

  it('an HTML 502 from a proxy is looked up, then re-sent', async () => {
    const emu = await emulator({ faults: { htmlErrorRate: 1, only: ['POST'] } });
    const { client } = clientFor(emu, { onEvent: healOnReconcile(emu) });
    await client.createWorkflow(workflowBody(emu), createOptions());
    expect(emu.requests().map((r) => `${r.method} ${r.status}`)).toEqual(['POST 502', 'GET 404', 'POST 201']);
    expect(emu.workflows()).toHaveLength(1);
  });

  it('a 201 whose body was cut short is reconciled, not re-sent', async () => {
    const emu = await emulator({ faults: { truncateBodyRate: 1, only: ['POST'] } });
    const { client } = clientFor(emu);
    const result = await client.createWorkflow(workflowBody(emu), createOptions());
    expect(result).toMatchObject({ reconciled: true, attempts: 1 });
    expect(emu.requests().map((r) => `${r.method} ${r.status}`)).toEqual(['POST 201', 'GET 200']);
  });

  it('a 201 whose body is too slow is reconciled, not re-sent', async () => {
    const emu = await emulator({ faults: { slowBodyMs: 2000, only: ['POST'] } });
    const { client } = clientFor(emu, { timeouts: { bodyMs: 100 } });
    const result = await client.createWorkflow(workflowBody(emu), createOptions());
    expect(result).toMatchObject({ reconciled: true, attempts: 1 });
    expect(emu.workflows()).toHaveLength(1);
  });

  it('an identifier owned by another workflow on lookup is an unknown outcome, not a success', async () => {
    const emu = await emulator();
    const { client } = clientFor(emu);
    await client.createWorkflow(workflowBody(emu, 'Order Shipped'), createOptions());
    emu.setFaults({ resetAfterRate: 1, only: ['POST'] });
    // Same slug, another name: the older server stores it as "order-shipped-<suffix>", which the GET cannot see.
    const error = await rejection(client.createWorkflow(workflowBody(emu, 'ORDER SHIPPED'), createOptions()));
    expect(error.kind).toBe('outcome-unknown');
    expect(error.message).toContain('"order-shipped" belongs to the workflow named "Order Shipped"');
    expect(error.message).toContain('the workflow may or may not have been created; run `wfsync plan`');
    expect(emu.workflows()).toHaveLength(2);
  });
});

describe('idempotency', () => {
  it('a timed-out POST still in flight: lookup finds nothing, the re-send meets 409, then the replay', async () => {
    const emu = await emulator({ faults: { latencyMs: 600, only: ['POST'] } });
    // Real sleeps here: the first request must really finish on the emulator while the client waits out the 409.
    const { client } = clientFor(emu, {
      timeouts: { headersMs: 100 },
      retries: { baseDelayMs: 10, maxAttempts: 6 },
      sleep: (ms, signal) => delay(ms, undefined, { signal }),
      now: Date.now,
    });
    const options = createOptions();
    const result = await client.createWorkflow(workflowBody(emu), options);
    expect(result).toMatchObject({ replayed: true, reconciled: false });
    expect(emu.workflows()).toHaveLength(1);
    const posts = emu.requests().filter((r) => r.method === 'POST');
    expect(posts.map((r) => r.status)).toContain(409);
    expect(posts.filter((r) => r.status === 201)).toHaveLength(2); // the original and its replay
    expect(new Set(posts.map((r) => r.idempotencyKey))).toEqual(new Set([options.idempotencyKey]));
  });
});
