import { plural } from '../text.js';
import { interpretFailure } from './failure-problem.js';
import { type InterpretContext, interpretResponse, type ProblemOutcome } from './interpret.js';
import {
  type Call,
  emit,
  ensureStillGoing,
  ensureTimeFor,
  failure,
  pause,
  type Session,
  statusOf,
} from './session.js';
import { exchange, type ReceivedResponse } from './transport.js';
import type { Problem, RateLimitWait, WorkflowResponse } from './types.js';

/**
 * One operation's attempts: each waits for the rate limiter, is sent and interpreted; transient problems are
 * retried after a full-jitter backoff, within the attempts per call and the budget of the whole client.
 */

/** GET one workflow by path, retrying what is transient. `undefined` when the service says 404 for it. */
export function fetchWorkflow(session: Session, path: string): Promise<WorkflowResponse | undefined> {
  return fetchWith(session, path, (response, context) => {
    const outcome = interpretResponse(response, context);
    return outcome.type === 'ok' ? { type: 'ok', value: outcome.workflow } : outcome;
  });
}

/** What one GET came to: the value, "absent" (404), or a Problem. */
export type ReadOutcome<T> = { type: 'ok'; value: T } | { type: 'absent' } | ProblemOutcome;

/** GET `path` and read the answer with `interpret`, retrying what is transient. `undefined` when absent. */
export async function fetchWith<T>(
  session: Session,
  path: string,
  interpret: (response: ReceivedResponse, context: InterpretContext) => ReadOutcome<T>,
): Promise<T | undefined> {
  const call = { method: 'GET', path } as const;
  const attempts: Attempts = { sent: 0, failed: 0 };
  for (;;) {
    attempts.sent++;
    const outcome = await attempt(session, call, attempts.sent, interpret);
    if (outcome.type === 'ok') return outcome.value;
    if (outcome.type === 'absent') return undefined;
    // A GET changes nothing, so anything transient is simply asked again.
    if (!outcome.problem.transient) throw failure(session, call, outcome.problem);
    await pauseBeforeRetry(session, call, attempts, outcome.problem);
  }
}

/**
 * One attempt: wait for the limiter, send, read the answer with `interpret`. Throws only when cancelled or out of
 * time. `interpret` returns its own outcome type, whose `type: 'problem'` entries carry a Problem as Outcome's do.
 */
export async function attempt<O extends { type: string; problem?: Problem }>(
  session: Session,
  call: Call,
  attemptNumber: number,
  interpret: (response: ReceivedResponse, context: InterpretContext) => O,
): Promise<O | { type: 'problem'; problem: Problem }> {
  ensureStillGoing(session, call);
  const ticket = await session.limiter.acquire((ms, reason) =>
    pause(session, call, ms, { type: 'wait', reason }),
  );
  let result: Awaited<ReturnType<typeof exchange>>;
  let limited: RateLimitWait | undefined;
  try {
    ensureStillGoing(session, call);
    emit(session, { type: 'request', method: call.method, path: call.path, attempt: attemptNumber });
    result = await exchange(session, { ...call, headers: { ...session.headers, ...call.headers } });
    if (result.type !== 'failure') limited = session.limiter.observe(ticket, result.status, result.header);
  } finally {
    // Answered (and observed), failed or never sent: the requests waiting for the first may go.
    session.limiter.settle();
  }
  if (result.type === 'failure') {
    return { type: 'problem', problem: interpretFailure(result, session) };
  }
  session.rateLimitWaits.record(result.status, limited);
  emit(session, {
    type: 'response',
    method: call.method,
    path: call.path,
    status: result.status,
    attempt: attemptNumber,
  });
  const outcome = interpret(result, {
    method: call.method,
    now: session.now(),
    advice: session.advice,
    maxResponseBytes: session.maxResponseBytes,
    bodyMs: session.timeouts.bodyMs,
  });
  const problem = outcome.type === 'problem' ? outcome.problem : undefined;
  if (limited === undefined || problem?.kind !== 'rate-limited') return outcome;
  return { type: 'problem', problem: { ...problem, rateLimitWait: limited } };
}

/** One operation's attempts: all of them, and the failed ones (rate-limit waits are neither failures nor budget). */
export interface Attempts {
  sent: number;
  failed: number;
}

/**
 * Wait before the next attempt after a transient problem, or throw. A 429 that says when to come back is waited
 * out as asked, outside the failure budget, until the service has refused `retry.rateLimitWaits` times in a row.
 * Anything else is a failure: out of attempts, out of budget, or a wait that would cross the deadline ends it.
 */
export async function pauseBeforeRetry(
  session: Session,
  call: Call,
  attempts: Attempts,
  problem: Problem,
): Promise<void> {
  let delayMs: number;
  if (problem.rateLimitWait !== undefined && problem.retryAfterMs !== undefined) {
    if (session.rateLimitWaits.exceeded) {
      const times = plural(session.rateLimitWaits.total, 'time');
      throw failure(session, call, problem, `still refused after waiting as asked ${times} in a row`);
    }
    delayMs = Math.min(problem.retryAfterMs, session.retry.maxDelayMs);
    ensureTimeFor(session, call, delayMs, problem);
  } else {
    attempts.failed++;
    if (attempts.failed >= session.retry.maxAttempts) {
      throw failure(session, call, problem, `gave up after ${plural(attempts.failed, 'attempt')}`);
    }
    delayMs = backoffDelay(attempts.failed, session.retry, session.random, problem.retryAfterMs);
    // Before the budget: a wait that would cross the deadline takes no retry from it.
    ensureTimeFor(session, call, delayMs, problem);
    if (!session.budget.take()) {
      const budget = `the retry budget of ${retries(session.budget.total)} for this run is used up`;
      throw failure(session, call, problem, budget);
    }
  }
  await pause(session, call, delayMs, {
    type: 'retry',
    attempt: attempts.sent + 1,
    reason: problem.detail,
    ...statusOf(problem),
  });
}

/**
 * Delay before retry number `attempt` (1 = the first retry): a uniformly random point in
 * [0, min(max, base·2^(attempt-1))) ("full jitter", so parallel callers spread out), but never sooner than the
 * server asked, and never longer than maxDelayMs.
 */
export function backoffDelay(
  attempt: number,
  settings: { baseDelayMs: number; maxDelayMs: number },
  random: () => number,
  serverHintMs?: number,
): number {
  const ceiling = Math.min(settings.maxDelayMs, settings.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  const jittered = Math.floor(random() * ceiling);
  const delay = serverHintMs === undefined ? jittered : Math.max(serverHintMs, jittered);
  return Math.max(0, Math.min(delay, settings.maxDelayMs));
}

/** `1 retry`, `3 retries`. */
export function retries(n: number): string {
  return `${n} ${n === 1 ? 'retry' : 'retries'}`;
}
