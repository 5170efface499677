import { statSync } from 'node:fs';
import { toDisplayPath } from '../definitions/find.js';
import { WfsyncError } from '../errors.js';
import { writeOutput } from '../report/write-output.js';
import { type CommandContext, writeWfsyncError } from './context.js';
import { onInterrupt } from './interrupt.js';
import { type WatchOptions, watchPaths } from './watch-paths.js';

export interface RerunOptions extends Pick<WatchOptions, 'roots' | 'filter' | 'skipDirectory'> {
  /** One run, writing its own report. Its exit code is not the command's: watching ends only on Ctrl-C. */
  run: () => Promise<unknown>;
}

/**
 * `--watch`: run once, then again after every change, until Ctrl-C or SIGTERM (then resolve: exit 0). Nothing is
 * cleared: each rerun starts with a separator line holding the time and what changed, so earlier results stay in
 * the scrollback. A WfsyncError of the first run ends the command (a bad path or config); later ones are reported
 * and watching goes on, since the user is in the middle of editing.
 */
export async function runWatching(ctx: CommandContext, options: RerunOptions): Promise<void> {
  const controller = new AbortController();
  const restore = onInterrupt(() => controller.abort());
  const display = (path: string) => toDisplayPath(ctx.cwd, path);
  try {
    await options.run();
    if (controller.signal.aborted) return;
    const watched = options.roots
      .map((root) =>
        statSync(root, { throwIfNoEntry: false })?.isDirectory() ? `${display(root)}/` : display(root),
      )
      .join(', ');
    await watchPaths({
      roots: options.roots,
      filter: options.filter,
      ...(options.skipDirectory ? { skipDirectory: options.skipDirectory } : {}),
      signal: controller.signal,
      onReady: () => {
        void writeOutput(ctx.stderr, `watching ${watched} for changes (Ctrl-C to stop)\n`);
      },
      onChange: async (changed) => {
        await writeOutput(ctx.stdout, `\n${buildSeparator(new Date(), changed.map(display))}\n`);
        await options.run().catch(async (error: unknown) => {
          // What main() would print for it, without ending the command.
          if (!(error instanceof WfsyncError)) throw error;
          await writeWfsyncError(ctx, error);
        });
      },
      onError: (error, dir) => {
        void writeOutput(ctx.stderr, `wfsync: cannot watch ${display(dir)}: ${error.message}\n`);
      },
    });
  } finally {
    restore();
  }
}

/** `── 14:03:07 · workflows/a.yaml, workflows/b.yaml ──` (local time; at most three paths named). */
export function buildSeparator(time: Date, changed: readonly string[]): string {
  const clock = [time.getHours(), time.getMinutes(), time.getSeconds()]
    .map((n) => String(n).padStart(2, '0'))
    .join(':');
  const shown = changed.slice(0, 3).join(', ');
  const what = changed.length > 3 ? `${shown} and ${changed.length - 3} more` : shown;
  return `── ${clock} · ${what} ──`;
}
