import fc from 'fast-check';
import { EnvHttpProxyAgent } from 'undici';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors.js';
import {
  chooseProxyRoute,
  describeRoute,
  excludedByNoProxy,
  type ProxyRoute,
} from '../../../src/remote/proxy.js';
import { runs } from '../../helpers/fc-runs.js';

const HTTPS = 'https://api.example.com';
const HTTP = 'http://127.0.0.1:3000';

function proxied(route: ProxyRoute) {
  if (route.type !== 'proxy') throw new Error(`expected a proxy, got ${JSON.stringify(route)}`);
  return route;
}

describe('chooseProxyRoute: which variable applies', () => {
  it('no variable set: direct', () => {
    expect(chooseProxyRoute(HTTPS, {})).toEqual({ type: 'direct', why: 'unset' });
    expect(chooseProxyRoute(HTTP, { HTTPS_PROXY: 'http://p:1' })).toEqual({ type: 'direct', why: 'unset' });
  });

  it.each([
    ['HTTPS_PROXY', { HTTPS_PROXY: 'http://upper:1' }, 'http://upper:1'],
    ['https_proxy', { https_proxy: 'http://lower:1' }, 'http://lower:1'],
    ['https_proxy', { https_proxy: 'http://lower:1', HTTPS_PROXY: 'http://upper:1' }, 'http://lower:1'],
    ['HTTPS_PROXY', { https_proxy: '  ', HTTPS_PROXY: 'http://upper:1' }, 'http://upper:1'],
    ['HTTP_PROXY', { HTTP_PROXY: 'http://plain:1' }, 'http://plain:1'],
    ['http_proxy', { http_proxy: 'http://plain:2', HTTP_PROXY: 'http://plain:1' }, 'http://plain:2'],
    ['HTTPS_PROXY', { HTTPS_PROXY: 'http://s:1', http_proxy: 'http://plain:1' }, 'http://s:1'],
  ])('an https origin takes %s', (variable, env, uri) => {
    const route = proxied(chooseProxyRoute(HTTPS, env));
    expect(route.variable).toBe(variable);
    expect(route.uri).toBe(uri);
  });

  it.each([
    ['HTTP_PROXY', { HTTP_PROXY: 'http://upper:1', HTTPS_PROXY: 'http://s:1' }, 'http://upper:1'],
    ['http_proxy', { http_proxy: 'http://lower:1', HTTP_PROXY: 'http://upper:1' }, 'http://lower:1'],
  ])('an http origin takes %s, never HTTPS_PROXY', (variable, env, uri) => {
    const route = proxied(chooseProxyRoute(HTTP, env));
    expect(route.variable).toBe(variable);
    expect(route.uri).toBe(uri);
  });

  it('a proxy without a scheme is http; https proxies are kept', () => {
    expect(proxied(chooseProxyRoute(HTTPS, { HTTPS_PROXY: 'proxy.corp:3128' })).uri).toBe(
      'http://proxy.corp:3128',
    );
    expect(proxied(chooseProxyRoute(HTTPS, { HTTPS_PROXY: 'https://proxy.corp:8443/' })).uri).toBe(
      'https://proxy.corp:8443',
    );
  });
});

