/** What `sync` returns (SyncResult, for the report renderers), and how its summary and status are built. */
import type { Diagnostic } from '../diagnostic.js';
import type { FieldChange, Plan, PlanItem } from '../plan/types.js';

/** Every outcome of one workflow, in the order reports list them. */
export const SYNC_OUTCOMES = [
  'created',
  'in-sync',
  'drifted',
  'changed-locally',
  'missing-remotely',
  'conflict',
  'orphaned',
  'failed',
  'skipped',
] as const;

export type SyncOutcome = (typeof SYNC_OUTCOMES)[number];

/**
 * The exit-code class of a sync: `ok` (0), `action-needed` (6: drift, local changes, conflicts, missing, orphaned or
 * skipped workflows: a person must act), `failed` (1), `auth` (4), `rate-limited` (5). Orphaned entries count: the
 * API cannot delete them, so a person deletes them in the dashboard and forgets them (`wfsync state forget`).
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

/** Where a workflow is and what kind of difference its plan item found: the same fields, the same names. */
export type PlanItemDetails = Pick<PlanItem, 'file' | 'line' | 'endLine' | 'attribution' | 'diffKind'>;

export interface SyncItemResult extends PlanItemDetails {
  identifier: string;
  outcome: SyncOutcome;
  remoteId?: string;
  message?: string;
  changes?: FieldChange[];
  diff?: string;
  diagnostics?: Diagnostic[];
  /** What a person should do next, one sentence. */
  next?: string;
}

const DETAIL_KEYS = ['file', 'line', 'endLine', 'attribution', 'diffKind'] as const;

/**
 * `result` with the location and difference class of the plan item it executed (file, line and endLine of the first
 * change, attribution, diffKind), so a reader of a sync's outcome need not look them up in its plan. What the result
 * already says (a create's file) is kept.
 */
export function withPlanDetails(item: PlanItem, result: SyncItemResult): SyncItemResult {
  const details = Object.fromEntries(
    DETAIL_KEYS.filter((key) => item[key] !== undefined).map((key) => [key, item[key]]),
  ) as PlanItemDetails;
  return { ...details, ...result };
}

/** Exact count per outcome; every outcome is present. */
export function summarizeOutcomes(outcomes: readonly SyncItemResult[]): Record<SyncOutcome, number> {
  const summary = Object.fromEntries(SYNC_OUTCOMES.map((o) => [o, 0])) as Record<SyncOutcome, number>;
  for (const { outcome } of outcomes) summary[outcome]++;
  return summary;
}

const NEEDS_A_PERSON: readonly SyncOutcome[] = [
  'drifted',
  'changed-locally',
  'missing-remotely',
  'conflict',
  'orphaned',
  'skipped',
];

/**
 * A rejected key or an exhausted rate limit decides the status (they stopped the run); then any failure; then
 * anything a person must act on (see SyncStatus).
 */
export function buildSyncStatus(
  outcomes: readonly SyncItemResult[],
  stoppedBy: 'auth' | 'rate-limited' | undefined,
): SyncStatus {
  if (stoppedBy !== undefined) return stoppedBy;
  if (outcomes.some((o) => o.outcome === 'failed')) return 'failed';
  if (outcomes.some((o) => NEEDS_A_PERSON.includes(o.outcome))) return 'action-needed';
  return 'ok';
}
