import type { InterpretContext } from '../../src/remote/interpret.js';
import type { ReceivedResponse } from '../../src/remote/transport.js';
import type { HttpMethod } from '../../src/remote/types.js';

/** Builders for the pure interpret tests: a response as the transport hands it over, and the context. */

export const NOW = Date.parse('2024-10-01T12:00:00.000Z');
export const JSON_TYPE = 'application/json; charset=utf-8';

export interface ResponseSpec {
  headers?: Record<string, string>;
  /** A string is sent as is; anything else as JSON with a JSON content type (unless headers say otherwise). */
  body?: unknown;
  bodyFailure?: ReceivedResponse['bodyFailure'];
  cause?: unknown;
}

export function received(status: number, spec: ResponseSpec = {}): ReceivedResponse {
  const json = spec.body !== undefined && typeof spec.body !== 'string';
  const headers: Record<string, string> = {
    ...(json ? { 'content-type': JSON_TYPE } : {}),
    ...spec.headers,
  };
  const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const text = spec.body === undefined ? '' : json ? JSON.stringify(spec.body) : String(spec.body);
  return {
    type: 'response',
    status,
    header: (name) => lower.get(name),
    body: Buffer.from(text, 'utf8'),
    ...(spec.bodyFailure === undefined ? {} : { bodyFailure: spec.bodyFailure }),
    ...(spec.cause === undefined ? {} : { cause: spec.cause }),
  };
}

export function context(method: HttpMethod, extra: Partial<InterpretContext> = {}): InterpretContext {
  return {
    method,
    now: NOW,
    maxResponseBytes: 10 * 1024 * 1024,
    bodyMs: 30_000,
    advice: {},
    ...extra,
  };
}
