import type { ApplyEvent } from '../../apply/events.js';
import { createPlainProgress } from './plain.js';
import { createTtyProgress, type TtyProgressOptions } from './tty.js';
import type { Progress } from './types.js';

export type { Progress, ProgressStream } from './types.js';
export type ProgressKind = 'tty' | 'plain' | 'quiet';
export type ProgressOptions = TtyProgressOptions;

/**
 * A progress display for ApplyEvents: listr2 rows on a terminal, one line per event in CI or a pipe, nothing with
 * `--quiet`. It shows work in flight only; the result (summary, diffs) is the report's job.
 */
export function createProgress(
  kind: ProgressKind,
  stream: NodeJS.WritableStream,
  options: ProgressOptions = {},
): Progress {
  if (kind === 'tty') return createTtyProgress(stream, options);
  if (kind === 'plain') return createPlainProgress(stream);
  return { onEvent(_event: ApplyEvent) {}, async done() {} };
}

/** `quiet` when asked; `plain` in CI, on a dumb terminal or when the stream is not a terminal; else `tty`. */
export function chooseProgressKind(input: {
  quiet: boolean;
  stream: { isTTY?: boolean };
  env: Readonly<Record<string, string | undefined>>;
}): ProgressKind {
  if (input.quiet) return 'quiet';
  const ci = input.env.CI !== undefined && input.env.CI !== '' && input.env.CI !== 'false';
  if (ci || input.env.TERM === 'dumb' || input.stream.isTTY !== true) return 'plain';
  return 'tty';
}
