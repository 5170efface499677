import { attempt, failure, pauseBeforeRetry, type Session } from './session.js';
import type { WorkflowResponse } from './types.js';

/** GET one workflow by path, retrying what is transient. `undefined` when the service says 404 for it. */
export async function fetchWorkflow(session: Session, path: string): Promise<WorkflowResponse | undefined> {
  const call = { method: 'GET', path } as const;
  for (let attemptNumber = 1; ; attemptNumber++) {
    const outcome = await attempt(session, call, attemptNumber);
    if (outcome.type === 'ok') return outcome.workflow;
    if (outcome.type === 'absent') return undefined;
    // A GET changes nothing, so anything transient is simply asked again.
    if (!outcome.problem.transient) throw failure(session, call, outcome.problem);
    await pauseBeforeRetry(session, call, attemptNumber, outcome.problem);
  }
}
