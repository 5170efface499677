import { isRecord } from '../json.js';
import type { RemoteError } from './errors.js';
import { interpretResponse } from './interpret.js';
import { type Attempts, attempt, pauseBeforeRetry } from './retry.js';
import { type Call, callError, failure, type Session, statusOf } from './session.js';
import { workflowPath } from './transport.js';
import type { Problem, WorkflowResponse } from './types.js';

const UNKNOWN_ADVICE =
  'run `wfsync plan` to compare the service with the file: the next sync finishes or records the update';

/**
 * `PUT /v1/workflows/{id}` (the whole desired body) or `PUT /v1/workflows/{id}/status` (`{active}`): the workflow as
 * the service answers it. Sent again only when the first attempt provably did nothing (never left this machine, or a
 * 409/429/503 with Retry-After); when the outcome is unknown (connection lost, timeout, 5xx), it throws
 * `outcome-unknown` and the caller reads the workflow to tell (a PUT sent twice would give every new step a second
 * template, and each PUT leaves a pending change on the service).
 */
export async function putWorkflow(
  session: Session,
  id: string,
  route: 'workflow' | 'status',
  body: unknown,
): Promise<WorkflowResponse> {
  const located = workflowPath(session.endpoint, id);
  const path = 'problem' in located ? undefined : `${located.path}${route === 'status' ? '/status' : ''}`;
  const call: Call = {
    method: 'PUT',
    path: path ?? `${session.endpoint.basePath}/v1/workflows/{workflowId}`,
    headers: { 'content-type': 'application/json' },
    body: serialize(body),
  };
  if ('problem' in located) throw callError(session, call, { kind: 'validation', detail: located.problem });
  const attempts: Attempts = { sent: 0, failed: 0 };
  for (;;) {
    attempts.sent++;
    const outcome = await attempt(session, call, attempts.sent, interpretResponse);
    if (outcome.type === 'ok') return outcome.workflow;
    if (outcome.type === 'absent') throw new Error('unreachable: a PUT is never "absent"');
    const { problem } = outcome;
    if (problem.effect !== 'none') throw outcomeUnknown(session, call, problem);
    if (!problem.transient) throw failure(session, call, problem);
    await pauseBeforeRetry(session, call, attempts, problem);
  }
}

function outcomeUnknown(session: Session, call: Call, problem: Problem): RemoteError {
  return callError(session, call, {
    kind: 'outcome-unknown',
    ...statusOf(problem),
    detail: `${problem.detail}: the update may or may not have been applied`,
    advice: UNKNOWN_ADVICE,
    cause: problem.cause,
  });
}

function serialize(body: unknown): string {
  const text = JSON.stringify(body);
  if (!isRecord(body) || text === undefined) throw new TypeError('a PUT needs a JSON object body');
  return text;
}
