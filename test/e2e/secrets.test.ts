import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAllFiles } from '../helpers/temp-project.js';
import { closedPort, startTarget, type Target, type TargetRun } from './plan-sync-target.js';

/**
 * The API key never reaches stdout, stderr (even with --verbose and its stack traces), JSON output, the plan file,
 * the state file or any other file wfsync writes — in every failing scenario, and when all goes well.
 */

interface Scenario {
  name: string;
  /** Exit status of `sync` in this scenario, so each case is known to have gone the way it claims. */
  syncStatus: number;
  start(secret: string): Promise<{ target: Target; key: string }>;
}

const FAST_RETRIES = ['retries: { maxAttempts: 2, budget: 4, rateLimitWaits: 1 }'];

const SCENARIOS: Scenario[] = [
  {
    name: 'all goes well',
    syncStatus: 0,
    start: async (secret) => ({ target: await startTarget({ emulator: { apiKey: secret } }), key: secret }),
  },
  {
    name: 'a wrong key',
    syncStatus: 4,
    start: async (secret) => ({ target: await startTarget(), key: secret }),
  },
  {
    name: 'a Production key',
    syncStatus: 4,
    start: async (secret) => ({
      target: await startTarget({ emulator: { productionKeys: [secret] } }),
      key: secret,
    }),
  },
  {
    name: 'an unreachable service',
    syncStatus: 1,
    start: async (secret) => ({
      target: await startTarget({
        baseUrl: `http://127.0.0.1:${await closedPort()}`,
        targetConfig: FAST_RETRIES,
      }),
      key: secret,
    }),
  },
  {
    name: '429 forever',
    syncStatus: 5,
    start: async (secret) => ({
      target: await startTarget({
        emulator: { apiKey: secret, faults: { rateLimitBurst: { every: 0, count: 1 } } },
        targetConfig: FAST_RETRIES,
      }),
      key: secret,
    }),
  },
  {
    name: 'every create answered with a 500',
    syncStatus: 1,
    start: async (secret) => ({
      target: await startTarget({
        emulator: { apiKey: secret, faults: { errorRate: 1, only: ['POST'] } },
        targetConfig: FAST_RETRIES,
      }),
      key: secret,
    }),
  },
  {
    name: 'an invalid definition',
    syncStatus: 3,
    start: async (secret) => {
      const target = await startTarget({ emulator: { apiKey: secret } });
      const file = join(target.cwd, 'workflows/order-shipped.yaml');
      writeFileSync(file, readFileSync(file, 'utf8').replace('type: in_app', 'type: in-app'));
      return { target, key: secret };
    },
  },
];

/** Neither the key nor any 8 consecutive characters of its random part. */
function expectNoSecret(where: string, text: string, key: string, randomPart: string): void {
  expect(text.includes(key), `${where} holds the key`).toBe(false);
  for (let i = 0; i + 8 <= randomPart.length; i++) {
    const piece = randomPart.slice(i, i + 8);
    expect(text.includes(piece), `${where} holds part of the key (${piece})`).toBe(false);
  }
}

describe('the API key never leaks', () => {
  it.each(SCENARIOS)('$name', async (scenario) => {
    const randomPart = randomBytes(16).toString('hex');
    const { target, key } = await scenario.start(`wfs_secret_${randomPart}`);
    const env = { DEV_KEY: key };
    const runs: Array<[string, TargetRun]> = [];
    for (const args of [
      ['plan', '--verbose'],
      ['plan', '--format', 'json', '--verbose', '--out', 'plan.json'],
      ['sync', '--verbose'],
      ['sync', '--format', 'json', '--verbose'],
    ]) {
      runs.push([args.join(' '), await target.run(args, env)]);
    }
    expect(runs[2]![1].status).toBe(scenario.syncStatus);
    // plan is read-only whatever goes wrong.
    expect(runs[0]![1].posts + runs[1]![1].posts).toBe(0);
    // The key was sent (to the emulator, or towards the closed port) unless the definitions stopped the run.
    if (scenario.name === 'an invalid definition') expect(runs[2]![1].requests).toEqual([]);
    else if (scenario.name !== 'an unreachable service')
      expect(runs[2]![1].requests.length).toBeGreaterThan(0);
    for (const [command, result] of runs) {
      expectNoSecret(`stdout of ${command}`, result.stdout, key, randomPart);
      expectNoSecret(`stderr of ${command}`, result.stderr, key, randomPart);
    }
    for (const [path, text] of readAllFiles(target.cwd)) expectNoSecret(path, text, key, randomPart);
  });
});
