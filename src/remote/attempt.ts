import { interpretFailure } from './failure-problem.js';
import { interpretResponse, type Outcome } from './interpret.js';
import { type Call, emit, type Session } from './session.js';
import { exchange } from './transport.js';
import { ensureStillGoing, waitForLimiter } from './waiting.js';

/** One attempt: wait for the limiter, send, read, interpret. Throws only when cancelled or out of time. */
export async function attempt(session: Session, call: Call, attemptNumber: number): Promise<Outcome> {
  ensureStillGoing(session, call);
  const ticket = await session.limiter.acquire((ms, reason, wake) =>
    waitForLimiter(session, call, ms, reason, wake),
  );
  try {
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
    const limited = session.limiter.observe(ticket, result.status, result.header);
    session.rateLimitWaits.record(result.status, limited);
    emit(session, {
      type: 'response',
      method: call.method,
      path: call.path,
      status: result.status,
      attempt: attemptNumber,
    });
    const outcome = interpretResponse(result, {
      method: call.method,
      now: session.now(),
      advice: session.advice,
      maxResponseBytes: session.maxResponseBytes,
      bodyMs: session.timeouts.bodyMs,
    });
    if (limited === undefined || outcome.type !== 'problem' || outcome.problem.kind !== 'rate-limited') {
      return outcome;
    }
    return { type: 'problem', problem: { ...outcome.problem, rateLimitWait: limited } };
  } finally {
    // Failed, or never sent: the limiter counts it as ended (a no-op once observed).
    session.limiter.release(ticket);
  }
}
