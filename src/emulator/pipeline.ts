import { randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { setTimeout as delay } from 'node:timers/promises';
import { dispatch } from './dispatch.js';
import type { Environments } from './environments.js';
import type { FaultPlan } from './faults.js';
import { createWorkflow, type ServiceState } from './handlers.js';
import {
  buildErrorBody,
  EmulatorHttpError,
  INTERNAL_ERROR_MESSAGE,
  RATE_LIMIT_MESSAGE,
  unauthorized,
} from './http-error.js';
import { type Answer, errorAnswer, HTML_502, jsonAnswer, parseJsonBody, readBody } from './http-io.js';
import type { IdempotencyRegistry } from './idempotency.js';
import type { RateLimiter } from './rate-limit.js';
import { DEVELOPMENT_ONLY, matchRoute, WRITES } from './routes.js';

/**
 * One request through the service's layers, in the service's order: body parser (413, invalid JSON) → router
 * (404) → API-key guard (401) → Development-only guard for creates, deletes and status changes (401) → rate
 * limiter (429, and its headers on everything after it) → idempotency (400/409/422/replay) → processing time →
 * handler (dispatch.ts).
 */

export interface PipelineDeps {
  service: ServiceState;
  /** Both environments: their keys, and what `GET /v1/environments/me` and `GET /v1/notification-groups` say. */
  environments: Environments;
  rateLimiter: RateLimiter | undefined;
  idempotency: IdempotencyRegistry | undefined;
  /** Called after every write that reached the handler (data file). */
  persist: () => Promise<void>;
  /** Aborted when the emulator closes: cuts processing time short. */
  closing: AbortSignal;
}

export async function answerRequest(
  req: IncomingMessage,
  plan: FaultPlan,
  deps: PipelineDeps,
): Promise<Answer> {
  const method = req.method ?? 'GET';
  const url = req.url ?? '/';
  const clock = deps.service.clock;
  let headers: Record<string, string> = {};
  try {
    const { text, tooLarge } = await readBody(req);
    if (plan.early !== undefined) return earlyFaultAnswer(plan.early, url, clock());
    if (tooLarge) throw new EmulatorHttpError(413, 'request entity too large');
    const body = parseJsonBody(req.headers['content-type'], text);
    const { route, query } = matchRoute(method, url);
    const environment = authenticate(header(req, 'authorization'), deps.environments);
    const environmentId = deps.environments[environment]._id;
    if (DEVELOPMENT_ONLY.has(route.kind) && environment !== 'development') {
      throw unauthorized('This action is only allowed in Development environment');
    }
    if (deps.rateLimiter !== undefined) {
      const limit = deps.rateLimiter.take(environmentId, clock());
      headers = limit.headers;
      if (!limit.allowed) throw new EmulatorHttpError(429, RATE_LIMIT_MESSAGE, { error: null });
    }
    if (route.kind === 'create') {
      const key = header(req, 'idempotency-key');
      const idempotent = deps.idempotency !== undefined && key !== undefined && key !== '';
      return await processCreate(deps, body, url, plan, headers, idempotent ? key : undefined);
    }
    await delay(plan.latencyMs, undefined, { signal: deps.closing });
    const request = { route, query, body, environment: deps.environments[environment] };
    try {
      const [status, data] = dispatch(deps.service, request);
      return jsonAnswer(status, data, headers);
    } finally {
      if (WRITES.has(route.kind)) await deps.persist();
    }
  } catch (error) {
    return toErrorAnswer(error, url, clock(), headers);
  }
}

/** A create; with an idempotency `key`, remembered (success or failure) and replayed as the service does. */
async function processCreate(
  deps: PipelineDeps,
  body: unknown,
  url: string,
  plan: FaultPlan,
  headers: Record<string, string>,
  key: string | undefined,
): Promise<Answer> {
  const registry = key === undefined ? undefined : deps.idempotency;
  const decision = registry?.begin(key!, body);
  const answerHeaders = key === undefined ? headers : { ...headers, 'Idempotency-Key': key };
  if (decision?.kind === 'replay') {
    return jsonAnswer(decision.status, decision.body, { ...answerHeaders, 'Idempotency-Replay': 'true' });
  }
  try {
    await delay(plan.latencyMs, undefined, { signal: deps.closing });
    const created = createWorkflow(deps.service, body);
    registry?.complete(key!, 201, created);
    return jsonAnswer(201, created, answerHeaders);
  } catch (error) {
    if (!(error instanceof EmulatorHttpError)) {
      registry?.abandon(key!);
      return toErrorAnswer(error, url, deps.service.clock(), headers);
    }
    const errorBody = buildErrorBody(error, url, deps.service.clock());
    // The service remembers failures too: the same key and body get the same error back.
    registry?.complete(key!, error.status, errorBody);
    return errorAnswer(error, errorBody, answerHeaders);
  } finally {
    await deps.persist();
  }
}

function earlyFaultAnswer(fault: NonNullable<FaultPlan['early']>, url: string, now: number): Answer {
  switch (fault) {
    case 'rate-limit-burst': {
      const error = new EmulatorHttpError(429, RATE_LIMIT_MESSAGE, {
        error: null,
        headers: { 'Retry-After': '1' },
      });
      return errorAnswer(error, buildErrorBody(error, url, now), {});
    }
    case 'html-502':
      return { status: 502, headers: {}, body: HTML_502, contentType: 'text/html' };
    default:
      return toErrorAnswer(new Error('injected fault'), url, now, {});
  }
}

/** EmulatorHttpErrors become the service's error body; anything else is its generic 500 with an errorId. */
function toErrorAnswer(error: unknown, url: string, now: number, headers: Record<string, string>): Answer {
  const httpError =
    error instanceof EmulatorHttpError
      ? error
      : new EmulatorHttpError(500, INTERNAL_ERROR_MESSAGE, { error: null, extra: { errorId: randomUUID() } });
  return errorAnswer(httpError, buildErrorBody(httpError, url, now), headers);
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * `Authorization: ApiKey <key>` → which environment the key belongs to, or a 401 with the service's exact message.
 * The scheme is the text before the first space; the key is everything after it.
 */
function authenticate(header: string | undefined, environments: Environments): keyof Environments {
  if (header === undefined || header === '') throw unauthorized('Missing authorization header');
  const space = header.indexOf(' ');
  const scheme = space === -1 ? header : header.slice(0, space);
  if (scheme !== 'ApiKey') throw unauthorized(`Invalid authentication scheme: "${scheme}"`);
  const key = space === -1 ? '' : header.slice(space + 1);
  const owner = (['development', 'production'] as const).find(
    (name) => key !== '' && environments[name].keys.some((k) => sameKey(key, k)),
  );
  if (owner === undefined) throw unauthorized('API Key not found');
  return owner;
}

function sameKey(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
