/**
 * What `sync` reports while it works (ApplyEvent, for progress displays) and what it returns (SyncResult, for the
 * report renderers). Progress and results are separate: a renderer of one never needs the other.
 */
import type { Diagnostic } from '../diagnostic.js';
import type { FieldChange, Plan } from '../plan/types.js';

export type ApplyPhase = 'lock' | 'reconcile' | 'fetch' | 'plan' | 'create' | 'verify' | 'done';

export type WorkflowStatus = 'fetching' | 'creating' | 'verifying' | 'retrying' | 'done';

export type ApplyEvent =
  /** `total`: how many workflows the phase will report a `done` event for (fetch, reconcile, create). */
  | { type: 'phase'; phase: ApplyPhase; total?: number }
  | {
      type: 'workflow';
      identifier: string;
      status: WorkflowStatus;
      /** `done` events of the create phase only: fetch and reconcile `done` events have no sync outcome. */
      outcome?: SyncOutcome;
      message?: string;
      /** retrying: the attempt about to be made (2 for the first retry). */
      attempt?: number;
      /** retrying: how long the client waits before it. */
      delayMs?: number;
    }
  | { type: 'notice'; message: string };

export type SyncOutcome =
  | 'created'
  | 'in-sync'
  | 'drifted'
  | 'changed-locally'
  | 'missing-remotely'
  | 'conflict'
  | 'orphaned'
  | 'failed'
  | 'skipped';

/** Every outcome, in the order reports list them. */
export const SYNC_OUTCOMES: readonly SyncOutcome[] = [
  'created',
  'in-sync',
  'drifted',
  'changed-locally',
  'missing-remotely',
  'conflict',
  'orphaned',
  'failed',
  'skipped',
];

/**
 * The exit-code class of a sync: `ok` (0), `action-needed` (2: drift, local changes, conflicts, missing or
 * skipped workflows), `failed` (1), `auth` (4), `rate-limited` (5). Orphaned entries alone are `ok`: they cannot
 * be acted on through the API, so they are reported with a notice but do not fail CI on every later merge.
 */
export type SyncStatus = 'ok' | 'action-needed' | 'failed' | 'auth' | 'rate-limited';

export interface SyncResult {
  plan: Plan;
  /** One per plan item, in plan order. */
  outcomes: SyncItemResult[];
  /** Exact count per outcome (every outcome present, zeros included). */
  summary: Record<SyncOutcome, number>;
  /** The signal stopped creates from starting: some are `skipped`. */
  interrupted: boolean;
  status: SyncStatus;
}

export interface SyncItemResult {
  identifier: string;
  outcome: SyncOutcome;
  file?: string;
  remoteId?: string;
  message?: string;
  changes?: FieldChange[];
  diff?: string;
  diagnostics?: Diagnostic[];
  /** What a person should do next, one sentence. */
  next?: string;
}
