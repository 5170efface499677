import { clientEventsForProgress } from '../apply/workflow-context.js';
import type { ClientEvent } from '../remote/index.js';
import { sanitizeTerminalText } from '../report/terminal-text.js';
import type { CommandContext } from './context.js';
import { chooseProgressKind, createProgress, type Progress } from './progress/index.js';

export function progressFor(ctx: CommandContext, quiet: boolean | undefined): Progress {
  const kind = chooseProgressKind({ quiet: quiet === true, stream: ctx.stderr, env: ctx.env });
  return createProgress(kind, ctx.stderr);
}

/**
 * Where the API's log lines go: stderr, `wfsync: ` first, unless `--quiet` (then only with `--verbose`). The lines
 * carry text from the service: sanitised for the terminal.
 */
export function logListener(
  ctx: CommandContext,
  flags: { quiet?: boolean; verbose?: boolean },
): ((line: string) => void) | undefined {
  if (flags.quiet && !flags.verbose) return undefined;
  return (line) => ctx.stderr.write(`wfsync: ${sanitizeTerminalText(line)}\n`);
}

/** What the client's events feed: the progress display (when given), and with --verbose a request log on stderr. */
export function clientListener(
  ctx: CommandContext,
  verbose: boolean | undefined,
  progress?: Progress,
): ((event: ClientEvent) => void) | undefined {
  const toProgress = progress ? clientEventsForProgress(progress.onEvent) : undefined;
  const log = verbose ? verboseClientLog(ctx.stderr) : undefined;
  if (toProgress === undefined && log === undefined) return undefined;
  return (event) => {
    toProgress?.(event);
    log?.(event);
  };
}

/**
 * `--verbose`: one stderr line per client event (request, response, retry, wait, reconcile). Events carry method,
 * path, status and timings only — never headers, so never the API key.
 */
function verboseClientLog(stream: NodeJS.WritableStream): (event: ClientEvent) => void {
  const start = Date.now();
  return (event) => {
    const parts = [`+${((Date.now() - start) / 1000).toFixed(3)}s`, event.type, event.method, event.path];
    if (event.status !== undefined) parts.push(String(event.status));
    if (event.attempt !== undefined) parts.push(`attempt ${event.attempt}`);
    if (event.delayMs !== undefined) parts.push(`wait ${event.delayMs} ms`);
    if (event.reason) parts.push(`(${event.reason})`);
    stream.write(`wfsync: ${parts.join(' ')}\n`);
  };
}
