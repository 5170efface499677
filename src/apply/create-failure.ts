import { type Diagnostic, FILE_START } from '../diagnostic.js';
import { messageOf } from '../errors.js';
import { commandLine, type RunContext } from '../plan/command-line.js';
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

/** The commands apply's advice names, exact for the run that gives it (plan/command-line.ts). */
export interface SyncAdvice {
  /** `run \`wfsync sync\` again`, with this run's target, config and state file. */
  again: string;
  /** `\`wfsync <command> <args…>\``, likewise. */
  cli: (command: string, ...args: string[]) => string;
}

export function buildSyncAdvice(run?: RunContext): SyncAdvice {
  const cli = (command: string, ...args: string[]) => `\`${commandLine(run, command, { args })}\``;
  return { again: `run ${cli('sync')} again`, cli };
}

/** What a failed `createWorkflow` call means for this workflow, the journal and the rest of the run. */
export function describeCreateFailure(
  error: unknown,
  identifier: string,
  file: string,
  advice: SyncAdvice = buildSyncAdvice(),
): CreateFailure {
  const base = { identifier, file };
  const AGAIN = advice.again;
  if (!(error instanceof RemoteError)) {
    // A bug, not the service: stop, and keep the journal entry since nobody knows what was sent.
    const message = `unexpected error while creating: ${messageOf(error)}; it stays in the journal and will be reconciled by the next run`;
    return { ...failedOutcome(base, message, AGAIN, 'unexpected'), keepPending: true };
  }
  const failed = (next: string, stop?: StopReason, message = error.message): CreateFailure => ({
    ...failedOutcome(base, message, next, stop),
    keepPending: false,
  });
  switch (error.kind) {
    case 'outcome-unknown': {
      const message = `the outcome is unknown; it stays in the journal and will be reconciled by the next run (${error.message})`;
      const next = `${AGAIN}: it looks the workflow up before creating anything`;
      return { ...failedOutcome(base, message, next), keepPending: true };
    }
    case 'validation': {
      const next = `fix the definition, then ${AGAIN}`;
      const rejected = failed(next, undefined, `the service rejected it: ${error.message}`);
      rejected.result.diagnostics = serviceDiagnostics(error, file);
      return rejected;
    }
    case 'auth':
      return failed(
        `check the API key of this target (only a Development-environment key can create), then ${AGAIN}`,
        'auth',
      );
    case 'rate-limited':
      return failed(`wait a minute, then ${AGAIN}`, 'rate-limited');
    case 'deadline':
      return failed(`${AGAIN} (or give it more time)`, 'deadline');
    case 'cancelled':
      return {
        result: { ...base, outcome: 'skipped', message: 'cancelled before it was sent', next: AGAIN },
        keepPending: false,
        stop: 'cancelled',
      };
    default:
      // The client re-sends only what provably did nothing and reports anything else as outcome-unknown,
      // so any other failure means the workflow was not created.
      return failed(`${AGAIN} (nothing was created)`);
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
