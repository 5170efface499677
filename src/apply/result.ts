import { SYNC_OUTCOMES, type SyncItemResult, type SyncOutcome, type SyncStatus } from './events.js';

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
  'skipped',
];

/**
 * A rejected key or an exhausted rate limit decides the status (they stopped the run); then any failure; then
 * anything a person must act on. Orphaned entries alone are `ok`: the API cannot delete them, and failing every
 * later CI sync over a deleted file would teach people to ignore the exit code.
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
