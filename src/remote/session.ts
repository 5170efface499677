import { type AdviceContext, moreTime, RemoteError, type RemoteErrorInit, seconds } from './errors.js';
import type { RateLimiter } from './rate-limiter.js';
import { redact } from './redact.js';
import type { ExchangeRequest, TransportSettings } from './transport.js';
import type { ClientEvent, Problem, RateLimitWait } from './types.js';

/** Everything one client's calls share: settings, the pool, the limiter, the retry budgets, the clock. */
export interface Session extends TransportSettings {
  /** `host[:port]`, as the user wrote it in the base URL. */
  host: string;
  /** Authorization, Accept, User-Agent. */
  headers: Record<string, string>;
  timeouts: { connectMs: number; headersMs: number; bodyMs: number };
  retry: { maxAttempts: number; baseDelayMs: number; maxDelayMs: number };
  /** Retries of failures (not rate-limit waits) across the client. */
  budget: RetryBudget;
  /** Rate-limit waits in a row before the client gives up. */
  rateLimitWaits: RateLimitStreak;
  limiter: RateLimiter;
  /** Where the user changes what a failure points at (target name, base URL source, key variable). */
  advice: AdviceContext;
  secrets: readonly string[];
  random: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  onEvent: ((event: ClientEvent) => void) | undefined;
}

/** A request as an operation builds it: every attempt adds the session's headers. */
export type Call = Omit<ExchangeRequest, 'headers'> & { headers?: Record<string, string> };

/** An error about `call`, with the session's secrets kept out of it. */
export function callError(
  session: Session,
  call: Pick<Call, 'method' | 'path'>,
  init: Omit<RemoteErrorInit, 'method' | 'path' | 'secrets'>,
): RemoteError {
  return new RemoteError({ ...init, method: call.method, path: call.path, secrets: session.secrets });
}

/** The error for giving up on `problem`, with why we stopped. */
export function failure(session: Session, call: Call, problem: Problem, why?: string): RemoteError {
  return callError(session, call, {
    kind: problem.kind,
    ...statusOf(problem),
    detail: why === undefined ? problem.detail : `${problem.detail} (${why})`,
    advice: problem.advice,
    serverMessages: problem.serverMessages,
    ...(problem.unreachable ? { unreachable: true } : {}),
    cause: problem.cause,
  });
}

export function emit(session: Session, event: ClientEvent): void {
  if (session.onEvent === undefined) return;
  const safe =
    event.reason === undefined ? event : { ...event, reason: redact(event.reason, session.secrets) };
  guarded(session.onEvent)(safe);
}

/** The listener, with its errors swallowed: a failing progress display must not break requests half-way. */
export function guarded<E>(listener: ((event: E) => void) | undefined): (event: E) => void {
  return (event) => {
    try {
      listener?.(event);
    } catch {
      // ignored: progress is advisory
    }
  };
}

export function statusOf(problem: Problem | undefined): { status?: number } {
  return problem?.status === undefined ? {} : { status: problem.status };
}

/** Total retries one client may make across all its calls, so a sick service cannot stretch a run forever. */
export class RetryBudget {
  #remaining: number;

  constructor(readonly total: number) {
    this.#remaining = total;
  }

  get remaining(): number {
    return this.#remaining;
  }

  /** Take one retry; false when none is left. */
  take(): boolean {
    if (this.#remaining <= 0) return false;
    this.#remaining--;
    return true;
  }
}

/**
 * Rate-limit waits in a row with no other answer in between. Waiting as the service asks is not a failure, but a
 * service that answers nothing but 429 must still end the run.
 */
export class RateLimitStreak {
  #count = 0;

  constructor(readonly total: number) {}

  /** An answer arrived: a 429 that is a new wait extends the streak, any other status ends it. */
  record(status: number, wait: RateLimitWait | undefined): void {
    if (status !== 429) this.#count = 0;
    else if (wait === 'new') this.#count++;
  }

  /** More waits in a row than allowed: give up instead of waiting again. */
  get exceeded(): boolean {
    return this.#count > this.total;
  }
}

/** Wait `ms` (cancellable), announcing why; throws if that would cross the deadline. */
export async function pause(
  session: Session,
  call: Call,
  ms: number,
  event: Omit<ClientEvent, 'method' | 'path' | 'delayMs'>,
): Promise<void> {
  ensureTimeFor(session, call, ms);
  emit(session, { ...event, method: call.method, path: call.path, delayMs: ms });
  if (ms <= 0) return;
  await sleep(session, call, ms, session.signal);
  ensureStillGoing(session, call);
}

async function sleep(
  session: Session,
  call: Call,
  ms: number,
  signal: AbortSignal | undefined,
): Promise<void> {
  try {
    await session.sleep(ms, signal);
  } catch (error) {
    if (session.signal?.aborted) throw stopped(session, call, 'cancelled', error);
    throw error;
  }
}

export function ensureStillGoing(session: Session, call: Call): void {
  if (session.signal?.aborted) throw stopped(session, call, 'cancelled');
  if (session.deadline !== undefined && session.now() >= session.deadline)
    throw stopped(session, call, 'deadline');
}

export function ensureTimeFor(session: Session, call: Call, ms: number, problem?: Problem): void {
  ensureStillGoing(session, call);
  if (session.deadline === undefined || session.now() + ms < session.deadline) return;
  const last = problem === undefined ? '' : ` (last problem: ${problem.detail})`;
  throw callError(session, call, {
    kind: 'deadline',
    ...statusOf(problem),
    detail: `the command's deadline would pass during the next wait of ${seconds(ms)}${last}`,
    advice: moreTime(session.advice),
    cause: problem?.cause,
  });
}

function stopped(session: Session, call: Call, kind: 'cancelled' | 'deadline', cause?: unknown): RemoteError {
  const detail = kind === 'cancelled' ? 'cancelled' : "the command's deadline passed";
  return callError(session, call, {
    kind,
    detail,
    ...(kind === 'deadline' ? { advice: moreTime(session.advice) } : {}),
    cause,
  });
}
