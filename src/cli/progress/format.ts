import type { ApplyPhase } from '../../apply/events.js';
import { plural } from '../../text.js';
import type { Row } from './tally.js';

export function formatDelay(ms: number): string {
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

/** What a phase is doing, for a heading line; undefined for phases too short to mention. */
export function phaseHeading(phase: ApplyPhase, total: number | undefined): string | undefined {
  switch (phase) {
    case 'reconcile':
      return total ? `checking ${plural(total, 'interrupted create')}` : undefined;
    case 'fetch':
      return total === undefined ? 'looking up workflows' : `looking up ${plural(total, 'workflow')}`;
    case 'create':
      return total === 0
        ? 'nothing to create'
        : total === undefined
          ? 'creating workflows'
          : `creating ${plural(total, 'workflow')}`;
    default:
      return undefined;
  }
}
