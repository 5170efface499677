import { type Diagnostic, FILE_START } from '../diagnostic.js';
import { messageOf } from '../errors.js';
import { RemoteError } from '../remote/index.js';
import type { SyncItemResult } from './result.js';

/** Why no further create may start. */
export type StopReason =
  | 'auth'
  | 'rate-limited'
  | 'deadline'
  | 'cancelled'
  | 'interrupted'
  | 'state'
  | 'unexpected';

/** What became of one workflow, and whether no further create may start. */
export interface ItemOutcome {
  result: SyncItemResult;
  stop?: StopReason;
}

export interface CreateFailure extends ItemOutcome {
  /** Whether the journal entry must stay: the workflow may have been created. */
  keepPending: boolean;
}

/** A failed workflow (with what to do next, when there is something), stopping the run when `stop` is given. */
export function failedOutcome(
  base: Omit<SyncItemResult, 'outcome' | 'message' | 'next'>,
  message: string,
  next?: string,
  stop?: StopReason,
): ItemOutcome {
  const result: SyncItemResult = {
    ...base,
    outcome: 'failed',
    message,
    ...(next === undefined ? {} : { next }),
  };
  return stop === undefined ? { result } : { result, stop };
}

export const AGAIN = 'run `wfsync sync` again';

/** What a failed `createWorkflow` call means for this workflow, the journal and the rest of the run. */
export function describeCreateFailure(error: unknown, identifier: string, file: string): CreateFailure {
  const base = { identifier, file };
  if (!(error instanceof RemoteError)) {
    // A bug, not the service: stop, and keep the journal entry since nobody knows what was sent.
    return {
      result: {
        ...base,
        outcome: 'failed',
        message: `unexpected error while creating: ${messageOf(error)}; it stays in the journal and will be reconciled by the next run`,
        next: AGAIN,
      },
      keepPending: true,
      stop: 'unexpected',
    };
  }
  const failed = (next: string, extra: Partial<SyncItemResult> = {}): SyncItemResult => ({
    ...base,
    outcome: 'failed',
    message: error.message,
    next,
    ...extra,
  });
  switch (error.kind) {
    case 'outcome-unknown':
      return {
        result: failed(`${AGAIN}: it looks the workflow up before creating anything`, {
          message: `the outcome is unknown; it stays in the journal and will be reconciled by the next run (${error.message})`,
        }),
        keepPending: true,
      };
    case 'validation':
      return {
        result: failed('fix the definition, then run `wfsync sync` again', {
          message: `the service rejected it: ${error.message}`,
          diagnostics: serviceDiagnostics(error, file),
        }),
        keepPending: false,
      };
    case 'auth':
      return {
        result: failed(
          `check the API key of this target (only a Development-environment key can create), then ${AGAIN}`,
        ),
        keepPending: false,
        stop: 'auth',
      };
    case 'rate-limited':
      return { result: failed(`wait a minute, then ${AGAIN}`), keepPending: false, stop: 'rate-limited' };
    case 'deadline':
      return { result: failed(`${AGAIN} (or give it more time)`), keepPending: false, stop: 'deadline' };
    case 'cancelled':
      return {
        result: { ...base, outcome: 'skipped', message: 'cancelled before it was sent', next: AGAIN },
        keepPending: false,
        stop: 'cancelled',
      };
    default:
      // The client re-sends only what provably did nothing and reports anything else as outcome-unknown,
      // so any other failure means the workflow was not created.
      return { result: failed(`${AGAIN} (nothing was created)`), keepPending: false };
  }
}

/** The service's own messages, as Diagnostics on the definition (line 1: apply has no positions). */
export function serviceDiagnostics(error: RemoteError, file: string): Diagnostic[] {
  const messages = error.serverMessages.length > 0 ? error.serverMessages : [error.message];
  return messages.map((message) => ({
    code: 'service-rejected',
    severity: 'error',
    message: `the service rejected this workflow: ${message}`,
    file,
    pointer: '',
    ...FILE_START,
  }));
}

const NOT_ATTEMPTED: Record<StopReason, string> = {
  auth: 'the service rejected the API key',
  'rate-limited': "the service's rate limit ran out",
  deadline: "the command's deadline passed",
  state: 'the state file could not be written, so a create could not be journaled',
  unexpected: 'an unexpected error stopped the run',
  cancelled: 'sync was interrupted',
  interrupted: 'sync was interrupted',
};

/** The message of a create that was never started. */
export function skippedMessage(reason: StopReason): string {
  return `not attempted: ${NOT_ATTEMPTED[reason]}`;
}
