import { describe, expect, it } from 'vitest';
import { loopbackHosts, type RequestFacts, refuseRequest } from '../../../src/preview/security.js';

const hosts = loopbackHosts(4777);
const get: RequestFacts = {
  method: 'GET',
  host: '127.0.0.1:4777',
  origin: null,
  fetchSite: null,
  contentType: null,
};
const post: RequestFacts = {
  ...get,
  method: 'POST',
  origin: 'http://127.0.0.1:4777',
  fetchSite: 'same-origin',
  contentType: 'application/json',
};

describe('refuseRequest', () => {
  it('answers the page on its own loopback host and port', () => {
    expect(refuseRequest(get, hosts)).toBeUndefined();
    expect(refuseRequest({ ...get, host: 'localhost:4777' }, hosts)).toBeUndefined();
    expect(refuseRequest(post, hosts)).toBeUndefined();
  });

  it.each([
    ['another name (DNS rebinding)', { ...get, host: 'evil.test:4777' }, 421],
    ['another port', { ...get, host: '127.0.0.1:80' }, 421],
    ['no Host', { ...get, host: null }, 421],
    ['a write from another origin', { ...post, origin: 'http://evil.test' }, 403],
    ['a write from another site', { ...post, origin: null, fetchSite: 'cross-site' }, 403],
    ['a form post (not JSON)', { ...post, contentType: 'text/plain' }, 415],
    ['another method', { ...post, method: 'PUT' }, 405],
  ])('refuses %s', (_what, request, status) => {
    expect(refuseRequest(request, hosts)?.status).toBe(status);
  });
});
