import type { Dispatcher } from 'undici';
import { ConfigError } from '../errors.js';
import { EnvHttpProxyAgent } from './undici.js';

/**
 * How the client reaches the service's origin: straight, or through the proxy the environment names. Read from the
 * environment the command was given (never `process.env`), with undici's EnvHttpProxyAgent's rules: the lower-case
 * variable before the upper-case one; an https origin takes `https_proxy`, else `http_proxy`; `no_proxy` lists
 * hosts reached directly.
 */
export type ProxyRoute = DirectRoute | ProxiedRoute;

export interface DirectRoute {
  type: 'direct';
  /** `unset`: no proxy variable applies; `no-proxy`: NO_PROXY excludes the origin; `local`: the embedded emulator. */
  why: 'unset' | 'no-proxy' | 'local';
  /** The variable whose entries excluded the origin (`NO_PROXY` or `no_proxy`). */
  noProxyVariable?: string;
}

export interface ProxiedRoute {
  type: 'proxy';
  /** The proxy as undici dials it: scheme, host and port, never the user name or password. */
  uri: string;
  /** The variable it came from (`HTTPS_PROXY`, `https_proxy`, `HTTP_PROXY`, `http_proxy`). */
  variable: string;
  /** `Basic …` from the URL's user name and password, sent to the proxy alone as `Proxy-Authorization`. */
  token?: string;
  /** The NO_PROXY value, handed to undici as read (it excludes nothing here, or the route would be direct). */
  noProxy: string;
  /** Text never to print: the password, `user:password`, the token, the variable's whole value. */
  secrets: string[];
}

/** The proxy requests go through, as messages name it: no user name, no password. */
export interface ProxyInUse {
  /** `http://proxy:3128`. */
  uri: string;
  /** The environment variable it came from. */
  variable: string;
  /** The URL held a user name (and password), sent as Proxy-Authorization. */
  authenticated: boolean;
}

const PROXY_VARIABLES = {
  'https:': ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'],
  'http:': ['http_proxy', 'HTTP_PROXY'],
} as const;
const NO_PROXY_VARIABLES = ['no_proxy', 'NO_PROXY'] as const;
const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

/** The route to `origin` (`https://host[:port]`) the environment asks for; a malformed proxy URL is a ConfigError. */
export function chooseProxyRoute(origin: string, env: NodeJS.ProcessEnv): ProxyRoute {
  const url = new URL(origin);
  const variables = url.protocol === 'https:' ? PROXY_VARIABLES['https:'] : PROXY_VARIABLES['http:'];
  const variable = variables.find((name) => present(env[name]));
  if (variable === undefined) return { type: 'direct', why: 'unset' };
  const noProxyVariable = NO_PROXY_VARIABLES.find((name) => present(env[name]));
  const noProxy = noProxyVariable === undefined ? '' : (env[noProxyVariable] ?? '').trim();
  if (noProxyVariable !== undefined && excludedByNoProxy(url, noProxy)) {
    return { type: 'direct', why: 'no-proxy', noProxyVariable };
  }
  return { type: 'proxy', noProxy, ...parseProxyUrl(env[variable] ?? '', variable) };
}

/**
 * Whether a NO_PROXY value sends `url` straight: `*` alone excludes everything; otherwise entries separated by
 * commas or white space, each a host (`api.example.com`, which also covers its subdomains; a leading `.` or `*.` is
 * dropped) with an optional `:port` that must then match. The same decision as undici's EnvHttpProxyAgent, which
 * gets the same value, so the dispatcher and `--verbose` cannot disagree (a unit test holds them together).
 */
export function excludedByNoProxy(url: URL, noProxy: string): boolean {
  if (noProxy === '*') return true;
  // url.host keeps an IPv6 address's brackets, as undici compares it.
  const hostname = url.host.replace(/:\d*$/, '').toLowerCase();
  const port = Number.parseInt(url.port, 10) || DEFAULT_PORTS[url.protocol] || 0;
  return noProxy.split(/[,\s]/).some((entry) => {
    if (entry === '') return false;
    const withPort = /^(.+):(\d+)$/.exec(entry);
    const host = (withPort?.[1] ?? entry).replace(/^\*?\./, '').toLowerCase();
    const entryPort = withPort?.[2] === undefined ? 0 : Number.parseInt(withPort[2], 10);
    if (entryPort !== 0 && entryPort !== port) return false;
    return hostname === host || hostname.endsWith(`.${host}`);
  });
}

/** `http://proxy:3128` from `user:pass@proxy:3128`, with the credentials set apart; refuses anything else. */
function parseProxyUrl(value: string, variable: string): Omit<ProxiedRoute, 'type' | 'noProxy'> {
  const text = value.trim();
  // `proxy.corp:3128` is common in these variables and means http, as for curl.
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    // Never echo the value: it may hold a password.
    throw new ConfigError(`${variable} is not a valid proxy URL: expected http://host:port`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(
      `${variable}: only http:// and https:// proxies are supported, not ${url.protocol}//`,
    );
  }
  if (url.hostname === '') throw new ConfigError(`${variable} is not a valid proxy URL: it names no host`);
  const uri = `${url.protocol}//${url.host}`;
  if (url.username === '' && url.password === '') return { uri, variable, secrets: [] };
  const user = decodeOrKeep(url.username);
  const password = decodeOrKeep(url.password);
  const token = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
  // A user name alone is often a token: treated as secret too.
  const secret = password === '' ? [user, url.username] : [password, url.password];
  return { uri, variable, token, secrets: [...secret, `${user}:${password}`, token.slice(6), text] };
}

/** The client's dispatcher through the proxy: CONNECT tunnels for http and https origins alike. */
export function createProxyDispatcher(
  route: ProxiedRoute,
  origin: string,
  settings: { connectMs: number; headersMs: number; bodyMs: number },
): Dispatcher {
  const connect = { timeout: settings.connectMs };
  return new EnvHttpProxyAgent({
    // Explicit values (an empty string turns a variable off): undici must not read process.env itself.
    httpProxy: new URL(origin).protocol === 'http:' ? route.uri : '',
    httpsProxy: new URL(origin).protocol === 'https:' ? route.uri : '',
    noProxy: route.noProxy,
    ...(route.token === undefined ? {} : { token: route.token }),
    // Never forward plain requests to the proxy: their headers (the API key) would be the proxy's to read.
    proxyTunnel: true,
    connect,
    proxyTls: connect,
    requestTls: connect,
    headersTimeout: settings.headersMs,
    bodyTimeout: settings.bodyMs,
  });
}

/** The proxy as messages name it. */
export function proxyInUse(route: ProxiedRoute): ProxyInUse {
  return { uri: route.uri, variable: route.variable, authenticated: route.token !== undefined };
}

/** What `--verbose` says about the route, credentials never included. */
export function describeRoute(origin: string, route: ProxyRoute): string {
  if (route.type === 'proxy')
    return `connecting to ${origin} through the proxy ${route.uri} (${route.variable})`;
  if (route.why === 'local')
    return `connecting to the local emulator at ${origin} directly (proxies never apply)`;
  if (route.why === 'no-proxy')
    return `connecting to ${origin} directly: ${route.noProxyVariable} excludes ${new URL(origin).hostname}`;
  const names = new URL(origin).protocol === 'https:' ? 'HTTPS_PROXY, HTTP_PROXY' : 'HTTP_PROXY';
  return `connecting to ${origin} directly: no proxy is set (${names})`;
}

function present(value: string | undefined): boolean {
  return value !== undefined && value.trim() !== '';
}

function decodeOrKeep(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