describe('chooseProxyRoute: credentials', () => {
  it('user and password become a Basic token for the proxy, and never part of its URI', () => {
    const route = proxied(chooseProxyRoute(HTTPS, { HTTPS_PROXY: 'http://alice:s3cr%40t-pw@proxy:3128' }));
    expect(route.uri).toBe('http://proxy:3128');
    expect(route.token).toBe(`Basic ${Buffer.from('alice:s3cr@t-pw').toString('base64')}`);
    expect(route.secrets).toEqual(
      expect.arrayContaining([
        's3cr@t-pw',
        's3cr%40t-pw',
        'alice:s3cr@t-pw',
        Buffer.from('alice:s3cr@t-pw').toString('base64'),
        'http://alice:s3cr%40t-pw@proxy:3128',
      ]),
    );
    // The user name alone is no secret (it may also spell part of the host).
    expect(route.secrets).not.toContain('alice');
  });

  it('a user name alone is treated as a token: secret, sent with an empty password', () => {
    const route = proxied(chooseProxyRoute(HTTPS, { HTTPS_PROXY: 'http://tok3n-abc@proxy:3128' }));
    expect(route.token).toBe(`Basic ${Buffer.from('tok3n-abc:').toString('base64')}`);
    expect(route.secrets).toContain('tok3n-abc');
  });

  it('no credentials: no token, nothing to hide (the proxy URL itself is not secret)', () => {
    const route = proxied(chooseProxyRoute(HTTPS, { HTTPS_PROXY: 'http://proxy:3128' }));
    expect(route.token).toBeUndefined();
    expect(route.secrets).toEqual([]);
  });

  it.each([
    ['http://user:pw-canary@[bad', 'HTTPS_PROXY is not a valid proxy URL: expected http://host:port'],
    ['http://user:pw-canary@proxy:99999', 'HTTPS_PROXY is not a valid proxy URL: expected http://host:port'],
    [
      'socks5://user:pw-canary@proxy:1080',
      'HTTPS_PROXY: only http:// and https:// proxies are supported, not socks5://',
    ],
    ['http://user:pw-canary@:3128', 'HTTPS_PROXY is not a valid proxy URL: expected http://host:port'],
  ])('a malformed value is a ConfigError that never echoes it: %s', (value, message) => {
    let caught: unknown;
    try {
      chooseProxyRoute(HTTPS, { HTTPS_PROXY: value });
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ConfigError);
    expect((caught as Error).message).toBe(message);
    expect((caught as Error).message).not.toContain('canary');
  });

  it('a malformed variable that does not apply to the origin is not read', () => {
    expect(chooseProxyRoute(HTTP, { HTTPS_PROXY: 'http://[bad' })).toEqual({ type: 'direct', why: 'unset' });
  });
});

describe('chooseProxyRoute: NO_PROXY', () => {
  const proxy = { HTTPS_PROXY: 'http://proxy:3128' };

  it.each([
    ['api.example.com'],
    ['example.com'],
    ['.example.com'],
    ['*.example.com'],
    ['*'],
    [' * '],
    ['other.org, api.example.com'],
    ['other.org api.example.com'],
    ['api.example.com:443'],
    ['API.Example.COM'],
  ])('%j excludes https://api.example.com', (noProxy) => {
    expect(chooseProxyRoute(HTTPS, { ...proxy, NO_PROXY: noProxy })).toEqual({
      type: 'direct',
      why: 'no-proxy',
      noProxyVariable: 'NO_PROXY',
    });
  });

  it.each([
    ['api.example.com:8443'],
    ['xample.com'],
    ['other.org'],
    ['localhost,*'],
    ['www.api.example.com'],
  ])('%j does not exclude https://api.example.com', (noProxy) => {
    expect(chooseProxyRoute(HTTPS, { ...proxy, NO_PROXY: noProxy }).type).toBe('proxy');
  });

  it('no_proxy wins over NO_PROXY, and the route carries the value for undici', () => {
    expect(chooseProxyRoute(HTTPS, { ...proxy, no_proxy: 'api.example.com', NO_PROXY: 'other.org' })).toEqual(
      {
        type: 'direct',
        why: 'no-proxy',
        noProxyVariable: 'no_proxy',
      },
    );
    expect(proxied(chooseProxyRoute(HTTPS, { ...proxy, no_proxy: ' other.org ' })).noProxy).toBe('other.org');
  });

  it('a port in NO_PROXY must match the origin port (default ports included)', () => {
    expect(excludedByNoProxy(new URL('http://127.0.0.1:3000'), '127.0.0.1:3000')).toBe(true);
    expect(excludedByNoProxy(new URL('http://127.0.0.1:3000'), '127.0.0.1:3001')).toBe(false);
    expect(excludedByNoProxy(new URL('http://example.com'), 'example.com:80')).toBe(true);
    expect(excludedByNoProxy(new URL('https://[::1]:3000'), '[::1]')).toBe(true);
  });
});

