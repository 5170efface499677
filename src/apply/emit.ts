import type { ApplyEvent } from './events.js';

/** An event sink that swallows its listener's errors: a broken progress display must not break a sync half-way. */
export function guardedEmitter(
  onEvent: ((event: ApplyEvent) => void) | undefined,
): (event: ApplyEvent) => void {
  return (event) => {
    try {
      onEvent?.(event);
    } catch {
      // ignored: progress is advisory
    }
  };
}
