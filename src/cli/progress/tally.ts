import type { ApplyEvent, ApplyPhase } from '../../apply/events.js';
import type { SyncOutcome } from '../../apply/result.js';

/** A progress display: fed ApplyEvents while a command works, then awaited so its last lines are out. */
export interface Progress {
  onEvent(event: ApplyEvent): void;
  done(): Promise<void>;
}

/** A workflow being worked on, as the latest event left it. */
export type Row = Pick<
  Extract<ApplyEvent, { type: 'workflow' }>,
  'identifier' | 'status' | 'message' | 'attempt' | 'delayMs'
>;

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
    const { identifier, status, message, attempt, delayMs } = event;
    const row: Row = { identifier, status, message, attempt, delayMs };
    if (event.status !== 'done') {
      // Map.set on an existing key keeps its position: rows do not jump around as retries come in.
      this.running.set(event.identifier, row);
      return undefined;
    }
    this.running.delete(event.identifier);
    this.finished++;
    if (event.outcome !== undefined)
      this.outcomes.set(event.outcome, (this.outcomes.get(event.outcome) ?? 0) + 1);
    return { row, ordinal: this.finished, outcome: event.outcome };
  }
}

function formatDelay(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)}ms` : `${(ms / 1000).toFixed(1)}s`;
}

/** `order-shipped: retrying (attempt 2 in 1.5s: 503 Service Unavailable)`, `order-shipped: creating`. */
export function describeRow(row: Row): string {
  if (row.status !== 'retrying')
    return `${row.identifier}: ${row.status}${row.message ? ` (${row.message})` : ''}`;
  const when = [
    row.attempt === undefined ? undefined : `attempt ${row.attempt}`,
    row.delayMs === undefined || row.delayMs <= 0 ? undefined : `in ${formatDelay(row.delayMs)}`,
  ]
    .filter((part) => part !== undefined)
    .join(' ');
  const details = [when, row.message].filter((part) => part !== undefined && part !== '').join(': ');
  return `${row.identifier}: retrying${details === '' ? '' : ` (${details})`}`;
}
