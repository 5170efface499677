import type { ApplyEvent } from '../../apply/events.js';
import { sanitizeTerminalText } from '../../report/terminal-text.js';
import { describeRow, phaseHeading } from './format.js';
import { PhaseTally } from './tally.js';
import type { Progress, ProgressStream } from './types.js';

/**
 * One line per event worth a line, for CI logs and pipes: phase headings, retries, notices, and one counted line
 * per finished workflow (`[3/12] order-shipped: created (id 65f…)`). Lookups are not listed one by one: the plan
 * reports each of them, and a 1,000-workflow fetch would bury the lines that matter.
 */
export function createPlainProgress(stream: ProgressStream): Progress {
  const tally = new PhaseTally();
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
