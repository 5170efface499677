import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeExampleProject, runCli } from '../e2e/helpers.js';
import { startTarget, type Target, type TargetRun } from '../e2e/plan-sync-target.js';
import {
  type ConnectProxy,
  refusedPort,
  startConnectProxy,
  startTlsFront,
} from '../helpers/connect-proxy.js';
import { CA, LEAF_CERT, LEAF_KEY } from '../unit/remote/tls-fixtures.js';

/**
 * Behind a mandatory egress proxy: the built CLI, a real CONNECT proxy on loopback that records every request line
 * and header it parses (test/helpers/connect-proxy.ts), and the emulator, plain or behind a TLS front whose
 * certificate the CLI trusts through NODE_EXTRA_CA_CERTS. The API key only ever travels inside the tunnel;
 * proxy credentials go to the proxy alone and are never printed.
 */

const cleanup: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const step of cleanup.splice(0).reverse()) await step();
});

let caDir: string;
let caFile: string;
beforeAll(() => {
  caDir = mkdtempSync(join(tmpdir(), 'wfsync-proxy-ca-'));
  caFile = join(caDir, 'ca.pem');
  writeFileSync(caFile, CA);
});
afterAll(() => rmSync(caDir, { recursive: true, force: true }));

async function proxy(options: Parameters<typeof startConnectProxy>[0] = {}): Promise<ConnectProxy> {
  const started = await startConnectProxy(options);
  cleanup.push(() => started.close());
  return started;
}

/** Target `dev` at the emulator over https: `https://localhost:<port>`, a TLS front piping to it. */
async function httpsTarget(
  targetConfig: string[] = [],
): Promise<Target & { origin: string; hostPort: string }> {
  const target = await startTarget({ baseUrl: 'https://placeholder.invalid', targetConfig });
  const front = await startTlsFront(Number(new URL(target.emulator.url).port), {
    cert: LEAF_CERT,
    key: LEAF_KEY,
  });
  cleanup.push(() => front.close());
  const origin = `https://localhost:${front.port}`;
  const config = join(target.cwd, 'wfsync.config.yaml');
  writeFileSync(config, readFileSync(config, 'utf8').replace('https://placeholder.invalid', origin));
  const run = (args: string[], env: Record<string, string | undefined> = {}) =>
    target.run(args, { NODE_EXTRA_CA_CERTS: caFile, ...env });
  return { ...target, run, origin, hostPort: `localhost:${front.port}` };
}

const basic = (userPass: string) => `Basic ${Buffer.from(userPass).toString('base64')}`;

/** Every header line the proxy parsed, for a search. */
function parsed(p: ConnectProxy): string {
  return p.seen.map((s) => s.raw).join('\n');
}

function onlyConnects(p: ConnectProxy, hostPort: string): void {
  expect(p.seen.length).toBeGreaterThan(0);
  expect(p.seen.map((s) => `${s.method} ${s.target}`)).toEqual(p.seen.map(() => `CONNECT ${hostPort}`));
}

function verboseRoutes(result: TargetRun): string[] {
  return result.stderr.split('\n').filter((line) => line.startsWith('wfsync: connecting to '));
}

describe('an https target through the proxy', () => {
  it('works directly with no proxy set (the TLS set-up itself is sound)', async () => {
    const target = await httpsTarget();
    const p = await proxy();
    const result = await target.run(['plan', '--verbose']);
    expect(result.status).toBe(2);
    expect(verboseRoutes(result)).toEqual([
      `wfsync: connecting to ${target.origin} directly: no proxy is set (HTTPS_PROXY, HTTP_PROXY)`,
    ]);
    expect(p.seen).toEqual([]);
  });

  it.each(['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'])(
    'with %s: only CONNECT host:port reaches the proxy; the key travels inside TLS',
    async (variable) => {
      const target = await httpsTarget();
      const p = await proxy();
      const plan = await target.run(['plan', '--verbose'], { [variable]: p.url });
      expect(plan.status).toBe(2);
      expect(verboseRoutes(plan)).toEqual([
        `wfsync: connecting to ${target.origin} through the proxy ${p.url} (${variable})`,
      ]);
      const sync = await target.run(['sync'], { [variable]: p.url });
      expect(sync.status).toBe(0);
      expect(target.stored()).toHaveLength(9);
      onlyConnects(p, target.hostPort);
      expect(parsed(p)).not.toContain(target.emulator.apiKey);
      expect(p.seen.every((s) => s.headers.authorization === undefined)).toBe(true);
      // Encrypted: not even the tunnel's bytes show the key or the requests.
      const bytes = p.tunnelled().toString('latin1');
      expect(bytes.length).toBeGreaterThan(0);
      expect(bytes).not.toContain(target.emulator.apiKey);
      expect(bytes).not.toContain('/v1/workflows');
    },
  );
});

