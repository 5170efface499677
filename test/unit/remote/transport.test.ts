import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors.js';
import { isLoopbackHost, parseBaseUrl, workflowPath } from '../../../src/remote/transport.js';

describe('parseBaseUrl', () => {
  it('keeps a path prefix and drops trailing slashes and a trailing /v1', () => {
    expect(parseBaseUrl('https://api.novu.co')).toEqual({ origin: 'https://api.novu.co', basePath: '' });
    expect(parseBaseUrl('https://api.novu.co/')).toEqual({ origin: 'https://api.novu.co', basePath: '' });
    expect(parseBaseUrl('https://api.novu.co/v1/')).toEqual({ origin: 'https://api.novu.co', basePath: '' });
    expect(parseBaseUrl('https://gw.example.com/novu//')).toEqual({
      origin: 'https://gw.example.com',
      basePath: '/novu',
    });
    expect(parseBaseUrl('https://gw.example.com:8443/a/b')).toEqual({
      origin: 'https://gw.example.com:8443',
      basePath: '/a/b',
    });
  });

  it('allows http only on loopback unless insecure http is allowed', () => {
    expect(parseBaseUrl('http://127.0.0.1:3000').origin).toBe('http://127.0.0.1:3000');
    expect(parseBaseUrl('http://localhost:3000').origin).toBe('http://localhost:3000');
    expect(parseBaseUrl('http://[::1]:3000').origin).toBe('http://[::1]:3000');
    expect(() => parseBaseUrl('http://api.example.com')).toThrow(
      /refusing to send the API key over plain http/,
    );
    expect(() => parseBaseUrl('http://10.0.0.5')).toThrow(ConfigError);
    expect(parseBaseUrl('http://api.example.com', true).origin).toBe('http://api.example.com');
  });

  it('rejects other schemes, user info, queries and garbage, without echoing credentials', () => {
    expect(() => parseBaseUrl('ftp://api.example.com')).toThrow(/must use https/);
    expect(() => parseBaseUrl('not a url')).toThrow(/not a valid URL/);
    expect(() => parseBaseUrl('https://api.example.com?x=1')).toThrow(/query or fragment/);
    let message = '';
    try {
      parseBaseUrl('https://user:s3cr3t-pass@api.example.com');
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/user name or password/);
    expect(message).not.toContain('s3cr3t-pass');
  });
});

describe('isLoopbackHost', () => {
  it.each([
    ['localhost', true],
    ['LOCALHOST', true],
    ['127.0.0.1', true],
    ['127.10.20.30', true],
    ['[::1]', true],
    ['::1', true],
    ['128.0.0.1', false],
    ['localhost.evil.com', false],
    ['127.0.0.1.nip.io', false],
    ['[::2]', false],
  ])('%s → %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });
});

describe('workflowPath', () => {
  const endpoint = { origin: 'https://x.test', basePath: '/api' };

  it('encodes the id as one path segment under the prefix', () => {
    expect(workflowPath(endpoint, 'order-shipped')).toEqual({ path: '/api/v1/workflows/order-shipped' });
    expect(workflowPath(endpoint, 'a/b?c#d e')).toEqual({ path: '/api/v1/workflows/a%2Fb%3Fc%23d%20e' });
    expect(workflowPath(endpoint, 'ordre-expédié')).toEqual({
      path: '/api/v1/workflows/ordre-exp%C3%A9di%C3%A9',
    });
  });

  it.each(['', '.', '..', 'a\nb', 'tab\there', 'nul\u0000', 'del\u007f'])('refuses %j', (id) => {
    expect(workflowPath(endpoint, id)).toHaveProperty('problem');
  });
});
