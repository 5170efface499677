/**
 * What `sync` reports while it works, for progress displays. What it returns (SyncResult, for the report renderers)
 * is in result.ts: progress and results are separate, a renderer of one never needs the other.
 */
import type { SyncOutcome } from './result.js';

export type ApplyPhase = 'lock' | 'reconcile' | 'fetch' | 'plan' | 'create' | 'update' | 'verify' | 'done';

export type WorkflowStatus =
  | 'fetching'
  | 'creating'
  | 'updating'
  | 'deleting'
  | 'verifying'
  | 'retrying'
  | 'done';

export type ApplyEvent =
  /** `total`: how many workflows the phase will report a `done` event for (fetch, reconcile, create, update). */
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