describe('an http target (loopback) through the proxy', () => {
  it.each(['HTTP_PROXY', 'http_proxy'])(
    'with %s: tunnelled too, never forwarded in plain form',
    async (variable) => {
      const target = await startTarget();
      const p = await proxy();
      const result = await target.run(['plan'], { [variable]: p.url });
      expect(result.status).toBe(2);
      onlyConnects(p, new URL(target.emulator.url).host);
      expect(parsed(p)).not.toContain(target.emulator.apiKey);
      // One read of the list (it holds the whole environment: none of the 9 is there, so none is looked up), then
      // the key's environment and its groups (plan's check before merge): every request went through the tunnel.
      expect(result.requests.map((r) => `${r.method} ${r.path}`).sort()).toEqual([
        'GET /v1/environments/me',
        'GET /v1/notification-groups',
        'GET /v1/workflows?page=0&limit=100',
      ]);
    },
  );

  it('HTTPS_PROXY does not apply to an http origin', async () => {
    const target = await startTarget();
    const p = await proxy();
    const result = await target.run(['plan'], { HTTPS_PROXY: p.url, https_proxy: p.url });
    expect(result.status).toBe(2);
    expect(p.seen).toEqual([]);
  });
});

describe('NO_PROXY', () => {
  it.each([
    { variable: 'NO_PROXY', list: 'the exact host', entry: (host: string) => host },
    { variable: 'no_proxy', list: 'the exact host', entry: (host: string) => host },
    { variable: 'NO_PROXY', list: '*', entry: () => '*' },
    {
      variable: 'NO_PROXY',
      list: 'a list with a leading-dot entry',
      entry: (host: string) => `other.example, .${host}`,
    },
    { variable: 'NO_PROXY', list: 'host:port', entry: (host: string, port: string) => `${host}:${port}` },
  ])('$variable with $list sends the https target straight', async ({ variable, entry }) => {
    const target = await httpsTarget();
    const p = await proxy();
    const [host = '', port = ''] = target.hostPort.split(':');
    const result = await target.run(['plan', '--verbose'], {
      HTTPS_PROXY: p.url,
      [variable]: entry(host, port),
    });
    expect(result.status).toBe(2);
    expect(verboseRoutes(result)).toEqual([
      `wfsync: connecting to ${target.origin} directly: ${variable} excludes localhost`,
    ]);
    expect(p.seen).toEqual([]);
  });

  it('an entry with another port does not', async () => {
    const target = await httpsTarget();
    const p = await proxy();
    const result = await target.run(['plan'], { HTTPS_PROXY: p.url, NO_PROXY: 'localhost:1' });
    expect(result.status).toBe(2);
    onlyConnects(p, target.hostPort);
  });
});

