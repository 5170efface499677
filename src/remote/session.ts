import { type AdviceContext, count, seconds, setting } from './advice.js';
import { backoffDelay, parseRetryAfter, type RetryBudget } from './backoff.js';
import type { Endpoint } from './endpoint.js';
import { interpretFailure } from './failure-problem.js';
import { interpretResponse, type Outcome, type Problem } from './interpret.js';
import type { RateLimiter } from './rate-limiter.js';
import { redact } from './redact.js';
import { RemoteError } from './remote-error.js';
import { exchange, type TransportSettings } from './transport.js';
import type { ClientEvent, HttpMethod } from './types.js';

/** Everything one client's calls share: settings, the pool, the limiter, the retry budget. */
export interface Session {
  endpoint: Endpoint;
  host: string;
  transport: TransportSettings;
  /** Authorization, Accept, User-Agent. */
  headers: Record<string, string>;
  timeouts: { connectMs: number; headersMs: number; bodyMs: number };
  retry: { maxAttempts: number; baseDelayMs: number; maxDelayMs: number };
  budget: RetryBudget;
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

/** One attempt: wait for the limiter, send, read, interpret. Throws only when cancelled or out of time. */
export async function attempt(session: Session, call: Call, attemptNumber: number): Promise<Outcome> {
  ensureStillGoing(session, call);
  await session.limiter.acquire((ms, reason) => pause(session, call, ms, { type: 'wait', reason }));
  ensureStillGoing(session, call);
  emit(session, { type: 'request', method: call.method, path: call.path, attempt: attemptNumber });
  const result = await exchange(session.transport, {
    method: call.method,
    path: call.path,
    headers: { ...session.headers, ...call.headers },
    ...(call.body === undefined ? {} : { body: call.body }),
  });
  if (result.type === 'failure') {
    const problem = interpretFailure(result, {
      ...session.timeouts,
      host: session.host,
      advice: session.advice,
    });
    return { type: 'problem', problem };
  }
  const now = session.now();
  const holdMs = result.status === 429 ? parseRetryAfter(result.header('retry-after'), now) : undefined;
  session.limiter.observe(result.header, holdMs);
  emit(session, {
    type: 'response',
    method: call.method,
    path: call.path,
    status: result.status,
    attempt: attemptNumber,
  });
  return interpretResponse(result, {
    method: call.method,
    now,
    advice: session.advice,
    maxResponseBytes: session.maxResponseBytes,
    bodyMs: session.timeouts.bodyMs,
  });
}

/**
 * Wait before retry `attemptNumber + 1` of a transient problem, or throw: out of attempts, out of budget, or
 * the wait would cross the deadline.
 */
export async function pauseBeforeRetry(
  session: Session,
  call: Call,
  attemptNumber: number,
  problem: Problem,
): Promise<void> {
  if (attemptNumber >= session.retry.maxAttempts) {
    throw failure(session, call, problem, `gave up after ${count(attemptNumber, 'attempt', 'attempts')}`);
  }
  const delayMs = backoffDelay(attemptNumber, session.retry, session.random, problem.retryAfterMs);
  ensureTimeFor(session, call, delayMs, problem);
  if (!session.budget.take()) {
    throw failure(
      session,
      call,
      problem,
      `the retry budget of ${count(session.budget.total, 'retry', 'retries')} for this run is used up`,
    );
  }
  await pause(session, call, delayMs, {
    type: 'retry',
    attempt: attemptNumber + 1,
    reason: problem.detail,
    ...statusOf(problem),
  });
}

/** Sleep `ms` (cancellable), announcing why; throws if that would cross the deadline. */
export async function pause(
  session: Session,
  call: Call,
  ms: number,
  event: Omit<ClientEvent, 'method' | 'path' | 'delayMs'>,
): Promise<void> {
  ensureTimeFor(session, call, ms);
  emit(session, { ...event, method: call.method, path: call.path, delayMs: ms });
  if (ms <= 0) return;
  try {
    await session.sleep(ms, session.signal);
  } catch (error) {
    if (session.signal?.aborted) throw stopped(session, call, 'cancelled', error);
    throw error;
  }
  ensureStillGoing(session, call);
}

export function ensureStillGoing(session: Session, call: Call): void {
  if (session.signal?.aborted) throw stopped(session, call, 'cancelled');
  if (session.deadline !== undefined && session.now() >= session.deadline)
    throw stopped(session, call, 'deadline');
}

function ensureTimeFor(session: Session, call: Call, ms: number, problem?: Problem): void {
  ensureStillGoing(session, call);
  if (session.deadline === undefined || session.now() + ms < session.deadline) return;
  const last = problem === undefined ? '' : ` (last problem: ${problem.detail})`;
  throw new RemoteError({
    kind: 'deadline',
    method: call.method,
    path: call.path,
    ...statusOf(problem),
    detail: `the command's deadline would pass during the next wait of ${seconds(ms)}${last}`,
    advice: moreTime(session),
    secrets: session.secrets,
    cause: problem?.cause,
  });
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

function stopped(session: Session, call: Call, kind: 'cancelled' | 'deadline', cause?: unknown): RemoteError {
  const detail = kind === 'cancelled' ? 'cancelled' : "the command's deadline passed";
  return new RemoteError({
    kind,
    method: call.method,
    path: call.path,
    detail,
    ...(kind === 'deadline' ? { advice: moreTime(session) } : {}),
    secrets: session.secrets,
    cause,
  });
}

function moreTime(session: Session): string {
  return `if the run needs more time, raise ${setting(session.advice, 'timeouts.commandMs')}`;
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

function statusOf(problem: Problem | undefined): { status?: number } {
  return problem?.status === undefined ? {} : { status: problem.status };
}
