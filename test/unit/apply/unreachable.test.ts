import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { fetchObservations } from '../../../src/apply/fetch-observations.js';
import { createClient, RemoteError } from '../../../src/remote/index.js';
import { emptyState } from '../../../src/state/index.js';

/** A loopback port nothing listens on: bind one, then close it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('fetchObservations against an unreachable service', () => {
  it('rejects once with the connection error instead of reporting every workflow as an error', async () => {
    const port = await closedPort();
    const client = createClient({
      baseUrl: `http://127.0.0.1:${port}`,
      apiKey: 'wfs_test_key',
      retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 },
    });
    try {
      const lookups = fetchObservations({
        client,
        identifiers: ['a', 'b', 'c'],
        state: emptyState('dev', `http://127.0.0.1:${port}`),
        concurrency: 2,
      });
      const error = await lookups.catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RemoteError);
      expect((error as RemoteError).unreachable).toBe(true);
      expect((error as RemoteError).message).toMatch(
        /^GET \/v1\/workflows\/\w: could not connect to 127\.0\.0\.1:\d+: connection refused/,
      );
    } finally {
      await client.close();
    }
  });
});
