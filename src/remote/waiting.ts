import { seconds, setting } from './advice.js';
import type { Problem } from './interpret.js';
import { RemoteError } from './remote-error.js';
import { type Call, emit, type Session, statusOf } from './session.js';
import type { ClientEvent } from './types.js';

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
  await sleep(session, call, ms, session.signal);
  ensureStillGoing(session, call);
}

/**
 * The rate limiter's wait: `ms` at most (throws if that would cross the deadline), cut short when `wake` settles.
 * Without `ms`, until `wake`: it settles when a request in flight ends, and those are bounded by their own timeouts.
 */
export async function waitForLimiter(
  session: Session,
  call: Call,
  ms: number | undefined,
  reason: string,
  wake?: Promise<void>,
): Promise<void> {
  if (ms !== undefined) ensureTimeFor(session, call, ms);
  else ensureStillGoing(session, call);
  const timing = ms === undefined ? {} : { delayMs: ms };
  emit(session, { type: 'wait', reason, method: call.method, path: call.path, ...timing });
  if (ms !== undefined && ms <= 0) return;
  const woken = new AbortController();
  void wake?.then(() => woken.abort());
  const signal =
    session.signal === undefined ? woken.signal : AbortSignal.any([session.signal, woken.signal]);
  if (ms === undefined) {
    await new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
    });
  } else {
    await sleep(session, call, ms, signal).catch((error: unknown) => {
      if (!woken.signal.aborted || session.signal?.aborted) throw error;
    });
  }
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
