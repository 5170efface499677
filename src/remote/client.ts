import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { ConfigError } from '../errors.js';
import { VERSION } from '../version.js';
import {
  applyChange,
  applyChanges,
  fetchChangeCount,
  fetchChangesPage,
  fetchWorkflowsPage,
} from './changes.js';
import { createWorkflow } from './create-workflow.js';
import { deleteWorkflow } from './delete-workflow.js';
import { keyName } from './errors.js';
import { fetchListedIdentifiers } from './listed-identifiers.js';
import { readAllPages } from './paging.js';
import { createProxyDispatcher, type ProxiedRoute, proxyInUse } from './proxy.js';
import { RateLimiter } from './rate-limiter.js';
import { fetchCurrentEnvironment, fetchNotificationGroups } from './read-routes.js';
import { fetchWorkflow } from './retry.js';
import { callError, RateLimitStreak, RetryBudget, type Session } from './session.js';
import { parseBaseUrl, workflowPath, workflowsPath } from './transport.js';
import type { ClientOptions, CreateOptions, ServiceClient } from './types.js';
import { Pool } from './undici.js';
import { putWorkflow } from './update-workflow.js';

/** Every client default, for whatever ClientOptions (or the target's settings in wfsync.config.yaml) leave unset. */
const DEFAULTS = {
  timeouts: { connectMs: 10_000, headersMs: 30_000, bodyMs: 30_000 },
  retries: { maxAttempts: 4, baseDelayMs: 500, maxDelayMs: 30_000, budget: 30, rateLimitWaits: 10 },
  // The pace until the service advertises its own (it may never): under the free tier's 30/s.
  fallbackPerSecond: 20,
  maxResponseBytes: 10 * 1024 * 1024,
};

/**
 * A client for the service's two workflow operations (and the two read-only routes about the key's environment), over one keep-alive connection pool, or through the proxy
 * `options.proxy` names (CONNECT tunnels, same timeouts).
 */
