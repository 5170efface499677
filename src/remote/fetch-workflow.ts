import { attempt } from './attempt.js';
import { type Attempts, pauseBeforeRetry } from './retry.js';
import { failure, type Session } from './session.js';
import type { WorkflowResponse } from './types.js';

/** GET one workflow by path, retrying what is transient. `undefined` when the service says 404 for it. */
export async function fetchWorkflow(session: Session, path: string): Promise<WorkflowResponse | undefined> {
  const call = { method: 'GET', path } as const;
  const attempts: Attempts = { sent: 0, failed: 0 };
  for (;;) {
    attempts.sent++;
    const outcome = await attempt(session, call, attempts.sent);
    if (outcome.type === 'ok') return outcome.workflow;
    if (outcome.type === 'absent') return undefined;
    // A GET changes nothing, so anything transient is simply asked again.
    if (!outcome.problem.transient) throw failure(session, call, outcome.problem);
    await pauseBeforeRetry(session, call, attempts, outcome.problem);
  }
}
