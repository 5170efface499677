import { RemoteError, type RemoteErrorKind } from '../remote/index.js';

/**
 * Failures that end the whole command rather than one workflow: a rejected key or an exhausted rate limit fail
 * every later request the same way, and a cancelled or timed-out command must stop asking.
 */
export type CommandEndingKind = Extract<RemoteErrorKind, 'auth' | 'rate-limited' | 'cancelled' | 'deadline'>;

const COMMAND_ENDING: ReadonlySet<RemoteErrorKind> = new Set([
  'auth',
  'rate-limited',
  'cancelled',
  'deadline',
]);

export function commandEndingKind(error: unknown): CommandEndingKind | undefined {
  return error instanceof RemoteError && COMMAND_ENDING.has(error.kind)
    ? (error.kind as CommandEndingKind)
    : undefined;
}

export function endsCommand(error: unknown): boolean {
  return commandEndingKind(error) !== undefined;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
