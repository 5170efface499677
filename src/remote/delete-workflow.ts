import { isRecord } from '../json.js';
import {
  type BodyRead,
  type InterpretContext,
  interpretResponse,
  interpretSuccess,
  type ProblemOutcome,
} from './interpret.js';
import { type Attempts, attempt, pauseBeforeRetry } from './retry.js';
import { type Call, failure, type Session } from './session.js';
import type { ReceivedResponse } from './transport.js';

/**
 * `DELETE /v1/workflows/{id}`: a soft delete on the service, answered `200 {data: true}`. Re-sent only when the
 * attempt provably did nothing (never sent, 429, 503 with Retry-After); any other failure throws, and the caller
 * reads the workflow again to know (a 404 then means it was deleted). Sending it twice is harmless anyway: the
 * service answers an id already deleted with 400 "Could not find workflow".
 */
export async function deleteWorkflow(session: Session, path: string): Promise<void> {
  const call: Call = { method: 'DELETE', path };
  const attempts: Attempts = { sent: 0, failed: 0 };
  for (;;) {
    attempts.sent++;
    const outcome = await attempt(session, call, attempts.sent, interpretDelete);
    if (outcome.type === 'ok') return;
    if (outcome.type === 'absent') throw new Error('unreachable: a DELETE is never "absent"');
    const { problem } = outcome;
    if (!problem.transient || problem.effect !== 'none') throw failure(session, call, problem);
    await pauseBeforeRetry(session, call, attempts, problem);
  }
}

type DeleteOutcome = { type: 'ok'; value: true } | { type: 'absent' } | ProblemOutcome;

/** `{data: true}` on 2xx; anything else as for a create (400 names why, 401 the key, 404 a missing route). */
function interpretDelete(response: ReceivedResponse, context: InterpretContext): DeleteOutcome {
  if (response.status >= 200 && response.status < 300) {
    return interpretSuccess<true>(response, context, {
      statuses: [200],
      effect: 'applied',
      quoteParseError: false,
      read: (body): BodyRead<true> =>
        isRecord(body) && body.data === true
          ? { value: true }
          : { problem: 'without the {data: true} the service answers a delete with' },
    });
  }
  const outcome = interpretResponse(response, context);
  if (outcome.type === 'ok') throw new Error('unreachable: a non-2xx answer is never ok');
  return outcome;
}