describe('describeRoute', () => {
  it('names the proxy and its variable, never the credentials', () => {
    const route = chooseProxyRoute(HTTPS, { HTTPS_PROXY: 'http://alice:pw-canary@proxy:3128' });
    expect(describeRoute(HTTPS, route)).toBe(
      'connecting to https://api.example.com through the proxy http://proxy:3128 (HTTPS_PROXY)',
    );
  });

  it('says why the connection is direct', () => {
    expect(describeRoute(HTTPS, { type: 'direct', why: 'unset' })).toBe(
      'connecting to https://api.example.com directly: no proxy is set (HTTPS_PROXY, HTTP_PROXY)',
    );
    expect(describeRoute(HTTP, { type: 'direct', why: 'unset' })).toBe(
      'connecting to http://127.0.0.1:3000 directly: no proxy is set (HTTP_PROXY)',
    );
    expect(describeRoute(HTTPS, { type: 'direct', why: 'no-proxy', noProxyVariable: 'no_proxy' })).toBe(
      'connecting to https://api.example.com directly: no_proxy excludes api.example.com',
    );
    expect(describeRoute(HTTP, { type: 'direct', why: 'local' })).toBe(
      'connecting to the local emulator at http://127.0.0.1:3000 directly (proxies never apply)',
    );
  });
});

/**
 * undici decides too (EnvHttpProxyAgent gets the same NO_PROXY value): the two must agree, or `--verbose` would
 * name a proxy the requests do not take. undici's choice is observed for real: its direct agent dials through the
 * `connect` function given (recorded, then failed), its proxy agent dials the proxy (a closed loopback port).
 */
async function undiciGoesDirect(origin: string, noProxy: string): Promise<boolean> {
  const direct: string[] = [];
  const agent = new EnvHttpProxyAgent({
    httpProxy: 'http://127.0.0.1:1',
    httpsProxy: 'http://127.0.0.1:1',
    noProxy,
    connect: (options, callback) => {
      direct.push(options.hostname);
      callback(new Error('recorded'), null);
    },
  });
  try {
    await agent.request({ origin, path: '/', method: 'GET' });
  } catch {
    // Either way the request fails: what matters is which way it went.
  } finally {
    await agent.destroy();
  }
  return direct.length > 0;
}

const CASES: Array<[origin: string, noProxy: string]> = [
  ['https://api.example.com', 'example.com'],
  ['https://api.example.com', '.example.com'],
  ['https://api.example.com', '*.example.com'],
  ['https://api.example.com', 'xample.com'],
  ['https://api.example.com', '*'],
  ['https://api.example.com', 'localhost,*'],
  ['https://api.example.com', 'api.example.com:443'],
  ['https://api.example.com', 'api.example.com:8443'],
  ['https://api.example.com:8443', 'api.example.com:8443'],
  ['http://example.com', 'example.com:80'],
  ['http://127.0.0.1:3000', '127.0.0.1'],
  ['http://127.0.0.1:3000', '127.0.0.1:3001'],
  ['http://[::1]:3000', '[::1]'],
  ['http://[::1]:3000', '::1'],
  ['https://API.example.com', 'api.EXAMPLE.com'],
  ['https://api.example.com', 'a.org\tapi.example.com'],
  ['https://api.example.com', '.'],
];

describe('excludedByNoProxy agrees with undici', () => {
  it.each(CASES)('%s with NO_PROXY=%j', async (origin, noProxy) => {
    expect(excludedByNoProxy(new URL(origin), noProxy)).toBe(await undiciGoesDirect(origin, noProxy));
  });

  it('on generated hosts and lists', async () => {
    const label = fc.constantFrom('api', 'example', 'com', 'a', 'b');
    const host = fc.array(label, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('.'));
    const port = fc.constantFrom(undefined, 443, 8443);
    const entry = fc
      .tuple(fc.constantFrom('', '.', '*.'), host, port)
      .map(([prefix, h, p]) => `${prefix}${h}${p === undefined ? '' : `:${p}`}`);
    const list = fc.array(entry, { maxLength: 3 }).map((entries) => entries.join(','));
    await fc.assert(
      fc.asyncProperty(host, port, list, async (h, p, noProxy) => {
        const origin = `https://${h}${p === undefined ? '' : `:${p}`}`;
        expect(excludedByNoProxy(new URL(origin), noProxy)).toBe(await undiciGoesDirect(origin, noProxy));
      }),
      { numRuns: runs(60) },
    );
  });
});
