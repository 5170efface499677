import type { ApplyEvent, ApplyPhase } from '../../apply/events.js';
import { sanitizeTerminalText } from '../../report/terminal-text.js';
import { plural } from '../../text.js';
import { describeRow, PhaseTally, type Progress } from './tally.js';
import { createTtyProgress, type TtyProgressOptions } from './tty.js';

export type { Progress } from './tally.js';

export type ProgressKind = 'tty' | 'plain' | 'quiet';

/**
 * A progress display for ApplyEvents: listr2 rows on a terminal, one line per event in CI or a pipe, nothing with
 * `--quiet`. It shows work in flight only; the result (summary, diffs) is the report's job.
 */
export function createProgress(
  kind: ProgressKind,
  stream: NodeJS.WritableStream,
  options: TtyProgressOptions = {},
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

/**
 * One line per event worth a line, for CI logs and pipes: phase headings, retries, notices, and one counted line
 * per finished workflow (`[3/12] order-shipped: created (id 65f…)`). Lookups are not listed one by one: the plan
 * reports each of them, and a 1,000-workflow fetch would bury the lines that matter.
 */
function createPlainProgress(stream: NodeJS.WritableStream): Progress {
  const tally = new PhaseTally();
  // One event, one line (a message's line breaks shown as symbols); the stream's channel does the rest.
  const write = (line: string) => {
    stream.write(`${sanitizeTerminalText(line)}\n`);
  };
  return {
    onEvent(event: ApplyEvent) {
      if (event.type === 'notice') {
        write(event.message);
        return;
      }
      const finished = tally.apply(event);
      if (event.type === 'phase') {
        const heading = phaseHeading(event.phase, event.total);
        if (heading !== undefined) write(heading);
        return;
      }
      if (event.status === 'retrying') {
        const row = tally.running.get(event.identifier);
        if (row !== undefined) write(`  ${describeRow(row)}`);
        return;
      }
      if (finished === undefined || tally.phase === 'fetch') return;
      const count =
        tally.total === undefined ? `[${finished.ordinal}]` : `[${finished.ordinal}/${tally.total}]`;
      const { identifier, message } = finished.row;
      if (finished.outcome === undefined) {
        write(`${count} ${identifier}: ${message ?? 'done'}`);
        return;
      }
      write(`${count} ${identifier}: ${finished.outcome}${message === undefined ? '' : ` (${message})`}`);
    },
    async done() {},
  };
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
    case 'update':
      return total === undefined ? 'updating workflows' : `updating ${plural(total, 'workflow')}`;
    default:
      return undefined;
  }
}
