import { afterEach, describe, expect, it } from 'vitest';
import type { EmulatorOptions } from '../../../src/emulator/index.js';
import { type ClientEvent, type ClientOptions, openTargetSession } from '../../../src/remote/index.js';
import { chooseProxyRoute, type ProxyRoute } from '../../../src/remote/proxy.js';
import { type ConnectProxy, refusedPort, startConnectProxy } from '../../helpers/connect-proxy.js';
import { clientFor, createOptions, emulator, rejection, workflowBody } from './emulator-helpers.js';

// The client through a real CONNECT proxy on loopback (test/helpers/connect-proxy.ts), against the emulator.

const proxies: ConnectProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

async function proxy(options: Parameters<typeof startConnectProxy>[0] = {}): Promise<ConnectProxy> {
  const started = await startConnectProxy(options);
  proxies.push(started);
  return started;
}

function routeVia(origin: string, proxyUrl: string): ProxyRoute {
  return chooseProxyRoute(origin, { HTTP_PROXY: proxyUrl });
}

const basic = (userPass: string) => `Basic ${Buffer.from(userPass).toString('base64')}`;

describe('the client through a CONNECT proxy', () => {
  it('tunnels every request: the proxy parses only CONNECT host:port, never the API key', async () => {
    const emu = await emulator();
    const p = await proxy();
    const { client } = clientFor(emu, { proxy: routeVia(emu.url, p.url) });
    await client.createWorkflow(workflowBody(emu), createOptions());
    expect(await client.getWorkflow('order-shipped')).toMatchObject({ name: 'Order Shipped' });
    const { host } = new URL(emu.url);
    expect(p.seen.length).toBeGreaterThan(0);
    for (const seen of p.seen) {
      expect(seen.method).toBe('CONNECT');
      expect(seen.target).toBe(host);
      expect(seen.raw).not.toContain(emu.apiKey);
      expect(Object.keys(seen.headers)).not.toContain('authorization');
      expect(Object.keys(seen.headers)).not.toContain('proxy-authorization');
    }
    // The key went to the service, inside the tunnel (plain http here: a loopback target).
    expect(p.tunnelled().toString('latin1')).toContain(`ApiKey ${emu.apiKey}`);
    expect(emu.requests().map((r) => r.method)).toEqual(['POST', 'GET']);
  });

  it("sends the URL's credentials to the proxy as Proxy-Authorization, and never to the service", async () => {
    const emu = await emulator();
    const p = await proxy({ requireAuthorization: basic('alice:pw-canary') });
    const port = p.url.replace('http://', '');
    const { client } = clientFor(emu, { proxy: routeVia(emu.url, `http://alice:pw-canary@${port}`) });
    await client.getWorkflow('order-shipped');
    expect(p.seen.map((s) => s.headers['proxy-authorization'])).toEqual([basic('alice:pw-canary')]);
    const tunnelled = p.tunnelled().toString('latin1');
    expect(tunnelled).not.toMatch(/proxy-authorization/i);
    expect(tunnelled).not.toContain(basic('alice:pw-canary').slice(6));
  });

  it('retries, waits and gives up exactly as it does directly', async () => {
    const faults: EmulatorOptions = {
      seed: 3,
      faults: { errorRate: 0.4, rateLimitBurst: { every: 3, count: 1 }, truncateBodyRate: 0.2 },
    };
    const run = async (via: 'direct' | 'proxy') => {
      const emu = await emulator(faults);
      const options: Partial<ClientOptions> =
        via === 'proxy' ? { proxy: routeVia(emu.url, (await proxy()).url) } : {};
      const { client, events } = clientFor(emu, { ...options, retries: { maxAttempts: 3, budget: 20 } });
      const outcomes: string[] = [];
      for (const name of ['One', 'Two', 'Three', 'Four']) {
        const identifier = name.toLowerCase();
        outcomes.push(
          await client
            .createWorkflow(workflowBody(emu, name), createOptions(identifier))
            .then((r) => `created ${r.workflow.name} in ${r.attempts}`)
            .catch((e: Error) => e.message),
        );
      }
      return {
        outcomes,
        events: events.map(({ type, method, status, attempt, delayMs }: ClientEvent) => ({
          type,
          method,
          status,
          attempt,
          delayMs,
        })),
      };
    };
    const direct = await run('direct');
    const proxied = await run('proxy');
    expect(direct.events.some((e) => e.type === 'retry')).toBe(true);
    expect(proxied).toEqual(direct);
  });

  it('keeps its header timeout and response cap', async () => {
    const slow = await emulator({ faults: { latencyMs: 2_000 } });
    const { client: impatient } = clientFor(slow, {
      proxy: routeVia(slow.url, (await proxy()).url),
      timeouts: { headersMs: 100 },
      retries: { maxAttempts: 1 },
    });
    const timedOut = await rejection(impatient.getWorkflow('order-shipped'));
    expect(timedOut.kind).toBe('timeout');
    expect(timedOut.detail).toMatch(/^timed out after 0\.1 s waiting for response headers/);

    const emu = await emulator();
    const { client: direct } = clientFor(emu);
    await direct.createWorkflow(workflowBody(emu), createOptions());
    const { client: capped } = clientFor(emu, {
      proxy: routeVia(emu.url, (await proxy()).url),
      maxResponseBytes: 64,
      retries: { maxAttempts: 1 },
    });
    const tooLarge = await rejection(capped.getWorkflow('order-shipped'));
    expect(tooLarge.kind).toBe('protocol');
    expect(tooLarge.detail).toMatch(/larger than/);
  });
});

