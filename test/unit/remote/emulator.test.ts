import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../../src/exit-codes.js';
import { clientFor, createOptions, emulator, rejection, workflowBody } from './emulator-helpers.js';

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
    const error = await rejection(clientFor(emu, { retries: { maxAttempts: 2 } }).client.getWorkflow('x'));
    expect(error.kind).toBe('protocol');
    expect(error.status).toBe(404);
    expect(error.detail).toMatch(
      /^404 with a body that is not valid JSON \(.+\) \(gave up after 2 attempts\)$/,
    );
  });

  it('gives up on 500s after maxAttempts with the errorId', async () => {
    const emu = await emulator({ faults: { errorRate: 1 } });
    const error = await rejection(clientFor(emu, { retries: { maxAttempts: 3 } }).client.getWorkflow('x'));
    expect(error.kind).toBe('server');
    expect(error.message).toMatch(
      /^GET \/v1\/workflows\/x: 500 Internal Server Error(: .+)? \(errorId [0-9a-f-]{36}\) \(gave up after 3 attempts\); try again later; if it keeps failing, give the errorId to the service's support$/,
    );
  });
});
