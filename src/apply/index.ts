/** Running a plan through the client: journaled creates, lookups, recovery of interrupted creates, progress. */
export { type ApplyPlanInput, applyPlan } from './apply-plan.js';
export {
  type ApplyEvent,
  type ApplyPhase,
  SYNC_OUTCOMES,
  type SyncItemResult,
  type SyncOutcome,
  type SyncResult,
  type SyncStatus,
  type WorkflowStatus,
} from './events.js';
export { buildIdempotencyKey, lookupIdentifiersFor } from './idempotency.js';
export {
  chooseProgressKind,
  createProgress,
  type Progress,
  type ProgressKind,
  type ProgressOptions,
} from './progress/index.js';
export { type ReconcileInput, type ReconcileReport, reconcilePending } from './reconcile-pending.js';
export type { ApplyStore } from './store.js';
export { clientEventsForProgress } from './workflow-context.js';
