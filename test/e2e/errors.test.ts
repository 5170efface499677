import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { closedPort, startTarget } from './plan-sync-target.js';

/** What plan and sync do when the key, the service or the definitions are wrong: exit status and message. */

const STACK = /\n\s+at /;

describe('authentication (exit 4)', () => {
  it('a wrong key: exit 4 naming DEV_KEY, no stack trace, nothing created', async () => {
    const target = await startTarget();
    for (const command of ['plan', 'sync']) {
      const result = await target.run([command], { DEV_KEY: 'wfs_wrong_0123456789abcdef' });
      expect(result.status).toBe(4);
      expect(result.stderr).toMatch(/^wfsync: .*401 .*\$DEV_KEY.*rejected/m);
      expect(result.stderr).not.toMatch(STACK);
      expect(result.posts).toBe(0);
    }
    expect(target.stored()).toEqual([]);
  });

  it('a Production-environment key: exit 4 explaining that creating needs a Development key', async () => {
    const production = 'wfs_prod_fedcba9876543210';
    const target = await startTarget({ emulator: { productionKeys: [production] } });
    const sync = await target.run(['sync'], { DEV_KEY: production });
    expect(sync.status).toBe(4);
    // Found before the first POST (the key's environment is asked: test/e2e/preflight.test.ts), so none is sent.
    expect(sync.stderr).toContain('only a Development-environment key may create them');
    expect(sync.stderr).not.toMatch(STACK);
    expect(sync.posts).toBe(0);
    expect(target.stored()).toEqual([]);
    expect(target.state()?.workflows ?? {}).toEqual({});
  });

  it('no key at all: exit 4 naming the variable to set, before any request', async () => {
    const target = await startTarget();
    for (const command of ['plan', 'sync']) {
      const result = await target.run([command], { DEV_KEY: undefined });
      expect(result.status).toBe(4);
      expect(result.stderr).toBe(
        'wfsync: no API key for target "dev": set the environment variable DEV_KEY (or WFSYNC_API_KEY)\n',
      );
      expect(result.requests).toEqual([]);
    }
  });
});

describe('the service', () => {
  it('unreachable (a closed port): exit 1 with one error naming the endpoint; nothing recorded', async () => {
    const port = await closedPort();
    const target = await startTarget({
      baseUrl: `http://127.0.0.1:${port}`,
      targetConfig: ['retries: { maxAttempts: 2, budget: 2 }'],
    });
    for (const command of ['plan', 'sync']) {
      const result = await target.run([command]);
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(
        new RegExp(
          `^wfsync: GET /v1/workflows/\\S+: could not connect to 127\\.0\\.0\\.1:${port}: connection refused`,
          'm',
        ),
      );
      expect(result.stderr).toContain('targets.dev.baseUrl');
      expect(result.stderr).not.toMatch(STACK);
      expect(result.stdout).toBe('');
    }
    expect(target.state()?.workflows ?? {}).toEqual({});
  });

  it('429 forever: exit 5 once the service refused rateLimitWaits times in a row; nothing created', async () => {
    const target = await startTarget({
      emulator: { faults: { rateLimitBurst: { every: 0, count: 1 } } },
      targetConfig: ['retries: { maxAttempts: 3, budget: 2, rateLimitWaits: 2 }'],
    });
    const sync = await target.run(['sync']);
    expect(sync.status).toBe(5);
    expect(sync.stderr).toMatch(
      /^wfsync: .*429 rate limited.*still refused after waiting as asked \d+ times in a row/m,
    );
    expect(sync.stderr).not.toMatch(STACK);
    expect(sync.requests.every((r) => r.status === 429)).toBe(true);
    expect(sync.posts).toBe(0);
    expect(target.stored()).toEqual([]);
  });
});

describe('invalid definitions (exit 3)', () => {
  it('plan and sync report every problem and send nothing', async () => {
    const target = await startTarget();
    const file = join(target.cwd, 'workflows/trial-ending.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('type: in_app', 'type: in_apps'));
    for (const command of ['plan', 'sync']) {
      const result = await target.run([command]);
      expect(result.status).toBe(3);
      expect(result.stderr).toContain(
        'wfsync: 1 problem in the definitions; nothing was sent (run "wfsync validate" for the full report)',
      );
      expect(result.stderr).toMatch(/^workflows\/trial-ending\.yaml:\d+:\d+ error .*\[schema-enum\]$/m);
      expect(result.stderr).not.toMatch(STACK);
      expect(result.stdout).toBe('');
      expect(result.requests).toEqual([]);
    }
    expect(target.state()).toBeUndefined();
  });
});

describe("the service's words in an error", () => {
  it('never start a line: each line after the first is indented, and `::` neutralised under GitHub Actions', async () => {
    // A service that answers every request 401 with a message of several lines, forging wfsync's and the runner's.
    const said = 'key revoked\nwfsync: No changes. 9 workflows in sync.\n::error::forged\r\n';
    const server = createServer((_req, res) => {
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ statusCode: 401, message: said }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const target = await startTarget({ baseUrl: `http://127.0.0.1:${port}` });
      const plain = await target.run(['plan']);
      expect(plain.status).toBe(4);
      const error = plain.stderr.slice(plain.stderr.indexOf('wfsync: '));
      expect(error).toMatch(/^wfsync: GET \S+: 401 authentication failed: key revoked\n/);
      expect(error.split('\n').slice(1)).toEqual([
        '  wfsync: No changes. 9 workflows in sync.',
        '  ::error::forged␍',
        '  ; check $DEV_KEY',
        '',
      ]);
      const actions = await target.run(['plan'], { GITHUB_ACTIONS: 'true' });
      expect(actions.stderr).toContain('\n  wfsync: No changes. 9 workflows in sync.\n');
      expect(actions.stderr).toContain('\n  :\uff1aerror::forged');
      expect(actions.stderr.split('\n').filter((line) => /^\s*::/.test(line))).toEqual([]);
    } finally {
      server.close();
    }
  });
});
