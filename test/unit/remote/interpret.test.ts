import { describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../../src/json.js';
import { IN_TRANSIT_ADVICE } from '../../../src/remote/errors.js';
import { interpretResponse } from '../../../src/remote/interpret.js';
import type { HttpMethod, Outcome, Problem } from '../../../src/remote/types.js';
import { context, JSON_TYPE, type ResponseSpec, received } from '../../helpers/received.js';
import { workflowResponse } from '../../helpers/remote.js';

/**
 * interpretResponse for every non-2xx answer: what decides a retry (transient), and what a POST may have done
 * (effect: `none` lets the client re-send it blindly, `unknown` makes it look the workflow up first).
 */

function problemOf(outcome: Outcome): Problem {
  if (outcome.type !== 'problem') throw new Error(`expected a problem, got ${JSON.stringify(outcome)}`);
  return outcome.problem;
}

/** The fields that decide what the client does next; `absent` when the service gave no wait. */
function decision(method: HttpMethod, status: number, spec: ResponseSpec = {}) {
  const outcome = interpretResponse(received(status, spec), context(method));
  if (outcome.type !== 'problem') return outcome.type;
  const p = outcome.problem;
  return {
    kind: p.kind,
    transient: p.transient,
    effect: p.effect,
    wait: 'retryAfterMs' in p ? p.retryAfterMs : 'absent',
    status: p.status,
  };
}

const retryAfter = (value: string) => ({ headers: { 'retry-after': value } });
const msg = (message: unknown) => ({ body: { message } });

describe('interpretResponse: the decision table (method × status × hints × body)', () => {
  const rows: Array<
    [HttpMethod, number, ResponseSpec, string, boolean, Problem['effect'], number | 'absent']
  > = [
    // Redirects are never followed and never retried; the request was not handled.
    ['GET', 301, { headers: { location: 'https://elsewhere.test/' } }, 'protocol', false, 'none', 'absent'],
    ['POST', 302, { headers: { location: '/login' } }, 'protocol', false, 'none', 'absent'],
    ['POST', 300, {}, 'protocol', false, 'none', 'absent'],
    ['POST', 399, retryAfter('5'), 'protocol', false, 'none', 'absent'],
    // Rejections: known not applied, not worth sending again, and a Retry-After changes nothing.
    ['POST', 400, msg('name must be a string'), 'validation', false, 'none', 'absent'],
    ['POST', 413, {}, 'validation', false, 'none', 'absent'],
    ['POST', 422, retryAfter('5'), 'validation', false, 'none', 'absent'],
    ['POST', 401, msg('API Key not found'), 'auth', false, 'none', 'absent'],
    ['GET', 403, retryAfter('5'), 'auth', false, 'none', 'absent'],
    ['POST', 404, msg('Workflow not found'), 'not-found', false, 'none', 'absent'],
    ['GET', 404, msg('Cannot GET /v1/workflows/x'), 'not-found', false, 'none', 'absent'],
    [
      'GET',
      404,
      { body: 'Not Found', headers: { 'content-type': 'text/plain' } },
      'not-found',
      false,
      'none',
      'absent',
    ],
    // The idempotency guard: the earlier attempt is still running, this one was not applied.
    ['POST', 409, {}, 'server', true, 'none', 'absent'],
    ['POST', 409, retryAfter('2'), 'server', true, 'none', 2000],
    // 408: the service may have read the whole request before giving up.
    ['POST', 408, {}, 'timeout', true, 'unknown', 'absent'],
    ['POST', 408, retryAfter('3'), 'timeout', true, 'unknown', 3000],
    // 429 was refused before any work; the wait comes from Retry-After, else RateLimit-Reset.
    ['POST', 429, {}, 'rate-limited', true, 'none', 'absent'],
    ['POST', 429, retryAfter('3'), 'rate-limited', true, 'none', 3000],
    ['POST', 429, { headers: { 'ratelimit-reset': '4' } }, 'rate-limited', true, 'none', 4000],
    [
      'GET',
      429,
      { headers: { 'retry-after': '3', 'ratelimit-reset': '9' } },
      'rate-limited',
      true,
      'none',
      3000,
    ],
    [
      'GET',
      429,
      { headers: { 'retry-after': 'soon', 'ratelimit-reset': '9' } },
      'rate-limited',
      true,
      'none',
      9000,
    ],
    ['GET', 429, { headers: { 'ratelimit-reset': '5abc' } }, 'rate-limited', true, 'none', 'absent'],
    // 5xx may come after the work was done, except a 503 that says when to come back (load shedding).
    ['POST', 500, {}, 'server', true, 'unknown', 'absent'],
    ['POST', 500, retryAfter('5'), 'server', true, 'unknown', 5000],
    ['POST', 502, retryAfter('5'), 'server', true, 'unknown', 5000],
    ['POST', 503, {}, 'server', true, 'unknown', 'absent'],
    ['POST', 503, retryAfter('5'), 'server', true, 'none', 5000],
    ['POST', 503, retryAfter('later'), 'server', true, 'unknown', 'absent'],
    // Junk that Date.parse would read as a date in the past must not make a 503 "known not applied".
    ['POST', 503, retryAfter('Tue 5'), 'server', true, 'unknown', 'absent'],
    ['POST', 503, retryAfter('Tue, 01 Oct 2024 12:00:05 GMT'), 'server', true, 'none', 5000],
    ['POST', 503, { headers: { 'ratelimit-reset': '5' } }, 'server', true, 'unknown', 'absent'],
    ['POST', 504, retryAfter('1'), 'server', true, 'unknown', 1000],
    ['POST', 599, {}, 'server', true, 'unknown', 'absent'],
    ['POST', 502, { body: '<html>Bad Gateway</html>' }, 'protocol', true, 'unknown', 'absent'],
    ['POST', 503, { body: '<!DOCTYPE html><p>down</p>', ...retryAfter('7') }, 'protocol', true, 'none', 7000],
    ['GET', 500, { body: '<html>oops</html>', ...retryAfter('7') }, 'protocol', true, 'unknown', 7000],
    // Statuses the service never sends: not the service, nothing to retry.
    ['POST', 418, retryAfter('5'), 'protocol', false, 'none', 'absent'],
    ['GET', 499, {}, 'protocol', false, 'none', 'absent'],
    ['POST', 199, {}, 'protocol', false, 'none', 'absent'],
  ];

  it.each(rows)(
    '%s %i %j → %s, transient %s, effect %s, wait %s',
    (method, status, spec, kind, transient, effect, wait) => {
      expect(decision(method, status, spec)).toEqual({ kind, transient, effect, wait, status });
    },
  );

  it('a GET 404 in the service JSON is "absent", on POST it is a missing endpoint', () => {
    const body = { statusCode: 404, message: 'Template with id nope not found', error: 'Not Found' };
    expect(decision('GET', 404, { body })).toBe('absent');
    expect(decision('POST', 404, { body })).toMatchObject({ kind: 'not-found' });
  });

  it.each([
    [['Cannot GET /v1/workflows/x'], 'not-found'],
    [['Cannot POST /v1/workflows'], 'not-found'],
    [['Workflow not found', 'Cannot GET /x'], 'not-found'],
    [['Workflow Cannot GET /x'], 'absent'],
    [['cannot GET /x'], 'absent'],
    [['Cannot get /x'], 'absent'],
    [['Cannot GET x'], 'absent'],
    [['Cannot  GET /x'], 'absent'],
    [[], 'absent'],
  ])('GET 404 with the JSON messages %j: %s', (messages, expected) => {
    const outcome = decision('GET', 404, { body: { message: messages } });
    expect(typeof outcome === 'string' ? outcome : outcome.kind).toBe(expected);
  });

  it('a GET 404 that is not JSON (an HTML page, plain text, nothing) is a missing endpoint', () => {
    expect(decision('GET', 404, { body: '<html>Not Found</html>' })).toMatchObject({ kind: 'not-found' });
    expect(decision('GET', 404, { body: 'Not Found' })).toMatchObject({ kind: 'not-found' });
    expect(decision('GET', 404)).toMatchObject({ kind: 'not-found' });
    expect(decision('GET', 404, { body: ['Not Found'] })).toMatchObject({ kind: 'not-found' });
  });
});

describe('interpretResponse: bodies that did not arrive whole', () => {
  const cut = (status: number, bodyFailure: ResponseSpec['bodyFailure'], body = '{"message":"Workflow') =>
    received(status, { body, headers: { 'content-type': 'application/json' }, bodyFailure, cause: 'boom' });

  it('on GET, a cut-off or slow error body is asked again, whatever the status would have meant', () => {
    for (const status of [400, 404, 401, 418, 301]) {
      expect(interpretResponse(cut(status, 'truncated'), context('GET'))).toStrictEqual({
        type: 'problem',
        problem: {
          kind: 'protocol',
          detail: `${status} but the response body was cut off`,
          advice: IN_TRANSIT_ADVICE,
          status,
          serverMessages: [],
          transient: true,
          effect: 'none',
          cause: 'boom',
        },
      });
    }
    expect(interpretResponse(cut(404, 'body-timeout'), context('GET', { bodyMs: 2500 }))).toStrictEqual({
      type: 'problem',
      problem: {
        kind: 'timeout',
        detail: '404 but the response body did not arrive within 2.5 s',
        advice: 'if the service is only slow, raise timeouts.bodyMs in wfsync.config.yaml',
        status: 404,
        serverMessages: [],
        transient: true,
        effect: 'none',
        cause: 'boom',
      },
    });
  });

  it('on GET, an error body labelled JSON that does not parse is asked again', () => {
    const outcome = interpretResponse(cut(404, undefined), context('GET'));
    const problem = problemOf(outcome);
    expect(problem).toStrictEqual({
      kind: 'protocol',
      detail: expect.stringMatching(/^404 with a body that is not valid JSON \(.+\)$/),
      advice: IN_TRANSIT_ADVICE,
      status: 404,
      serverMessages: [],
      transient: true,
      effect: 'none',
    });
  });

  it('on GET, a complete 400 keeps its meaning', () => {
    expect(decision('GET', 400, msg('bad id'))).toMatchObject({ kind: 'validation', transient: false });
  });

  it('on GET, a body too large for the limit is not a cut-off body', () => {
    const response = received(404, { body: '', bodyFailure: 'too-large' });
    expect(problemOf(interpretResponse(response, context('GET'))).kind).toBe('not-found');
  });

  it('on POST, a cut-off or unparsable error body keeps the status meaning (no blind re-send)', () => {
    for (const failure of ['truncated', 'body-timeout', undefined] as const) {
      expect(problemOf(interpretResponse(cut(400, failure), context('POST')))).toMatchObject({
        kind: 'validation',
        transient: false,
        effect: 'none',
        detail: '400 the service rejected the request',
        serverMessages: [],
      });
      expect(problemOf(interpretResponse(cut(404, failure), context('POST')))).toMatchObject({
        kind: 'not-found',
        transient: false,
      });
    }
  });

  it('transient answers keep their own meaning and wait even when the body was cut off', () => {
    const response = received(503, {
      body: '{"mess',
      headers: { 'content-type': 'application/json', 'retry-after': '4' },
      bodyFailure: 'truncated',
    });
    expect(problemOf(interpretResponse(response, context('GET')))).toStrictEqual({
      kind: 'server',
      detail: '503 Service Unavailable',
      advice: 'try again later',
      status: 503,
      serverMessages: [],
      transient: true,
      effect: 'none',
      retryAfterMs: 4000,
    });
    const invalid = received(500, { body: '{"mess', headers: { 'content-type': 'application/json' } });
    expect(problemOf(interpretResponse(invalid, context('GET')))).toMatchObject({
      kind: 'server',
      detail: '500 Internal Server Error',
      effect: 'unknown',
    });
  });
});

/** 2xx answers: the workflow, or (for a create) a lost response after the create was applied. */

const NOT_THE_SERVICE = "check baseUrl in wfsync.config.yaml: is it the service's API root?";
const ENVELOPE = { data: workflowResponse() };

function interpret(status: number, spec: ResponseSpec, method: HttpMethod = 'POST', extra = {}): Outcome {
  return interpretResponse(received(status, spec), context(method, extra));
}

/** A 2xx whose body cannot be used: applied, not worth sending again, a protocol problem. */
function broken(status: number, detail: string, advice = NOT_THE_SERVICE): Outcome {
  return {
    type: 'problem',
    problem: {
      kind: 'protocol',
      detail: `${status} ${detail}`,
      advice,
      status,
      serverMessages: [],
      transient: false,
      effect: 'applied',
    },
  };
}

describe('interpretSuccess', () => {
  it.each([200, 201])('%i with the envelope is the workflow', (status) => {
    for (const method of ['GET', 'POST'] as const) {
      expect(interpret(status, { body: ENVELOPE }, method)).toStrictEqual({
        type: 'ok',
        workflow: workflowResponse(),
        replayed: false,
      });
    }
  });

  it.each([
    ['true', true],
    [' True ', true],
    ['false', false],
    ['yes', false],
  ])('Idempotency-Replay: %j → replayed %s', (value, replayed) => {
    const outcome = interpret(201, { body: ENVELOPE, headers: { 'idempotency-replay': value } });
    expect(outcome).toMatchObject({ type: 'ok', replayed });
  });

  it('accepts a JSON media type with a suffix and parameters', () => {
    const outcome = interpret(200, {
      body: ENVELOPE,
      headers: { 'content-type': 'application/vnd.api+json' },
    });
    expect(outcome.type).toBe('ok');
  });

  it.each([
    ['2,000', 2000],
    ['100,000', 100_000],
  ])('a workflow nested %s levels deep is refused, not walked, and not retried', (_depth, depth) => {
    const deep = '['.repeat(depth) + ']'.repeat(depth);
    const text = JSON.stringify({ data: { ...workflowResponse(), data: { x: 'DEEP' } } }).replace(
      '"DEEP"',
      deep,
    );
    const spec = { body: text, headers: { 'content-type': JSON_TYPE } };
    const detail = `with a response nested deeper than ${MAX_JSON_DEPTH} levels`;
    expect(interpret(200, spec, 'GET')).toStrictEqual(broken(200, detail));
    expect(interpret(201, spec)).toStrictEqual(broken(201, detail));
  });

  it('a workflow nested exactly to the limit is read', () => {
    const deep = '['.repeat(MAX_JSON_DEPTH - 3) + ']'.repeat(MAX_JSON_DEPTH - 3);
    const text = JSON.stringify({ data: { ...workflowResponse(), data: { x: 'DEEP' } } }).replace(
      '"DEEP"',
      deep,
    );
    expect(interpret(200, { body: text, headers: { 'content-type': JSON_TYPE } }, 'GET').type).toBe('ok');
  });

  it.each([202, 204, 206, 299])('%i is not a status the service answers with', (status) => {
    expect(interpret(status, { body: ENVELOPE })).toStrictEqual(
      broken(status, 'is not a status the service answers with'),
    );
  });

  it('a cut-off body after a 2xx is a lost response: the create was applied, ask again to learn the result', () => {
    const cut = { body: '{"data":{"_id', headers: { 'content-type': JSON_TYPE }, cause: 'reset' };
    expect(interpret(201, { ...cut, bodyFailure: 'truncated' })).toStrictEqual({
      type: 'problem',
      problem: {
        kind: 'protocol',
        detail: '201 but the response body was cut off',
        advice: IN_TRANSIT_ADVICE,
        status: 201,
        serverMessages: [],
        transient: true,
        effect: 'applied',
        cause: 'reset',
      },
    });
    expect(interpret(200, { ...cut, bodyFailure: 'body-timeout' }, 'POST', { bodyMs: 30_000 })).toStrictEqual(
      {
        type: 'problem',
        problem: {
          kind: 'timeout',
          detail: '200 but the response body did not arrive within 30 s',
          advice: 'if the service is only slow, raise timeouts.bodyMs in wfsync.config.yaml',
          status: 200,
          serverMessages: [],
          transient: true,
          effect: 'applied',
          cause: 'reset',
        },
      },
    );
  });

  it.each([
    [10 * 1024 * 1024, '10 MiB'],
    [1.5 * 1024 * 1024, '1.5 MiB'],
    [1024 * 1024, '1 MiB'],
    [1024 * 1024 - 1, '1048575 bytes'],
    [1000, '1000 bytes'],
  ])('a body over the limit of %i bytes says "%s"', (maxResponseBytes, limit) => {
    const outcome = interpret(200, { body: '', bodyFailure: 'too-large' }, 'GET', { maxResponseBytes });
    expect(outcome).toStrictEqual(broken(200, `but the response is larger than the ${limit} limit`));
  });

  it('an HTML page, by content type or by its first characters', () => {
    const advice =
      "check baseUrl in wfsync.config.yaml: it must be the service's API root, not a web page (or is a login proxy in the way?)";
    const expected = broken(200, 'with an HTML page instead of JSON', advice);
    expect(
      interpret(200, { body: 'hi', headers: { 'content-type': 'text/html; charset=utf-8' } }),
    ).toStrictEqual(expected);
    expect(interpret(200, { body: '  <!DOCTYPE html><html></html>' })).toStrictEqual(expected);
  });

  it('a body that is not labelled JSON', () => {
    expect(interpret(200, { body: JSON.stringify(ENVELOPE) })).toStrictEqual(
      broken(200, 'without a content type (JSON expected)'),
    );
    expect(
      interpret(201, { body: 'ok', headers: { 'content-type': 'Text/Plain; charset=utf-8' } }),
    ).toStrictEqual(broken(201, 'with content type "text/plain" instead of JSON'));
  });

  it('JSON that does not parse is asked again (a proxy cut it short), and the create counts as applied', () => {
    const outcome = interpret(201, { body: '{"data": {', headers: { 'content-type': JSON_TYPE } });
    expect(outcome).toStrictEqual({
      type: 'problem',
      problem: {
        kind: 'protocol',
        detail: expect.stringMatching(/^201 with a body that is not valid JSON \(.+\)$/),
        advice: IN_TRANSIT_ADVICE,
        status: 201,
        serverMessages: [],
        transient: true,
        effect: 'applied',
      },
    });
  });

  it.each([
    ['the workflow itself', workflowResponse()],
    ['an array in data', { data: [workflowResponse()] }],
    ['null data', { data: null }],
    ['a top-level array', [ENVELOPE]],
  ])('without the {data} envelope: %s', (_name, body) => {
    expect(interpret(200, { body })).toStrictEqual(
      broken(200, 'without the {data} envelope the service wraps a workflow in'),
    );
  });

  it('a workflow of the wrong shape names what is wrong', () => {
    const body = { data: workflowResponse({ name: 42, active: 'yes' }) };
    expect(interpret(200, { body })).toStrictEqual(
      broken(
        200,
        'with a workflow that does not have the expected shape (/data/name must be string, /data/active must be boolean)',
      ),
    );
  });
});
