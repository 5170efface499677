/** Running a plan through the client: journaled creates, lookups, recovery of interrupted creates, events. */
export { type ApplyPlanInput, applyPlan } from './apply-plan.js';
export type { ApplyEvent, ApplyPhase, WorkflowStatus } from './events.js';
export { buildIdempotencyKey, lookupIdentifiersFor } from './idempotency.js';
export { type ReconcileInput, type ReconcileReport, reconcilePending } from './reconcile-pending.js';
export {
  SYNC_OUTCOMES,
  type SyncItemResult,
  type SyncOutcome,
  type SyncResult,
  type SyncStatus,
} from './result.js';
export type { ApplyStore } from './store.js';
export { clientEventsForProgress } from './workflow-context.js';
