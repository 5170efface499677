import type { ApplyEvent } from '../../apply/events.js';

/** A progress display: fed ApplyEvents while a command works, then awaited so its last lines are out. */
export interface Progress {
  onEvent(event: ApplyEvent): void;
  done(): Promise<void>;
}

/** Where progress goes (stderr in the CLI: stdout carries the result). */
export interface ProgressStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}
