/**
 * The result of `wfsync sync`, as the renderers read it. A copy of the types `src/apply/events.ts` exports (see the
 * issue's module APIs), declared here until that file lands; then this file becomes a re-export of them.
 */
import type { Diagnostic } from '../../diagnostic.js';
import type { FieldChange, Plan } from '../../plan/types.js';

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

export interface SyncItemResult {
  identifier: string;
  outcome: SyncOutcome;
  file?: string;
  remoteId?: string;
  message?: string;
  changes?: FieldChange[];
  diff?: string;
  diagnostics?: Diagnostic[];
  next?: string;
}

export interface SyncResult {
  plan: Plan;
  outcomes: SyncItemResult[];
  summary: Record<SyncOutcome, number>;
  interrupted: boolean;
  /** The exit code class: 'ok' | 'action-needed' (2) | 'failed' (1) | 'auth' (4) | 'rate-limited' (5). */
  status: 'ok' | 'action-needed' | 'failed' | 'auth' | 'rate-limited';
}