export function createClient(options: ClientOptions): ServiceClient {
  const endpoint =
    typeof options.baseUrl === 'string'
      ? parseBaseUrl(options.baseUrl, options.allowInsecureHttp)
      : options.baseUrl;
  const apiKey = options.apiKey.trim();
  const advice = { name: options.name, baseUrlFrom: options.baseUrlFrom, apiKeyEnv: options.apiKeyEnv };
  if (apiKey === '') throw new ConfigError(`no API key: ${keyName(advice)} is empty`);
  if (!/^[\x21-\x7e]+$/.test(apiKey))
    throw new ConfigError(`${keyName(advice)} contains spaces or characters an HTTP header cannot carry`);
  const timeouts = {
    connectMs: positive(options.timeouts?.connectMs, DEFAULTS.timeouts.connectMs, 'timeouts.connectMs'),
    headersMs: positive(options.timeouts?.headersMs, DEFAULTS.timeouts.headersMs, 'timeouts.headersMs'),
    bodyMs: positive(options.timeouts?.bodyMs, DEFAULTS.timeouts.bodyMs, 'timeouts.bodyMs'),
  };
  const retries = options.retries ?? {};
  const retry = {
    maxAttempts: Math.max(1, Math.floor(retries.maxAttempts ?? DEFAULTS.retries.maxAttempts)),
    baseDelayMs: Math.max(0, retries.baseDelayMs ?? DEFAULTS.retries.baseDelayMs),
    maxDelayMs: Math.max(0, retries.maxDelayMs ?? DEFAULTS.retries.maxDelayMs),
  };
  const now = options.now ?? Date.now;
  const commandMs = options.timeouts?.commandMs;
  // No redirect interceptor is installed, so 3xx answers come back as they are and the key never follows them.
  const proxy =
    options.proxy?.type === 'proxy' && options.dispatcher === undefined ? options.proxy : undefined;
  const pool =
    options.dispatcher === undefined ? openDispatcher(endpoint.origin, proxy, timeouts) : undefined;
  const session: Session = {
    endpoint,
    host: new URL(endpoint.origin).host,
    dispatcher: options.dispatcher ?? (pool as Dispatcher),
    ...(proxy === undefined ? {} : { proxy: proxyInUse(proxy) }),
    headers: {
      authorization: `ApiKey ${apiKey}`,
      accept: 'application/json',
      'user-agent': `wfsync/${VERSION}`,
    },
    timeouts,
    retry,
    budget: new RetryBudget(wholeCount(retries.budget ?? DEFAULTS.retries.budget)),
    rateLimitWaits: new RateLimitStreak(
      wholeCount(retries.rateLimitWaits ?? DEFAULTS.retries.rateLimitWaits),
    ),
    limiter: new RateLimiter({
      ...(options.rateLimit === undefined ? {} : { requestsPerSecond: Math.max(0, options.rateLimit) }),
      ...(options.burst === undefined ? {} : { burst: options.burst }),
      fallbackPerSecond: DEFAULTS.fallbackPerSecond,
      maxHoldMs: retry.maxDelayMs,
      now,
    }),
    deadline: commandMs === undefined ? undefined : now() + commandMs,
    maxResponseBytes: positive(options.maxResponseBytes, DEFAULTS.maxResponseBytes, 'maxResponseBytes'),
    advice,
    secrets: [apiKey, ...(proxy?.secrets ?? [])],
    now,
    random: options.random ?? Math.random,
    sleep: options.sleep ?? ((ms, signal) => delay(ms, undefined, signal === undefined ? {} : { signal })),
    signal: options.signal,
    onEvent: options.onEvent,
  };
  let closed = false;
  const whileOpen =
    <A extends unknown[], R>(operation: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (closed) throw new Error('the service client is closed');
      return operation(...args);
    };
  return {
    createWorkflow: whileOpen((body: unknown, createOptions: CreateOptions) =>
      createWorkflow(session, body, createOptions),
    ),
    updateWorkflow: whileOpen((id: string, body: Record<string, unknown>) =>
      putWorkflow(session, id, 'workflow', body),
    ),
    setWorkflowStatus: whileOpen((id: string, active: boolean) =>
      putWorkflow(session, id, 'status', { active }),
    ),
    getWorkflow: whileOpen(async (idOrIdentifier: string) => {
      const result = workflowPath(endpoint, idOrIdentifier);
      if ('problem' in result) {
        const path = `${endpoint.basePath}/v1/workflows/{workflowId}`;
        throw callError(session, { method: 'GET', path }, { kind: 'validation', detail: result.problem });
      }
      return fetchWorkflow(session, result.path);
    }),
    deleteWorkflow: whileOpen(async (id: string) => {
      const result = workflowPath(endpoint, id);
      if ('problem' in result) {
        const path = `${endpoint.basePath}/v1/workflows/{workflowId}`;
        throw callError(session, { method: 'DELETE', path }, { kind: 'validation', detail: result.problem });
      }
      return deleteWorkflow(session, result.path);
    }),
    getCurrentEnvironment: whileOpen(() => fetchCurrentEnvironment(session)),
    listNotificationGroups: whileOpen(() => fetchNotificationGroups(session)),
    listWorkflows: whileOpen(() =>
      readAllPages((page, limit) => fetchWorkflowsPage(session, page, limit), {
        what: 'workflows',
        fail: (message) => runaway(session, workflowsPath(endpoint), message),
      }),
    ),
    listWorkflowIdentifiers: whileOpen(() => fetchListedIdentifiers(session)),
    listPendingChanges: whileOpen(() =>
      readAllPages((page, limit) => fetchChangesPage(session, page, limit), {
        what: 'changes',
        fail: (message) => runaway(session, `${endpoint.basePath}/v1/changes`, message),
      }),
    ),
    countPendingChanges: whileOpen(() => fetchChangeCount(session)),
    applyChange: whileOpen((changeId: string) => applyChange(session, changeId)),
    applyChanges: whileOpen((changeIds: readonly string[]) => applyChanges(session, changeIds)),
    async close() {
      if (closed) return;
      closed = true;
      await pool?.close();
    },
  };
}

/**
 * Which workflow the current client call is for. The client is shared and its events name only a path (a POST's
 * path names no workflow), so callers run each workflow's calls inside this context and event listeners read it.
 */
const currentWorkflowContext = new AsyncLocalStorage<string>();

export function runForWorkflow<T>(identifier: string, fn: () => Promise<T>): Promise<T> {
  return currentWorkflowContext.run(identifier, fn);
}

/** The identifier `runForWorkflow` is running a call for, if any. */
export function currentWorkflow(): string | undefined {
  return currentWorkflowContext.getStore();
}

/** The dispatcher the client opens and closes: through the proxy when one applies, else a direct pool. */
function openDispatcher(
  origin: string,
  proxy: ProxiedRoute | undefined,
  timeouts: { connectMs: number; headersMs: number; bodyMs: number },
): Dispatcher {
  if (proxy !== undefined) return createProxyDispatcher(proxy, origin, timeouts);
  return new Pool(origin, {
    connect: { timeout: timeouts.connectMs },
    headersTimeout: timeouts.headersMs,
    bodyTimeout: timeouts.bodyMs,
  });
}

/** A paged list that would not end: the service's answers are not what its contract says. */
function runaway(session: Session, path: string, detail: string): Error {
  return callError(session, { method: 'GET', path }, { kind: 'protocol', detail });
}

function wholeCount(value: number): number {
  return Math.max(0, Math.floor(value));
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0)
    throw new ConfigError(`${name} must be a positive number, got ${value}`);
  return value;
}
