import { describe, expect, it } from 'vitest';
import type { FaultOptions } from '../../../src/emulator/index.js';
import { type ClientEvent, createClient, RemoteError } from '../../../src/remote/index.js';
import { expectNoKey, mockOptions, newMockAgent, ORIGIN } from '../../helpers/remote.js';
import { clientFor, createOptions, emulator, workflowBody } from './emulator-helpers.js';

/** Every text a failing run shows or stores: message, stack, cause and its stack, server messages, JSON. */
function textsOf(error: unknown): unknown[] {
  if (!(error instanceof Error)) return [String(error)];
  const cause = error.cause as Error | undefined;
  const remote = error instanceof RemoteError ? [error.serverMessages, error.path] : [];
  return [error.message, error.stack, cause?.message, cause?.stack, JSON.stringify(error), ...remote];
}

const SCENARIOS: Array<[string, FaultOptions]> = [
  ['reset before', { resetBeforeRate: 1 }],
  ['reset after', { resetAfterRate: 1 }],
  ['500', { errorRate: 1 }],
  ['HTML 502', { htmlErrorRate: 1 }],
  ['429', { rateLimitBurst: { every: 0, count: 1 } }],
  ['truncated', { truncateBodyRate: 1 }],
];

describe('the API key never leaks', () => {
  it.each(SCENARIOS)('%s: not in errors nor events', async (_label, faults) => {
    const emu = await emulator({ faults, apiKey: 'wfs_local_secret_value_0123456789abcdef' });
    const events: ClientEvent[] = [];
    const { client } = clientFor(emu, { retries: { maxAttempts: 2 }, onEvent: (e) => events.push(e) });
    const errors: unknown[] = [];
    await client.getWorkflow('order-shipped').catch((e: unknown) => errors.push(e));
    await client.createWorkflow(workflowBody(emu), createOptions()).catch((e: unknown) => errors.push(e));
    expect(errors.length).toBeGreaterThan(0);
    expectNoKey([...errors.flatMap(textsOf), ...events], emu.apiKey);
  });

  it('nor for a wrong key the server rejects', async () => {
    const emu = await emulator();
    const wrongKey = 'wfs_local_wrong_key_fedcba9876543210';
    const { client } = clientFor(emu, { apiKey: wrongKey });
    const error = await client.getWorkflow('x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RemoteError);
    expectNoKey(textsOf(error), wrongKey);
  });

  it('nor when a low-level error quotes the request headers', async () => {
    // undici's MockNotMatchedError puts the request headers, Authorization included, into its message.
    const agent = newMockAgent();
    agent
      .get(ORIGIN)
      .intercept({ path: '/v1/workflows/x', method: 'GET', headers: { authorization: 'ApiKey another' } })
      .reply(200, '');
    const options = mockOptions(agent, { retries: { maxAttempts: 1 } });
    const error = await createClient(options)
      .getWorkflow('x')
      .catch((e: unknown) => e);
    await agent.close();
    expect(error).toBeInstanceOf(RemoteError);
    expect(String((error as Error).cause)).toContain('"authorization":"ApiKey [REDACTED]"');
    expectNoKey(textsOf(error), options.apiKey);
  });
});
