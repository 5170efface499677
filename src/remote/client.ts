import { setTimeout as delay } from 'node:timers/promises';
import { Pool } from 'undici';
import { ConfigError } from '../errors.js';
import { VERSION } from '../version.js';
import { RateLimitStreak, RetryBudget } from './backoff.js';
import { createWorkflow } from './create-workflow.js';
import { parseBaseUrl, workflowPath } from './endpoint.js';
import { fetchWorkflow } from './fetch-workflow.js';
import { RateLimiter } from './rate-limiter.js';
import { RemoteError } from './remote-error.js';
import type { Session } from './session.js';
import type { ClientOptions, ServiceClient } from './types.js';

const DEFAULTS = {
  connectMs: 10_000,
  headersMs: 30_000,
  bodyMs: 30_000,
  maxAttempts: 4,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  budget: 30,
  rateLimitWaits: 10,
  // The pace until the service advertises its own (it may never): under the free tier's 30/s.
  fallbackPerSecond: 20,
  maxResponseBytes: 10 * 1024 * 1024,
};

/** A client for the service's two workflow operations, over one keep-alive connection pool. */
export function createClient(options: ClientOptions): ServiceClient {
  const endpoint = parseBaseUrl(options.baseUrl, options.allowInsecureHttp);
  const apiKey = options.apiKey.trim();
  const keyName = options.apiKeyEnv === undefined ? 'the API key' : `$${options.apiKeyEnv}`;
  if (apiKey === '') throw new ConfigError(`no API key: ${keyName} is empty`);
  if (!/^[\x21-\x7e]+$/.test(apiKey))
    throw new ConfigError(`${keyName} contains spaces or characters an HTTP header cannot carry`);
  const timeouts = {
    connectMs: positive(options.timeouts?.connectMs, DEFAULTS.connectMs, 'timeouts.connectMs'),
    headersMs: positive(options.timeouts?.headersMs, DEFAULTS.headersMs, 'timeouts.headersMs'),
    bodyMs: positive(options.timeouts?.bodyMs, DEFAULTS.bodyMs, 'timeouts.bodyMs'),
  };
  const retry = {
    maxAttempts: Math.max(1, Math.floor(options.retry?.maxAttempts ?? DEFAULTS.maxAttempts)),
    baseDelayMs: Math.max(0, options.retry?.baseDelayMs ?? DEFAULTS.baseDelayMs),
    maxDelayMs: Math.max(0, options.retry?.maxDelayMs ?? DEFAULTS.maxDelayMs),
  };
  const now = options.now ?? Date.now;
  const maxResponseBytes = positive(options.maxResponseBytes, DEFAULTS.maxResponseBytes, 'maxResponseBytes');
  // No redirect interceptor is installed, so 3xx answers come back as they are and the key never follows them.
  const pool =
    options.dispatcher === undefined
      ? new Pool(endpoint.origin, {
          connect: { timeout: timeouts.connectMs },
          headersTimeout: timeouts.headersMs,
          bodyTimeout: timeouts.bodyMs,
        })
      : undefined;
  const session: Session = {
    endpoint,
    host: new URL(endpoint.origin).host,
    transport: {
      dispatcher: options.dispatcher ?? (pool as Pool),
      origin: endpoint.origin,
      headersMs: timeouts.headersMs,
      bodyMs: timeouts.bodyMs,
      maxResponseBytes,
      deadline: options.deadline,
      now,
      signal: options.signal,
    },
    headers: {
      authorization: `ApiKey ${apiKey}`,
      accept: 'application/json',
      'user-agent': `wfsync/${VERSION}`,
    },
    timeouts,
    retry,
    budget: new RetryBudget(wholeCount(options.retry?.budget, DEFAULTS.budget)),
    rateLimitWaits: new RateLimitStreak(wholeCount(options.retry?.rateLimitWaits, DEFAULTS.rateLimitWaits)),
    limiter: new RateLimiter({
      ...(options.rateLimit?.requestsPerSecond === undefined
        ? {}
        : { requestsPerSecond: Math.max(0, options.rateLimit.requestsPerSecond) }),
      ...(options.rateLimit?.burst === undefined ? {} : { burst: options.rateLimit.burst }),
      fallbackPerSecond: DEFAULTS.fallbackPerSecond,
      maxHoldMs: retry.maxDelayMs,
      now,
    }),
    deadline: options.deadline,
    maxResponseBytes,
    advice: {
      targetName: options.targetName,
      baseUrlFrom: options.baseUrlFrom,
      apiKeyEnv: options.apiKeyEnv,
    },
    secrets: [apiKey],
    now,
    random: options.random ?? Math.random,
    sleep: options.sleep ?? ((ms, signal) => delay(ms, undefined, signal === undefined ? {} : { signal })),
    signal: options.signal,
    onEvent: options.onEvent,
  };
  let closed = false;
  const ensureOpen = () => {
    if (closed) throw new Error('the service client is closed');
  };
  return {
    async createWorkflow(body, createOptions) {
      ensureOpen();
      return createWorkflow(session, body, createOptions);
    },
    async getWorkflow(idOrIdentifier) {
      ensureOpen();
      const result = workflowPath(endpoint, idOrIdentifier);
      if ('problem' in result) {
        const path = `${endpoint.basePath}/v1/workflows/{workflowId}`;
        throw new RemoteError({
          kind: 'validation',
          method: 'GET',
          path,
          detail: result.problem,
          secrets: session.secrets,
        });
      }
      return fetchWorkflow(session, result.path);
    },
    async close() {
      if (closed) return;
      closed = true;
      await pool?.close();
    },
  };
}

function wholeCount(value: number | undefined, fallback: number): number {
  return Math.max(0, Math.floor(value ?? fallback));
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0)
    throw new ConfigError(`${name} must be a positive number, got ${value}`);
  return value;
}
