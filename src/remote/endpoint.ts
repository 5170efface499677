import { isIP } from 'node:net';
import { ConfigError } from '../errors.js';

/** Where the service lives: the origin the pool connects to, and an optional path prefix (`''` or `/api`). */
export interface Endpoint {
  origin: string;
  basePath: string;
}

/**
 * Parse and check the base URL. https is required except for loopback hosts, where plain http cannot leak the
 * key off the machine; `allowInsecureHttp` lifts that for trusted networks.
 */
export function parseBaseUrl(baseUrl: string, allowInsecureHttp = false): Endpoint {
  let url: URL;
  try {
    url = new URL(baseUrl.trim());
  } catch {
    throw new ConfigError(`the service base URL is not a valid URL: ${JSON.stringify(baseUrl)}`);
  }
  if (url.username !== '' || url.password !== '') {
    // Never echo the URL here: the user info is itself a credential.
    throw new ConfigError('the service base URL must not contain a user name or password');
  }
  const shown = `${url.origin}${url.pathname}`;
  if (url.search !== '' || url.hash !== '') {
    throw new ConfigError(`the service base URL must not have a query or fragment: ${shown}`);
  }
  if (url.protocol === 'http:') {
    if (!allowInsecureHttp && !isLoopbackHost(url.hostname)) {
      throw new ConfigError(
        `refusing to send the API key over plain http to ${url.host}: use https, or allow insecure http explicitly`,
      );
    }
  } else if (url.protocol !== 'https:') {
    throw new ConfigError(`the service base URL must use https: ${shown}`);
  }
  // `https://api.example.com/v1/` is a common way to write the API root: the client adds `/v1` itself.
  const basePath = url.pathname.replace(/\/+$/, '').replace(/\/v1$/, '');
  return { origin: url.origin, basePath };
}

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  if (host.toLowerCase() === 'localhost') return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1';
  return false;
}

export function workflowsPath(endpoint: Endpoint): string {
  return `${endpoint.basePath}/v1/workflows`;
}

/**
 * The path of one workflow, or a reason the id cannot be put into a path safely: `.` and `..` would be
 * normalised away by proxies (turning a GET of one workflow into the list route), control characters have no
 * business in an id.
 */
export function workflowPath(
  endpoint: Endpoint,
  idOrIdentifier: string,
): { path: string } | { problem: string } {
  if (idOrIdentifier === '') return { problem: 'the workflow id or identifier is empty' };
  if (idOrIdentifier === '.' || idOrIdentifier === '..') {
    return { problem: `${JSON.stringify(idOrIdentifier)} is not a workflow id or identifier` };
  }
  // biome-ignore lint/suspicious/noControlCharactersInRegex: detecting them is the point
  if (/[\u0000-\u001f\u007f]/.test(idOrIdentifier)) {
    return {
      problem: `the workflow id or identifier ${JSON.stringify(idOrIdentifier)} contains control characters`,
    };
  }
  return { path: `${workflowsPath(endpoint)}/${encodeURIComponent(idOrIdentifier)}` };
}
