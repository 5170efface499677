import { clientEventsForProgress } from '../apply/workflow-context.js';
import type { ClientEvent, ServiceClient } from '../remote/index.js';
import type { CommandContext } from './context.js';
import { chooseProgressKind, createProgress, type Progress } from './progress/index.js';
import { verboseClientLog } from './verbose.js';

export function progressFor(ctx: CommandContext, quiet: boolean | undefined): Progress {
  const kind = chooseProgressKind({ quiet: quiet === true, stream: ctx.stderr, env: ctx.env });
  return createProgress(kind, ctx.stderr);
}

/** The client `plan` uses: any attempt to create is a bug, and fails loudly instead of reaching the service. */
export function readOnlyClient(client: ServiceClient): ServiceClient {
  return {
    getWorkflow: (id) => client.getWorkflow(id),
    createWorkflow: () =>
      Promise.reject(new Error('internal error: plan is read-only and must never create')),
    close: () => client.close(),
  };
}

/** What the client's events feed: the progress display, and with --verbose a request log on stderr. */
export function clientListener(
  ctx: CommandContext,
  progress: Progress,
  verbose: boolean | undefined,
): (event: ClientEvent) => void {
  const toProgress = clientEventsForProgress(progress.onEvent);
  const log = verbose ? verboseClientLog(ctx.stderr) : undefined;
  return (event) => {
    toProgress(event);
    log?.(event);
  };
}