describe('proxy failures, in words that name the proxy without its credentials', () => {
  async function failWith(proxyUrl: string, options: Partial<ClientOptions> = {}) {
    const emu = await emulator();
    const route = routeVia(emu.url, proxyUrl);
    const { client } = clientFor(emu, { proxy: route, retries: { maxAttempts: 2 }, ...options });
    const error = await rejection(client.getWorkflow('order-shipped'));
    const everything = `${error.message}\n${error.stack}\n${(error.cause as Error | undefined)?.stack}`;
    expect(everything).not.toContain('pw-canary');
    expect(everything).not.toContain(Buffer.from('alice:pw-canary').toString('base64'));
    return { error, emu, host: new URL(emu.url).host };
  }

  it('a proxy nobody listens on', async () => {
    const port = await refusedPort();
    const { error, emu } = await failWith(`http://alice:pw-canary@127.0.0.1:${port}`);
    expect(error.kind).toBe('network');
    expect(error.exitCode).toBe(1);
    expect(error.unreachable).toBe(true);
    expect(error.message).toBe(
      `GET /v1/workflows/order-shipped: could not connect to the proxy http://127.0.0.1:${port}: connection refused ` +
        '(gave up after 2 attempts); is the proxy up? check HTTP_PROXY (or list 127.0.0.1 in NO_PROXY to go direct)',
    );
    expect(emu.requests()).toEqual([]);
  });

  it('407 without credentials, and with wrong ones: not retried, nothing reaches the service', async () => {
    const p = await proxy({ requireAuthorization: basic('alice:right') });
    const port = p.url.replace('http://', '');
    const none = await failWith(p.url);
    expect(none.error.message).toBe(
      `GET /v1/workflows/order-shipped: the proxy ${p.url} requires authentication (407 Proxy Authentication ` +
        `Required); put the proxy's user name and password in HTTP_PROXY (http://user:password@host:port)`,
    );
    const wrong = await failWith(`http://alice:pw-canary@${port}`);
    expect(wrong.error.message).toBe(
      `GET /v1/workflows/order-shipped: the proxy ${p.url} rejected the credentials in HTTP_PROXY (407 Proxy ` +
        'Authentication Required); check the user name and password in HTTP_PROXY',
    );
    expect(wrong.error.unreachable).toBe(true);
    expect(p.seen).toHaveLength(2);
    expect([...none.emu.requests(), ...wrong.emu.requests()]).toEqual([]);
  });

  it('a CONNECT the proxy forbids (403) is final; one it cannot open (502) is retried', async () => {
    const forbidding = await proxy({ refuseWith: 403 });
    const forbidden = await failWith(forbidding.url);
    expect(forbidden.error.message).toBe(
      `GET /v1/workflows/order-shipped: the proxy ${forbidding.url} refused to open a tunnel to ${forbidden.host} ` +
        `(403); ask whoever runs the proxy to allow CONNECT to ${forbidden.host}, or list 127.0.0.1 in NO_PROXY`,
    );
    expect(forbidding.seen).toHaveLength(1);

    const failing = await proxy({ refuseWith: 502 });
    const bad = await failWith(failing.url);
    expect(bad.error.detail).toBe(
      `the proxy ${failing.url} could not open a tunnel to ${bad.host} (502) (gave up after 2 attempts)`,
    );
    expect(failing.seen).toHaveLength(2);
  });
});

