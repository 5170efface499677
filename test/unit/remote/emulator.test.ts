import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/exit-codes.js';
import { clientFor, createOptions, emulator, rejection, workflowBody } from './emulator-helpers.js';
import { VirtualClock } from './helpers.js';

describe('against the emulator', () => {
  it('creates a workflow and reads it back by identifier and by id', async () => {
    const emu = await emulator();
    const { client, events } = clientFor(emu);
    const created = await client.createWorkflow(workflowBody(emu), createOptions());
    expect(created).toMatchObject({ reconciled: false, replayed: false, attempts: 1 });
    expect(created.workflow.triggers[0]?.identifier).toBe('order-shipped');
    const byIdentifier = await client.getWorkflow('order-shipped');
    const byId = await client.getWorkflow(created.workflow._id);
    expect(byIdentifier?._id).toBe(created.workflow._id);
    expect(byId?.name).toBe('Order Shipped');
    expect(emu.workflows()).toHaveLength(1);
    expect(events.map((e) => `${e.type} ${e.method} ${e.path} ${e.status ?? ''}`.trim())).toEqual([
      'request POST /v1/workflows',
      'response POST /v1/workflows 201',
      'request GET /v1/workflows/order-shipped',
      'response GET /v1/workflows/order-shipped 200',
      `request GET /v1/workflows/${created.workflow._id}`,
      `response GET /v1/workflows/${created.workflow._id} 200`,
    ]);
  });

  it('GET of an unknown workflow is undefined', async () => {
    const emu = await emulator();
    expect(await clientFor(emu).client.getWorkflow('never-created')).toBeUndefined();
  });

  it('explains an unknown key (exit 4)', async () => {
    const emu = await emulator();
    const { client } = clientFor(emu, { apiKey: 'wfs_local_not_the_right_key' });
    const error = await rejection(client.getWorkflow('order-shipped'));
    expect(error.kind).toBe('auth');
    expect(error.exitCode).toBe(ExitCode.Auth);
    expect(error.retryable).toBe(false);
    expect(error.message).toBe(
      'GET /v1/workflows/order-shipped: 401 the API key in $NOVU_API_KEY was rejected; check that $NOVU_API_KEY holds a key of the environment this target syncs to',
    );
  });

  it('explains a Production key on create, which may still read', async () => {
    const emu = await emulator({ productionKeys: ['wfs_prod_key_0123456789'] });
    const { client } = clientFor(emu, { apiKey: 'wfs_prod_key_0123456789' });
    expect(await client.getWorkflow('order-shipped')).toBeUndefined();
    const error = await rejection(client.createWorkflow(workflowBody(emu), createOptions()));
    expect(error.kind).toBe('auth');
    expect(error.message).toBe(
      "POST /v1/workflows: 401 creating workflows needs a Development-environment key, and this one belongs to Production; set $NOVU_API_KEY to the Development environment's key",
    );
    expect(emu.requests().filter((r) => r.method === 'POST')).toHaveLength(1);
  });

  it('400 gives the validation messages (exit 3), without retrying', async () => {
    const emu = await emulator();
    const { client } = clientFor(emu);
    const error = await rejection(client.createWorkflow({ name: 'Broken' }, createOptions('broken')));
    expect(error.kind).toBe('validation');
    expect(error.exitCode).toBe(ExitCode.Invalid);
    expect(error.status).toBe(400);
    expect(error.serverMessages.length).toBeGreaterThan(0);
    expect(error.serverMessages.join('\n')).toMatch(/notificationGroupId|Notification group/);
    expect(emu.requests()).toHaveLength(1);
  });

  it('waits out a 429 burst as Retry-After says, then succeeds', async () => {
    const emu = await emulator({ faults: { rateLimitBurst: { every: 1, count: 2 } } });
    const { client, clock, events } = clientFor(emu, { rateLimit: { requestsPerSecond: 0 } });
    await client.createWorkflow(workflowBody(emu), createOptions());
    const found = await client.getWorkflow('order-shipped');
    expect(found?.name).toBe('Order Shipped');
    expect(emu.requests().map((r) => r.status)).toEqual([201, 429, 429, 200]);
    const retries = events.filter((e) => e.type === 'retry');
    expect(retries.map((e) => e.status)).toEqual([429, 429]);
    // Retry-After: 1 was honoured each time, even though the jittered backoff was shorter.
    expect(clock.delays.filter((d) => d >= 1000)).toHaveLength(2);
  });

  it('429 forever ends as rate-limited (exit 5) once the retry budget is spent', async () => {
    const emu = await emulator({ faults: { rateLimitBurst: { every: 0, count: 1 } } });
    const { client } = clientFor(emu, { retry: { maxAttempts: 10, budget: 3 } });
    const error = await rejection(client.getWorkflow('order-shipped'));
    expect(error.kind).toBe('rate-limited');
    expect(error.exitCode).toBe(ExitCode.RateLimited);
    expect(error.message).toContain('429 rate limited: API rate limit exceeded');
    expect(error.message).toContain('the retry budget of 3 retries for this run is used up');
    expect(emu.requests()).toHaveLength(4);
    // The budget is the client's, not the call's: the next call gets no retries at all.
    await rejection(client.getWorkflow('other'));
    expect(emu.requests()).toHaveLength(5);
  });

  it('retries a GET through 500s', async () => {
    const emu = await emulator({ faults: { errorRate: 1 } });
    const { client } = clientFor(emu, {
      onEvent: (event) => {
        if (event.type === 'retry' && event.attempt === 3) emu.setFaults(undefined);
      },
    });
    expect(await client.getWorkflow('order-shipped')).toBeUndefined();
    expect(emu.requests().map((r) => r.status)).toEqual([500, 500, 404]);
  });

  it('asks again when a proxy cut a 404 short (even with a fixed-up Content-Length), then reads it as absent', async () => {
    const emu = await emulator({ faults: { truncateBodyRate: 1, only: ['GET'] } });
    const { client, events } = clientFor(emu, {
      onEvent: (event) => {
        if (event.type === 'retry' && event.attempt === 3) emu.setFaults(undefined);
      },
    });
    expect(await client.getWorkflow('never-created')).toBeUndefined();
    expect(emu.requests().map((r) => `${r.status} ${r.fault ?? ''}`.trim())).toEqual([
      '404 truncate-body',
      '404 truncate-body',
      '404',
    ]);
    expect(events.find((e) => e.type === 'retry')?.reason).toMatch(
      /^404 with a body that is not valid JSON \(/,
    );
  });

  it('a 404 cut short on every attempt is a protocol error, not "no such endpoint"', async () => {
    const emu = await emulator({ faults: { truncateBodyRate: 1, only: ['GET'] } });
    const error = await rejection(clientFor(emu, { retry: { maxAttempts: 2 } }).client.getWorkflow('x'));
    expect(error.kind).toBe('protocol');
    expect(error.status).toBe(404);
    expect(error.detail).toMatch(
      /^404 with a body that is not valid JSON \(.+\) \(gave up after 2 attempts\)$/,
    );
  });

  it('gives up on 500s after maxAttempts with the errorId', async () => {
    const emu = await emulator({ faults: { errorRate: 1 } });
    const error = await rejection(clientFor(emu, { retry: { maxAttempts: 3 } }).client.getWorkflow('x'));
    expect(error.kind).toBe('server');
    expect(error.retryable).toBe(true);
    expect(error.message).toMatch(
      /^GET \/v1\/workflows\/x: 500 Internal Server Error(: .+)? \(errorId [0-9a-f-]{36}\) \(gave up after 3 attempts\); try again later; if it keeps failing, give the errorId to the service's support$/,
    );
  });

  it('follows the service rate-limit headers so a burst never meets a 429', async () => {
    const clock = new VirtualClock();
    const emu = await emulator({ clock: clock.now, rateLimit: { limit: 2, windowSeconds: 1 } });
    const { client, events } = clientFor(emu, { rateLimit: { requestsPerSecond: 0 } }, clock);
    for (let i = 0; i < 7; i++) await client.getWorkflow(`workflow-${i}`);
    expect(emu.requests().map((r) => r.status)).toEqual(Array(7).fill(404));
    expect(events.filter((e) => e.type === 'wait').length).toBeGreaterThanOrEqual(2);
  });

  it('caps its own request rate across concurrent callers', async () => {
    const emu = await emulator();
    const clock = new VirtualClock();
    const starts: number[] = [];
    const { client } = clientFor(
      emu,
      {
        rateLimit: { requestsPerSecond: 5, burst: 2 },
        onEvent: (event) => {
          if (event.type === 'request') starts.push(clock.now());
        },
      },
      clock,
    );
    await Promise.all(Array.from({ length: 12 }, (_, i) => client.getWorkflow(`wf-${i}`)));
    expect(emu.requests()).toHaveLength(12);
    // In any second: the burst of 2, plus one every 200 ms after it.
    const busiest = Math.max(...starts.map((t) => starts.filter((s) => s >= t && s < t + 1000).length));
    expect(busiest).toBeLessThanOrEqual(6);
    expect(Math.max(...starts) - Math.min(...starts)).toBe(10 * 200);
  });
});
