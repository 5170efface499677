import { describe, expect, it } from 'vitest';
import { interpretResponse } from '../../../src/remote/interpret.js';
import type { HttpMethod } from '../../../src/remote/types.js';
import { context, type ResponseSpec, received } from '../../helpers/received.js';

/** What the user reads for each failed answer: the detail (after `METHOD path: `), the advice, the server's words. */

const CHECK = 'check baseUrl in wfsync.config.yaml';
const NOT_THE_SERVICE = `${CHECK}: is it the service's API root?`;
const REDIRECT_ADVICE = `${CHECK}: if the service moved, use the address it redirects to`;
const NOT_FOLLOWED = 'not followed (the API key is only sent to the configured base URL)';
const TRY_LATER = 'try again later';

function words(method: HttpMethod, status: number, spec: ResponseSpec = {}) {
  const outcome = interpretResponse(received(status, spec), context(method));
  if (outcome.type !== 'problem') throw new Error(`expected a problem, got ${outcome.type}`);
  const p = outcome.problem;
  return { detail: p.detail, advice: 'advice' in p ? p.advice : 'none', said: p.serverMessages };
}

const location = (value: string) => ({ headers: { location: value } });
const msg = (message: unknown, extra: Record<string, unknown> = {}) => ({ body: { message, ...extra } });

describe('redirects name only the host of the Location, never its path or query', () => {
  it.each([
    ['https://login.evil.test/steal?token=abc123', 'login.evil.test'],
    ['https://other.test:8443/v1?key=wfs_secret', 'other.test:8443'],
    ['/v2/workflows?token=abc123', 'another path on the same host'],
    ['http://[bad', 'elsewhere'],
  ])('Location %s → %s', (value, where) => {
    const { detail, advice } = words('POST', 302, location(value));
    expect(detail).toBe(`302 redirect to ${where}, ${NOT_FOLLOWED}`);
    expect(advice).toBe(REDIRECT_ADVICE);
    expect(detail).not.toContain('token');
    expect(detail).not.toContain('secret');
  });

  it('without a Location: elsewhere', () => {
    expect(words('GET', 308).detail).toBe(`308 redirect to elsewhere, ${NOT_FOLLOWED}`);
  });
});

describe('messages per status', () => {
  const rows: Array<[HttpMethod, number, ResponseSpec, string, string, string[]]> = [
    ['POST', 400, {}, '400 the service rejected the request', 'none', []],
    [
      'POST',
      400,
      msg(['name must be a string', 'steps must be an array']),
      '400 the service rejected the request: name must be a string; steps must be an array',
      'none',
      ['name must be a string', 'steps must be an array'],
    ],
    [
      'POST',
      422,
      msg('Validation failed', {
        errors: { name: { messages: ['is required'] }, steps: 'steps must be an array' },
      }),
      '422 the service rejected the request: name: is required; steps must be an array',
      'none',
      ['name: is required', 'steps must be an array'],
    ],
    [
      'POST',
      422,
      msg('Validation failed', { errors: {} }),
      '422 the service rejected the request: Validation failed',
      'none',
      ['Validation failed'],
    ],
    [
      'POST',
      413,
      { body: 'request entity too large' },
      '413 the request body is too large for the service: request entity too large',
      'make the workflow smaller (shorter contents, fewer steps)',
      ['request entity too large'],
    ],
    [
      'POST',
      401,
      msg('Unauthorized'),
      '401 authentication failed: Unauthorized',
      'check the API key',
      ['Unauthorized'],
    ],
    ['GET', 403, {}, '403 access denied', 'check the API key', []],
    [
      'POST',
      404,
      msg('Cannot POST /v1/workflows'),
      '404 the service has no such endpoint: Cannot POST /v1/workflows',
      `${CHECK}: it must be the API root (wfsync adds /v1 itself)`,
      [],
    ],
    [
      'GET',
      404,
      {},
      '404 the service has no such endpoint',
      `${CHECK}: it must be the API root (wfsync adds /v1 itself)`,
      [],
    ],
    [
      'POST',
      408,
      {},
      '408 the service timed out reading the request',
      'if this keeps happening, look for a slow proxy between wfsync and the service',
      [],
    ],
    [
      'POST',
      409,
      msg('Request in progress'),
      '409 a request with the same Idempotency-Key is still being processed: Request in progress',
      'none',
      [],
    ],
    [
      'POST',
      429,
      msg('Too many requests'),
      '429 rate limited: Too many requests',
      'wait a minute before running again, or lower rateLimit in wfsync.config.yaml',
      [],
    ],
    ['POST', 500, {}, '500 Internal Server Error', TRY_LATER, []],
    [
      'POST',
      500,
      msg('boom', { errorId: 'e-123' }),
      '500 Internal Server Error: boom (errorId e-123)',
      `${TRY_LATER}; if it keeps failing, give the errorId to the service's support`,
      [],
    ],
    ['POST', 500, msg('boom', { errorId: 42 }), '500 Internal Server Error: boom', TRY_LATER, []],
    ['POST', 503, msg('Service Unavailable'), '503 Service Unavailable', TRY_LATER, []],
    ['POST', 503, { body: 'service unavailable' }, '503 Service Unavailable', TRY_LATER, []],
    [
      'POST',
      503,
      msg('Service Unavailable, back soon'),
      '503 Service Unavailable: Service Unavailable, back soon',
      TRY_LATER,
      [],
    ],
    ['POST', 502, msg('Service Unavailable'), '502 Bad Gateway: Service Unavailable', TRY_LATER, []],
    ['POST', 599, msg('odd'), '599 server error: odd', TRY_LATER, []],
    [
      'GET',
      502,
      { body: '<html><h1>502 Bad Gateway</h1></html>' },
      '502 with an HTML page instead of JSON (a proxy or gateway error?)',
      `is the service up? ${CHECK}`,
      [],
    ],
    [
      'POST',
      418,
      msg('short and stout'),
      "unexpected status 418 I'm a Teapot: short and stout",
      NOT_THE_SERVICE,
      [],
    ],
    ['GET', 499, {}, 'unexpected status 499', NOT_THE_SERVICE, []],
    ['GET', 199, {}, 'unexpected status 199', NOT_THE_SERVICE, []],
    ['POST', 300, {}, `300 redirect to elsewhere, ${NOT_FOLLOWED}`, REDIRECT_ADVICE, []],
    ['POST', 399, {}, `399 redirect to elsewhere, ${NOT_FOLLOWED}`, REDIRECT_ADVICE, []],
  ];

  it.each(rows)('%s %i %j', (method, status, spec, detail, advice, said) => {
    expect(words(method, status, spec)).toStrictEqual({ detail, advice, said });
  });

  it('a long server message is clipped in the detail', () => {
    const long = 'x'.repeat(400);
    const { detail } = words('POST', 500, msg(long));
    expect(detail).toBe(`500 Internal Server Error: ${'x'.repeat(299)}…`);
  });

  it('advice names the target when the caller says which one', () => {
    const outcome = interpretResponse(
      received(429),
      context('GET', { advice: { name: 'prod', apiKeyEnv: 'NOVU_API_KEY' } }),
    );
    expect(outcome).toMatchObject({
      problem: {
        advice: 'wait a minute before running again, or lower targets.prod.rateLimit in wfsync.config.yaml',
      },
    });
  });
});
