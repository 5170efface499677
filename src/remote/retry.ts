import { count } from './advice.js';
import { backoffDelay } from './backoff.js';
import type { Problem } from './interpret.js';
import { type Call, failure, type Session } from './session.js';
import { ensureTimeFor, pause } from './waiting.js';

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
  if (problem.rateLimitWait !== undefined && problem.retryAfterMs !== undefined) {
    if (session.rateLimitWaits.exceeded) {
      const times = count(session.rateLimitWaits.total, 'time', 'times');
      throw failure(session, call, problem, `still refused after waiting as asked ${times} in a row`);
    }
    const delayMs = Math.min(problem.retryAfterMs, session.retry.maxDelayMs);
    await announcePause(session, call, attempts, problem, delayMs);
    return;
  }
  attempts.failed++;
  if (attempts.failed >= session.retry.maxAttempts) {
    throw failure(session, call, problem, `gave up after ${count(attempts.failed, 'attempt', 'attempts')}`);
  }
  const delayMs = backoffDelay(attempts.failed, session.retry, session.random, problem.retryAfterMs);
  ensureTimeFor(session, call, delayMs, problem);
  if (!session.budget.take()) {
    throw failure(
      session,
      call,
      problem,
      `the retry budget of ${count(session.budget.total, 'retry', 'retries')} for this run is used up`,
    );
  }
  await announcePause(session, call, attempts, problem, delayMs);
}

async function announcePause(
  session: Session,
  call: Call,
  attempts: Attempts,
  problem: Problem,
  delayMs: number,
): Promise<void> {
  ensureTimeFor(session, call, delayMs, problem);
  await pause(session, call, delayMs, {
    type: 'retry',
    attempt: attempts.sent + 1,
    reason: problem.detail,
    ...(problem.status === undefined ? {} : { status: problem.status }),
  });
}