describe('proxy credentials', () => {
  const canary = () => `pw-canary-${randomBytes(6).toString('hex')}`;

  function expectNeverPrinted(results: TargetRun[], secrets: string[]): void {
    for (const result of results) {
      for (const secret of secrets) {
        expect(result.stdout, 'stdout').not.toContain(secret);
        expect(result.stderr, 'stderr').not.toContain(secret);
      }
    }
  }

  it('reach the proxy as Proxy-Authorization, never the service, never the output (human, json, --verbose)', async () => {
    const password = canary();
    const target = await httpsTarget();
    const p = await proxy({ requireAuthorization: basic(`alice:${password}`) });
    const env = { HTTPS_PROXY: `http://alice:${password}@127.0.0.1:${p.port}` };
    const results = [
      await target.run(['plan', '--verbose'], env),
      await target.run(['plan', '--format', 'json', '--verbose'], env),
      await target.run(['sync', '--verbose'], env),
      await target.run(['sync', '--format', 'json'], env),
    ];
    expect(results.map((r) => r.status)).toEqual([2, 2, 0, 0]);
    expect(p.seen.every((s) => s.headers['proxy-authorization'] === basic(`alice:${password}`))).toBe(true);
    expect(verboseRoutes(results[0]!)).toEqual([
      `wfsync: connecting to ${target.origin} through the proxy http://127.0.0.1:${p.port} (HTTPS_PROXY)`,
    ]);
    expectNeverPrinted(results, [password, basic(`alice:${password}`).slice(6)]);
  });

  it('a proxy nobody listens on: exit 1, named without its credentials', async () => {
    const password = canary();
    const target = await httpsTarget(['retries: { maxAttempts: 2 }']);
    const port = await refusedPort();
    const env = { HTTPS_PROXY: `http://alice:${password}@127.0.0.1:${port}` };
    const human = await target.run(['plan', '--verbose'], env);
    const json = await target.run(['sync', '--format', 'json', '--verbose'], env);
    expect([human.status, json.status]).toEqual([1, 1]);
    expect(human.stderr).toContain(
      `could not connect to the proxy http://127.0.0.1:${port}: connection refused (gave up after 2 attempts); ` +
        'is the proxy up? check HTTPS_PROXY',
    );
    expect(json.requests).toEqual([]);
    expectNeverPrinted([human, json], [password, basic(`alice:${password}`).slice(6)]);
  });

  it('407: exit 1, saying the credentials were rejected, without them', async () => {
    const password = canary();
    const target = await httpsTarget();
    const p = await proxy({ requireAuthorization: basic('alice:the-right-one') });
    const env = { HTTPS_PROXY: `http://alice:${password}@127.0.0.1:${p.port}` };
    const human = await target.run(['sync', '--verbose'], env);
    const json = await target.run(['plan', '--format', 'json'], env);
    expect([human.status, json.status]).toEqual([1, 1]);
    expect(human.stderr).toContain(
      `the proxy http://127.0.0.1:${p.port} rejected the credentials in HTTPS_PROXY (407 Proxy Authentication ` +
        'Required); check the user name and password in HTTPS_PROXY',
    );
    expect([...human.requests, ...json.requests]).toEqual([]);
    expectNeverPrinted([human, json], [password, basic(`alice:${password}`).slice(6)]);
  });

  it('a malformed proxy URL: exit 3, a configuration error that does not echo it', async () => {
    const password = canary();
    const target = await startTarget();
    const result = await target.run(['plan'], { HTTP_PROXY: `http://alice:${password}@[proxy:3128` });
    expect(result.status).toBe(3);
    expect(result.stderr).toBe('wfsync: HTTP_PROXY is not a valid proxy URL: expected http://host:port\n');
    expect(result.requests).toEqual([]);
  });
});

it('the local target (the embedded emulator) never goes through the proxy', async () => {
  const cwd = makeExampleProject();
  cleanup.push(() => rmSync(cwd, { recursive: true, force: true }));
  const p = await proxy();
  const result = await runCli(['plan', '--target', 'local', '--verbose'], {
    cwd,
    env: { HTTP_PROXY: p.url, HTTPS_PROXY: p.url },
  });
  expect(result.status).toBe(2);
  expect(result.stderr).toMatch(
    /^wfsync: connecting to the local emulator at http:\/\/127\.0\.0\.1:\d+ directly \(proxies never apply\)$/m,
  );
  expect(p.seen).toEqual([]);
});
