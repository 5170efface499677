import { type ClientEvent, currentWorkflow } from '../remote/index.js';
import type { ApplyEvent } from './events.js';

/** Waits shorter than this are the client pacing itself: not worth a line. */
const NOTABLE_WAIT_MS = 1000;

/**
 * A ClientEvent listener for the client the CLI creates, turning retries, lost-response lookups and long
 * rate-limit waits into ApplyEvents attributed to the workflow being worked on.
 */
export function clientEventsForProgress(onEvent: (event: ApplyEvent) => void): (event: ClientEvent) => void {
  return (event) => {
    const identifier = currentWorkflow() ?? identifierInPath(event);
    if (event.type === 'retry' || event.type === 'reconcile') {
      const why = event.reason ?? (event.status === undefined ? 'retrying' : `HTTP ${event.status}`);
      const message = event.type === 'reconcile' ? `${why}; checking whether it was created` : why;
      if (identifier === undefined) {
        onEvent({ type: 'notice', message: `${event.method} ${event.path}: ${message}` });
        return;
      }
      onEvent({
        type: 'workflow',
        identifier,
        status: 'retrying',
        message,
        ...(event.attempt === undefined ? {} : { attempt: event.attempt }),
        ...(event.delayMs === undefined ? {} : { delayMs: event.delayMs }),
      });
      return;
    }
    if (event.type === 'wait' && (event.delayMs ?? 0) >= NOTABLE_WAIT_MS) {
      const seconds = ((event.delayMs ?? 0) / 1000).toFixed(1);
      const who = identifier === undefined ? '' : ` (${identifier})`;
      onEvent({ type: 'notice', message: `waiting ${seconds}s for the service's rate limit${who}` });
    }
  };
}

/** Outside apply (a lone GET): the last path segment, which is the identifier or id asked for. */
function identifierInPath(event: ClientEvent): string | undefined {
  if (event.method !== 'GET') return undefined;
  const segment = event.path.slice(event.path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(segment) || undefined;
  } catch {
    return segment;
  }
}
