import { describe, expect, it } from 'vitest';
import { IN_TRANSIT_ADVICE } from '../../../src/remote/advice.js';
import { interpretResponse, type Outcome } from '../../../src/remote/interpret.js';
import type { HttpMethod } from '../../../src/remote/types.js';
import { workflowResponse } from './helpers.js';
import { context, JSON_TYPE, type ResponseSpec, received } from './received.js';

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
