import type { ApplyEvent, ApplyPhase, WorkflowStatus } from '../../apply/events.js';
import type { SyncOutcome } from '../../apply/result.js';

/** A workflow being worked on, as the latest event left it. */
export interface Row {
  identifier: string;
  status: WorkflowStatus;
  message?: string;
  attempt?: number;
  delayMs?: number;
}

/**
 * Where the current phase stands: counts, outcomes, and the workflows in flight (at most the client's concurrency,
 * so a display built on it stays small for 1,000 workflows). Shared by the renderers.
 */
export class PhaseTally {
  phase: ApplyPhase | undefined;
  total: number | undefined;
  finished = 0;
  readonly outcomes = new Map<SyncOutcome, number>();
  readonly running = new Map<string, Row>();

  /** Fold one event in; returns the finished row for `done` events (with its ordinal in the phase). */
  apply(event: ApplyEvent): { row: Row; ordinal: number; outcome?: SyncOutcome } | undefined {
    if (event.type === 'phase') {
      this.phase = event.phase;
      this.total = event.total;
      this.finished = 0;
      this.outcomes.clear();
      this.running.clear();
      return undefined;
    }
    if (event.type !== 'workflow') return undefined;
    const row: Row = {
      identifier: event.identifier,
      status: event.status,
      ...(event.message === undefined ? {} : { message: event.message }),
      ...(event.attempt === undefined ? {} : { attempt: event.attempt }),
      ...(event.delayMs === undefined ? {} : { delayMs: event.delayMs }),
    };
    if (event.status !== 'done') {
      // Map.set on an existing key keeps its position: rows do not jump around as retries come in.
      this.running.set(event.identifier, row);
      return undefined;
    }
    this.running.delete(event.identifier);
    this.finished++;
    if (event.outcome !== undefined)
      this.outcomes.set(event.outcome, (this.outcomes.get(event.outcome) ?? 0) + 1);
    return {
      row,
      ordinal: this.finished,
      ...(event.outcome === undefined ? {} : { outcome: event.outcome }),
    };
  }
}
