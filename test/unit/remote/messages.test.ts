import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import type { RemoteError, RemoteErrorKind } from '../../../src/remote/index.js';
import { API_KEY, envelope, expectNoKey, JSON_HEADERS, VirtualClock } from '../../helpers/remote.js';
import { answering, get, HTML_PAGE, post, postThenLookUp, VALID } from './message-scenarios.js';
import {
  closedPort,
  failingConnections,
  hangingConnections,
  rawResponse,
  rawServer,
  tlsServer,
  trustingAgent,
} from './servers.js';
import { CA, EXPIRED_CERT, LEAF_CERT, LEAF_KEY } from './tls-fixtures.js';

/**
 * Every message a user can meet when `wfsync sync` fails on the service, as the terminal shows it after
 * `wfsync: `: METHOD, path, status (or what the network did, in words), why the client stopped, what to do.
 * The run prints the whole table once, for review. Ports show as PORT, server error ids as ERROR-ID, and V8's
 * JSON parse errors as PARSE-ERROR.
 */

type Row = [label: string, kind: RemoteErrorKind, produce: () => Promise<RemoteError>, message: string];

const cut = (status: string, body: string) =>
  rawResponse(status, { 'content-type': 'application/json', 'content-length': '500' }, body);
const realTime = {
  now: Date.now,
  sleep: (ms: number, signal?: AbortSignal) => delay(ms, undefined, { signal }),
};

