import { SYNC_OUTCOMES, SYNC_STATUSES, type SyncResult } from '../apply/result.js';
import { EXIT_MEANINGS, ExitCode, worstExitCode } from '../exit-codes.js';
import { PLAN_ACTIONS } from '../plan/actions.js';
import type { Plan } from '../plan/types.js';

/**
 * The worst of the items' exit codes (plan/actions.ts): 1 when the service could not be asked about some; else 6
 * when a workflow needs a person (sync cannot settle it); else 2 when sync has something to create; else 0.
 */
export function planExitCode(plan: Plan): ExitCode {
  return worstExitCode(plan.items.map((item) => PLAN_ACTIONS[item.action].exitCode));
}

/** The sync's status as an exit code; interrupted with nothing worse wrong is a failure (1). */
export function syncExitCode(result: SyncResult): ExitCode {
  const code = SYNC_STATUSES[result.status];
  // Interrupted with nothing worse wrong still must not look like success, nor like a person's job alone.
  const interrupted = result.interrupted && (code === ExitCode.Ok || code === ExitCode.NeedsPerson);
  return interrupted ? ExitCode.Failure : code;
}

/** What a plan or sync document says of itself: its exit code, who needs a person, and what the code means. */
export interface Verdict {
  exitCode: ExitCode;
  /** The identifiers of the workflows a person must act on, in the document's order. */
  needsPerson: string[];
  meaning: string;
}

export function planVerdict(plan: Plan): Verdict {
  const exitCode = planExitCode(plan);
  const needsPerson = plan.items
    .filter((item) => PLAN_ACTIONS[item.action].needsPerson)
    .map((item) => item.identifier);
  return { exitCode, needsPerson, meaning: EXIT_MEANINGS[exitCode] };
}

export function syncVerdict(result: SyncResult): Verdict {
  const exitCode = syncExitCode(result);
  const needsPerson = result.outcomes
    .filter((outcome) => SYNC_OUTCOMES[outcome.outcome].needsPerson)
    .map((outcome) => outcome.identifier);
  return { exitCode, needsPerson, meaning: EXIT_MEANINGS[exitCode] };
}
