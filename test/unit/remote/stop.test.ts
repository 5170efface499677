import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { VirtualClock } from '../../helpers/remote.js';
import { clientFor, createOptions, emulator, rejection, workflowBody } from './emulator-helpers.js';

const realTime = {
  now: Date.now,
  sleep: (ms: number, signal?: AbortSignal) => delay(ms, undefined, { signal }),
};

describe('deadline', () => {
  it('ends a GET in flight when the deadline passes', async () => {
    const emu = await emulator({ faults: { latencyMs: 2000 } });
    const { client } = clientFor(emu, { ...realTime, timeouts: { commandMs: 150 } });
    const error = await rejection(client.getWorkflow('order-shipped'));
    expect(error.kind).toBe('deadline');
    expect(error.message).toBe(
      "GET /v1/workflows/order-shipped: the command's deadline passed before the response arrived; if the run needs more time, raise timeouts.commandMs in wfsync.config.yaml",
    );
  });

  it('a POST in flight at the deadline is outcome-unknown', async () => {
    const emu = await emulator({ faults: { latencyMs: 2000 } });
    const { client } = clientFor(emu, { ...realTime, timeouts: { commandMs: 150 } });
    const error = await rejection(client.createWorkflow(workflowBody(emu), createOptions()));
    expect(error.kind).toBe('outcome-unknown');
    expect(error.message).toMatch(
      /^POST \/v1\/workflows: the command's deadline passed before the response arrived: the workflow may or may not have been created; run `wfsync plan`/,
    );
  });

  it('does not start a wait that would end past the deadline', async () => {
    const emu = await emulator({ faults: { rateLimitBurst: { every: 0, count: 1 } } });
    const clock = new VirtualClock();
    const { client } = clientFor(emu, { timeouts: { commandMs: 500 } }, clock);
    const error = await rejection(client.getWorkflow('order-shipped'));
    expect(error.kind).toBe('deadline');
    expect(error.status).toBe(429);
    expect(error.detail).toBe(
      "the command's deadline would pass during the next wait of 1 s (last problem: 429 rate limited: API rate limit exceeded)",
    );
    expect(clock.delays).toEqual([]);
    expect(emu.requests()).toHaveLength(1);
  });

  it('starts nothing once the deadline has passed', async () => {
    const emu = await emulator();
    const clock = new VirtualClock();
    const { client } = clientFor(emu, { timeouts: { commandMs: 0 } }, clock);
    expect((await rejection(client.getWorkflow('x'))).kind).toBe('deadline');
    expect(emu.requests()).toHaveLength(0);
  });
});

describe('cancellation', () => {
  it('an already-aborted signal sends nothing', async () => {
    const emu = await emulator();
    const controller = new AbortController();
    controller.abort();
    const { client } = clientFor(emu, { signal: controller.signal });
    const error = await rejection(client.createWorkflow(workflowBody(emu), createOptions()));
    expect(error.kind).toBe('cancelled');
    expect(error.message).toBe('POST /v1/workflows: cancelled');
    expect(emu.requests()).toHaveLength(0);
  });

  it('aborting a GET in flight ends it at once', async () => {
    const emu = await emulator({ faults: { latencyMs: 2000 } });
    const controller = new AbortController();
    const { client } = clientFor(emu, {
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'request') setImmediate(() => controller.abort());
      },
    });
    const error = await rejection(client.getWorkflow('order-shipped'));
    expect(error.kind).toBe('cancelled');
  });

  it('aborting a POST in flight is outcome-unknown', async () => {
    const emu = await emulator({ faults: { latencyMs: 2000 } });
    const controller = new AbortController();
    const { client } = clientFor(emu, {
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'request') setTimeout(() => controller.abort(), 20);
      },
    });
    const error = await rejection(client.createWorkflow(workflowBody(emu), createOptions()));
    expect(error.kind).toBe('outcome-unknown');
    expect(error.message).toMatch(
      /^POST \/v1\/workflows: cancelled while waiting for the response: the workflow may or may not have been created/,
    );
  });

  it('aborting during a retry wait stops the wait', async () => {
    const emu = await emulator({ faults: { errorRate: 1 } });
    const controller = new AbortController();
    const { client } = clientFor(emu, {
      ...realTime,
      retries: { baseDelayMs: 60_000, maxDelayMs: 60_000 },
      signal: controller.signal,
      onEvent: (event) => {
        if (event.type === 'retry') setImmediate(() => controller.abort());
      },
    });
    const error = await rejection(client.getWorkflow('order-shipped'));
    expect(error.kind).toBe('cancelled');
    expect(emu.requests()).toHaveLength(1);
  });
});
