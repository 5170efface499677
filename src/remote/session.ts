import type { AdviceContext } from './advice.js';
import type { RateLimitStreak, RetryBudget } from './backoff.js';
import type { Endpoint } from './endpoint.js';
import type { Problem } from './interpret.js';
import type { RateLimiter } from './rate-limiter.js';
import { redact } from './redact.js';
import { RemoteError } from './remote-error.js';
import type { TransportSettings } from './transport.js';
import type { ClientEvent, HttpMethod } from './types.js';

/** Everything one client's calls share: settings, the pool, the limiter, the retry budgets. */
export interface Session {
  endpoint: Endpoint;
  host: string;
  transport: TransportSettings;
  /** Authorization, Accept, User-Agent. */
  headers: Record<string, string>;
  timeouts: { connectMs: number; headersMs: number; bodyMs: number };
  retry: { maxAttempts: number; baseDelayMs: number; maxDelayMs: number };
  /** Retries of failures (not rate-limit waits) across the client. */
  budget: RetryBudget;
  /** Rate-limit waits in a row before the client gives up. */
  rateLimitWaits: RateLimitStreak;
  limiter: RateLimiter;
  deadline: number | undefined;
  maxResponseBytes: number;
  /** Where the user changes what a failure points at (target name, base URL source, key variable). */
  advice: AdviceContext;
  secrets: readonly string[];
  now: () => number;
  random: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal: AbortSignal | undefined;
  onEvent: ((event: ClientEvent) => void) | undefined;
}

export interface Call {
  method: HttpMethod;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

/** The error for giving up on `problem`, with why we stopped. */
export function failure(session: Session, call: Call, problem: Problem, why?: string): RemoteError {
  return new RemoteError({
    kind: problem.kind,
    method: call.method,
    path: call.path,
    ...statusOf(problem),
    detail: why === undefined ? problem.detail : `${problem.detail} (${why})`,
    advice: problem.advice,
    serverMessages: problem.serverMessages,
    secrets: session.secrets,
    ...(problem.unreachable ? { unreachable: true } : {}),
    cause: problem.cause,
  });
}

export function emit(session: Session, event: ClientEvent): void {
  if (session.onEvent === undefined) return;
  const safe =
    event.reason === undefined ? event : { ...event, reason: redact(event.reason, session.secrets) };
  try {
    session.onEvent(safe);
  } catch {
    // A failing listener (a progress display) must not break the request state machine.
  }
}

export function statusOf(problem: Problem | undefined): { status?: number } {
  return problem?.status === undefined ? {} : { status: problem.status };
}