const ROWS: Row[] = [
  // The network
  [
    'nothing listens on the port',
    'network',
    async () => get({ baseUrl: await closedPort() }),
    'GET /v1/workflows/order-shipped: could not connect to 127.0.0.1:PORT: connection refused (gave up after 2 attempts); is the service up? check baseUrl in wfsync.config.yaml',
  ],
  [
    'the host name does not resolve',
    'network',
    () => get({ dispatcher: failingConnections('ENOTFOUND', 'getaddrinfo ENOTFOUND api.example.test') }),
    'GET /v1/workflows/order-shipped: DNS lookup failed for host api.example.test (ENOTFOUND) (gave up after 2 attempts); check baseUrl in wfsync.config.yaml (is the host name right?)',
  ],
  [
    'the DNS server does not answer',
    'network',
    () => get({ dispatcher: failingConnections('EAI_AGAIN', 'getaddrinfo EAI_AGAIN api.example.test') }),
    "GET /v1/workflows/order-shipped: DNS lookup failed for host api.example.test (the DNS server did not answer, EAI_AGAIN) (gave up after 2 attempts); check this machine's network connection (VPN, proxy, firewall)",
  ],
  [
    'no route to the host',
    'network',
    () => get({ dispatcher: failingConnections('EHOSTUNREACH', 'connect EHOSTUNREACH 10.0.0.1:443') }),
    "GET /v1/workflows/order-shipped: could not reach api.example.test: no route to the host (EHOSTUNREACH) (gave up after 2 attempts); check this machine's network connection (VPN, proxy, firewall)",
  ],
  [
    'the network is down',
    'network',
    () => get({ dispatcher: failingConnections('ENETUNREACH', 'connect ENETUNREACH 10.0.0.1:443') }),
    "GET /v1/workflows/order-shipped: could not reach api.example.test: the network is unreachable (ENETUNREACH) (gave up after 2 attempts); check this machine's network connection (VPN, proxy, firewall)",
  ],
  [
    'the connection is not accepted in time',
    'timeout',
    () =>
      get({ dispatcher: hangingConnections(200), timeouts: { connectMs: 200 }, retries: { maxAttempts: 1 } }),
    'GET /v1/workflows/order-shipped: timed out after 0.2 s connecting to api.example.test (gave up after 1 attempt); is the service up, and reachable from this machine (VPN, firewall)? check baseUrl in wfsync.config.yaml',
  ],
  [
    'a certificate from an unknown authority',
    'network',
    async () => get({ baseUrl: await tlsServer(LEAF_CERT, LEAF_KEY) }),
    'GET /v1/workflows/order-shipped: the TLS handshake with 127.0.0.1:PORT failed: its certificate is not signed by an authority this machine trusts (UNABLE_TO_VERIFY_LEAF_SIGNATURE); check baseUrl in wfsync.config.yaml; if the service (or a proxy on your network) uses a private CA, point NODE_EXTRA_CA_CERTS at its certificate',
  ],
  [
    'a certificate for another host name',
    'network',
    async () => get({ baseUrl: await tlsServer(LEAF_CERT, LEAF_KEY), dispatcher: trustingAgent(CA) }),
    "GET /v1/workflows/order-shipped: the TLS handshake with 127.0.0.1:PORT failed: its certificate is not for 127.0.0.1 (ERR_TLS_CERT_ALTNAME_INVALID); check baseUrl in wfsync.config.yaml: use the host name the service's certificate names",
  ],
  [
    'an expired certificate',
    'network',
    async () => get({ baseUrl: await tlsServer(EXPIRED_CERT, LEAF_KEY), dispatcher: trustingAgent(CA) }),
    'GET /v1/workflows/order-shipped: the TLS handshake with 127.0.0.1:PORT failed: its certificate has expired (CERT_HAS_EXPIRED); tell whoever runs the service',
  ],
  [
    'https to a plain-http port',
    'network',
    async () => {
      const url = await rawServer((socket) => socket.end(rawResponse('400 Bad Request', {})));
      return get({ baseUrl: url.replace('http:', 'https:') });
    },
    'GET /v1/workflows/order-shipped: the TLS handshake with 127.0.0.1:PORT failed: the server did not answer in TLS (ERR_SSL_WRONG_VERSION_NUMBER); is it a plain-http port? check baseUrl in wfsync.config.yaml (https:// or http://)',
  ],
  [
    'no response headers in time',
    'timeout',
    async () => get({ baseUrl: await rawServer(() => {}), timeouts: { headersMs: 100 } }),
    'GET /v1/workflows/order-shipped: timed out after 0.1 s waiting for response headers (gave up after 2 attempts); is the service up? if it is only slow, raise timeouts.headersMs in wfsync.config.yaml',
  ],
  [
    'the connection is reset',
    'network',
    async () => get({ baseUrl: await rawServer((socket) => socket.resetAndDestroy()) }),
    'GET /v1/workflows/order-shipped: the connection to 127.0.0.1:PORT was reset before the response arrived (ECONNRESET) (gave up after 2 attempts); if this keeps happening, look for a proxy or firewall between wfsync and the service',
  ],
  [
    'the server closes the connection',
    'network',
    async () => get({ baseUrl: await rawServer((socket) => socket.end()) }),
    'GET /v1/workflows/order-shipped: the connection to 127.0.0.1:PORT was closed by the other side before the response arrived (gave up after 2 attempts); if this keeps happening, look for a proxy or firewall between wfsync and the service',
  ],
  [
    'a 200 whose body is cut short',
    'protocol',
    async () => get({ baseUrl: await rawServer((socket) => socket.end(cut('200 OK', '{"data":{"_id'))) }),
    'GET /v1/workflows/order-shipped: 200 but the response body was cut off (gave up after 2 attempts); if this keeps happening, look for a proxy or firewall between wfsync and the service',
  ],
  [
    'a 404 whose body is cut short',
    'protocol',
    async () => get({ baseUrl: await rawServer((socket) => socket.end(cut('404 Not Found', '{"statusC'))) }),
    'GET /v1/workflows/order-shipped: 404 but the response body was cut off (gave up after 2 attempts); if this keeps happening, look for a proxy or firewall between wfsync and the service',
  ],
  [
    'a 404 a proxy cut short, Content-Length fixed up',
    'protocol',
    () => get({ dispatcher: answering([[404, '{"statusCode":404,"mess']]) }),
    'GET /v1/workflows/order-shipped: 404 with a body that is not valid JSON (PARSE-ERROR) (gave up after 2 attempts); if this keeps happening, look for a proxy or firewall between wfsync and the service',
  ],
  [
    'a body that stops arriving',
    'timeout',
    async () => {
      const url = await rawServer((socket) => socket.write(cut('200 OK', '{"data":')));
      return get({ baseUrl: url, timeouts: { bodyMs: 100 } });
    },
    'GET /v1/workflows/order-shipped: 200 but the response body did not arrive within 0.1 s (gave up after 2 attempts); if the service is only slow, raise timeouts.bodyMs in wfsync.config.yaml',
  ],
  // Redirects and answers that are not the service
  [
    'a redirect',
    'protocol',
    () =>
      get({ dispatcher: answering([[301, '', { location: 'https://eu.api.example.test/v1/workflows' }]]) }),
    'GET /v1/workflows/order-shipped: 301 redirect to eu.api.example.test, not followed (the API key is only sent to the configured base URL); check baseUrl in wfsync.config.yaml: if the service moved, use the address it redirects to',
  ],
  [
    'a 200 HTML page',
    'protocol',
    () => get({ dispatcher: answering([[200, HTML_PAGE, {}]]) }),
    "GET /v1/workflows/order-shipped: 200 with an HTML page instead of JSON; check baseUrl in wfsync.config.yaml: it must be the service's API root, not a web page (or is a login proxy in the way?)",
  ],
  [
    'a 200 in plain text',
    'protocol',
    () => get({ dispatcher: answering([[200, 'ok', { 'content-type': 'text/plain' }]]) }),
    'GET /v1/workflows/order-shipped: 200 with content type "text/plain" instead of JSON; check baseUrl in wfsync.config.yaml: is it the service\'s API root?',
  ],
  [
    'a 200 with broken JSON',
    'protocol',
    () => get({ dispatcher: answering([[200, '{"data": {']]) }),
    'GET /v1/workflows/order-shipped: 200 with a body that is not valid JSON (PARSE-ERROR) (gave up after 2 attempts); if this keeps happening, look for a proxy or firewall between wfsync and the service',
  ],
  [
    'a 200 without the envelope',
    'protocol',
    () => get({ dispatcher: answering([[200, '{"_id":"x"}']]) }),
    "GET /v1/workflows/order-shipped: 200 without the {data} envelope the service wraps a workflow in; check baseUrl in wfsync.config.yaml: is it the service's API root?",
  ],
  [
    'a 200 with a workflow of the wrong shape',
    'protocol',
    () => get({ dispatcher: answering([[200, envelope({ _id: 'nope', triggers: 'none' })]]) }),
    'GET /v1/workflows/order-shipped: 200 with a workflow that does not have the expected shape (/data/_id must match pattern "^[0-9a-f]{24}$", /data/triggers must be array); check baseUrl in wfsync.config.yaml: is it the service\'s API root?',
  ],
  [
    'a 200 too large',
    'protocol',
    () => get({ dispatcher: answering([[200, VALID]]), maxResponseBytes: 200 }),
    "GET /v1/workflows/order-shipped: 200 but the response is larger than the 200 bytes limit; check baseUrl in wfsync.config.yaml: is it the service's API root?",
  ],
  [
    'a 204',
    'protocol',
    () => get({ dispatcher: answering([[204]]) }),
    "GET /v1/workflows/order-shipped: 204 is not a status the service answers with; check baseUrl in wfsync.config.yaml: is it the service's API root?",
  ],
  [
    'a 404 from no such route',
    'not-found',
    () => get({ dispatcher: answering([[404, HTML_PAGE, {}]]) }),
    'GET /v1/workflows/order-shipped: 404 the service has no such endpoint; check baseUrl in wfsync.config.yaml: it must be the API root (wfsync adds /v1 itself)',
  ],
  [
    'an unexpected status',
    'protocol',
    () => get({ dispatcher: answering([[418, '']]) }),
    "GET /v1/workflows/order-shipped: unexpected status 418 I'm a Teapot; check baseUrl in wfsync.config.yaml: is it the service's API root?",
  ],
  // The service says no
  [
    'a 401 without the key',
    'auth',
    () =>
      get({ dispatcher: answering([[401, { statusCode: 401, message: 'Missing authorization header' }]]) }),
    'GET /v1/workflows/order-shipped: 401 the service did not receive the API key (it said: Missing authorization header); check that nothing between wfsync and the service drops or replaces the Authorization header',
  ],
  [
    'a 401 for an unknown key',
    'auth',
    () => get({ dispatcher: answering([[401, { statusCode: 401, message: 'API Key not found' }]]) }),
    'GET /v1/workflows/order-shipped: 401 the API key in $NOVU_API_KEY was rejected; check that $NOVU_API_KEY holds a key of the environment this target syncs to',
  ],
  [
    'a 401 for a Production key on create',
    'auth',
    () => {
      const message = 'This action is only allowed in Development environment';
      return post({ dispatcher: answering([[401, { statusCode: 401, message }]], 'POST', '/v1/workflows') });
    },
    "POST /v1/workflows: 401 creating workflows needs a Development-environment key, and this one belongs to Production; set $NOVU_API_KEY to the Development environment's key",
  ],
  [
    'a 403',
    'auth',
    () => get({ dispatcher: answering([[403, { statusCode: 403, message: 'Forbidden resource' }]]) }),
    'GET /v1/workflows/order-shipped: 403 access denied: Forbidden resource; check $NOVU_API_KEY',
  ],
  [
    'a 400 on create',
    'validation',
    () => {
      const message = ['name must be a string', 'steps must be an array'];
      return post({ dispatcher: answering([[400, { statusCode: 400, message }]], 'POST', '/v1/workflows') });
    },
    'POST /v1/workflows: 400 the service rejected the request: name must be a string; steps must be an array',
  ],
  [
    'a 422 on create',
    'validation',
    () => {
      const body = { statusCode: 422, errors: { name: { messages: ['name is too long'] } } };
      return post({ dispatcher: answering([[422, body]], 'POST', '/v1/workflows') });
    },
    'POST /v1/workflows: 422 the service rejected the request: name is too long',
  ],
  [
    'a 413 on create',
    'validation',
    () =>
      post({
        dispatcher: answering(
          [[413, { statusCode: 413, message: 'request entity too large' }]],
          'POST',
          '/v1/workflows',
        ),
      }),
    'POST /v1/workflows: 413 the request body is too large for the service: request entity too large; make the workflow smaller (shorter contents, fewer steps)',
  ],
  [
    'a 429 that does not stop',
    'rate-limited',
    () =>
      get({
        dispatcher: answering([
          [
            429,
            { statusCode: 429, message: 'API rate limit exceeded' },
            { ...JSON_HEADERS, 'retry-after': '1' },
          ],
        ]),
        retries: { maxAttempts: 2, rateLimitWaits: 2 },
      }),
    'GET /v1/workflows/order-shipped: 429 rate limited: API rate limit exceeded (still refused after waiting as asked 2 times in a row); wait a minute before running again, or lower rateLimit in wfsync.config.yaml',
  ],
  [
    'a 429 when the run is out of retries',
    'rate-limited',
    () =>
      get({
        dispatcher: answering([[429, { statusCode: 429, message: 'API rate limit exceeded' }]]),
        retries: { maxAttempts: 5, budget: 1 },
      }),
    'GET /v1/workflows/order-shipped: 429 rate limited: API rate limit exceeded (the retry budget of 1 retry for this run is used up); wait a minute before running again, or lower rateLimit in wfsync.config.yaml',
  ],
  [
    'a 408',
    'timeout',
    () => get({ dispatcher: answering([[408, { statusCode: 408, message: 'Request Timeout' }]]) }),
    'GET /v1/workflows/order-shipped: 408 the service timed out reading the request: Request Timeout (gave up after 2 attempts); if this keeps happening, look for a slow proxy between wfsync and the service',
  ],
  [
    'a 500 with an errorId',
    'server',
    () => {
      const body = {
        statusCode: 500,
        message: 'Internal server error, contact support',
        errorId: '3f1e2d4c-5b6a-4978-8a1b-2c3d4e5f6a7b',
      };
      return get({ dispatcher: answering([[500, body]]) });
    },
    "GET /v1/workflows/order-shipped: 500 Internal Server Error: Internal server error, contact support (errorId ERROR-ID) (gave up after 2 attempts); try again later; if it keeps failing, give the errorId to the service's support",
  ],
  [
    'a 503 without a body',
    'server',
    () => get({ dispatcher: answering([[503, '']]) }),
    'GET /v1/workflows/order-shipped: 503 Service Unavailable (gave up after 2 attempts); try again later',
  ],
  [
    'a 502 HTML page from a proxy',
    'protocol',
    () => get({ dispatcher: answering([[502, HTML_PAGE, { 'content-type': 'text/html' }]]) }),
    'GET /v1/workflows/order-shipped: 502 with an HTML page instead of JSON (a proxy or gateway error?) (gave up after 2 attempts); is the service up? check baseUrl in wfsync.config.yaml',
  ],
  // Creates that may or may not have happened, and creates that provably did not
  [
    'a create that keeps failing with 500, never stored',
    'server',
    () => postThenLookUp([[500, { statusCode: 500, message: 'Internal server error' }]]),
    'POST /v1/workflows: 500 Internal Server Error (gave up after 2 attempts; a lookup found no workflow "order-shipped"); try again later',
  ],
  [
    'a create answered 201 with an HTML page, then not found',
    'outcome-unknown',
    () => postThenLookUp([[201, HTML_PAGE, {}]]),
    'POST /v1/workflows: 201 with an HTML page instead of JSON; the service answered 201 but no workflow was found afterwards: the workflow may or may not have been created; run `wfsync plan` (or `wfsync state`) to see whether it exists before syncing again',
  ],
  [
    'a create still in flight (409) when retries run out',
    'outcome-unknown',
    () => postThenLookUp([[409, { statusCode: 409, message: 'Request with this key is being processed' }]]),
    'POST /v1/workflows: 409 a request with the same Idempotency-Key is still being processed: Request with this key is being processed (gave up after 2 attempts): the workflow may or may not have been created; run `wfsync plan` (or `wfsync state`) to see whether it exists before syncing again',
  ],
  // The command's own limits
  [
    "the command's deadline passes in flight",
    'deadline',
    async () => get({ baseUrl: await rawServer(() => {}), ...realTime, timeouts: { commandMs: 100 } }),
    "GET /v1/workflows/order-shipped: the command's deadline passed before the response arrived; if the run needs more time, raise timeouts.commandMs in wfsync.config.yaml",
  ],
  [
    "the command's deadline would pass while waiting",
    'deadline',
    () => {
      const clock = new VirtualClock();
      const headers = { ...JSON_HEADERS, 'retry-after': '20' };
      const dispatcher = answering([[503, { statusCode: 503, message: 'Service Unavailable' }, headers]]);
      return get({ dispatcher, now: clock.now, sleep: clock.sleep, timeouts: { commandMs: 10_000 } });
    },
    "GET /v1/workflows/order-shipped: the command's deadline would pass during the next wait of 20 s (last problem: 503 Service Unavailable); if the run needs more time, raise timeouts.commandMs in wfsync.config.yaml",
  ],
  [
    'cancelled (Ctrl-C)',
    'cancelled',
    () => get({ dispatcher: answering([[200, VALID]]), signal: AbortSignal.abort() }),
    'GET /v1/workflows/order-shipped: cancelled',
  ],
  [
    'an id that cannot go into a path',
    'validation',
    () => get({}, '..'),
    'GET /v1/workflows/{workflowId}: ".." is not a workflow id or identifier',
  ],
  // With the target named, advice names its settings and the base URL's source
  [
    'a timeout on target "prod"',
    'timeout',
    async () => get({ baseUrl: await rawServer(() => {}), timeouts: { headersMs: 100 }, name: 'prod' }),
    'GET /v1/workflows/order-shipped: timed out after 0.1 s waiting for response headers (gave up after 2 attempts); is the service up? if it is only slow, raise targets.prod.timeouts.headersMs in wfsync.config.yaml',
  ],
  [
    'no such route, base URL from --base-url',
    'not-found',
    () => get({ dispatcher: answering([[404, HTML_PAGE, {}]]), name: 'prod', baseUrlFrom: '--base-url' }),
    'GET /v1/workflows/order-shipped: 404 the service has no such endpoint; check --base-url: it must be the API root (wfsync adds /v1 itself)',
  ],
];

const printed: Array<[string, RemoteErrorKind, string]> = [];
afterAll(() => {
  const width = Math.max(...printed.map(([, kind]) => kind.length));
  const lines = printed.map(
    ([label, kind, message]) => `${kind.padEnd(width)}  ${label}\n  wfsync: ${message}`,
  );
  console.log(`Client error messages (${printed.length}):\n\n${lines.join('\n\n')}\n`);
});

describe('what the user reads when the service fails', () => {
  it.each(ROWS)('%s', async (label, kind, produce, message) => {
    const error = await produce();
    const shown = error.message
      .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:PORT')
      .replace(/errorId [0-9a-f-]{36}/g, 'errorId ERROR-ID')
      // V8's JSON.parse wording changes between Node versions.
      .replace(/not valid JSON \((?:[^()]|\([^()]*\))*\)/g, 'not valid JSON (PARSE-ERROR)');
    printed.push([label, error.kind, shown]);
    expect(shown).toBe(message);
    expect(error.kind).toBe(kind);
    expect(error.message.startsWith(`${error.method} ${error.path}: `)).toBe(true);
    expectNoKey([error.message, error.stack, String((error.cause as Error | undefined)?.stack)], API_KEY);
  });
});