describe('openTargetSession', () => {
  const target = (baseUrl: string) => ({
    name: 'dev',
    isDefault: false,
    kind: 'remote' as const,
    baseUrl,
    apiKeyEnv: 'DEV_KEY',
    notificationGroups: {},
    statePath: '/nonexistent/state.json',
    concurrency: 1,
    timeouts: {},
    retries: { maxAttempts: 1 },
    allowInsecureHttp: false,
    allow: new Set(['create'] as const),
  });

  it('reads the proxy from the env it is given, never from process.env', async () => {
    const emu = await emulator();
    const p = await proxy();
    const saved = { HTTP_PROXY: process.env.HTTP_PROXY, http_proxy: process.env.http_proxy };
    process.env.HTTP_PROXY = `http://127.0.0.1:${await refusedPort()}`;
    delete process.env.http_proxy;
    try {
      const direct = await openTargetSession(target(emu.url), { env: { DEV_KEY: emu.apiKey } });
      expect(direct.route).toBe(`connecting to ${emu.url} directly: no proxy is set (HTTP_PROXY)`);
      await direct.client.getWorkflow('order-shipped');
      await direct.close();

      const via = await openTargetSession(target(emu.url), {
        env: { DEV_KEY: emu.apiKey, http_proxy: p.url },
      });
      expect(via.route).toBe(`connecting to ${emu.url} through the proxy ${p.url} (http_proxy)`);
      await via.client.getWorkflow('order-shipped');
      await via.close();
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
    expect(p.seen.map((s) => s.method)).toEqual(['CONNECT']);
    expect(emu.requests()).toHaveLength(2);
  });

  it('the local target is always direct, whatever the environment says', async () => {
    const p = await proxy();
    const local = await openTargetSession(
      { ...target('unused'), name: 'local', kind: 'local' },
      { env: { HTTP_PROXY: p.url, HTTPS_PROXY: p.url } },
    );
    try {
      expect(local.route).toMatch(/^connecting to the local emulator at http:\/\/127\.0\.0\.1:\d+ directly/);
      await local.client.getWorkflow('order-shipped');
    } finally {
      await local.close();
    }
    expect(p.seen).toEqual([]);
  });

  it('a malformed proxy variable is a configuration error, before any request', async () => {
    const emu = await emulator();
    await expect(
      openTargetSession(target(emu.url), {
        env: { DEV_KEY: emu.apiKey, HTTP_PROXY: 'http://u:pw-canary@[::' },
      }),
    ).rejects.toMatchObject({
      exitCode: 3,
      message: 'HTTP_PROXY is not a valid proxy URL: expected http://host:port',
    });
    expect(emu.requests()).toEqual([]);
  });
});
