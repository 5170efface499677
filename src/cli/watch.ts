import { statSync } from 'node:fs';
import { toDisplayPath } from '../definitions/find.js';
import { WfsyncError } from '../errors.js';
import { writeOutput } from '../report/write-output.js';
import { sameList } from './config-watch.js';
import { type CommandContext, handOverToNodeStreams, writeWfsyncError } from './context.js';
import { onInterrupt } from './interrupt.js';
import { type WatchOptions, watchPaths } from './watch-paths.js';

/** What `--watch` watches, as the project is now. */
export interface WatchSet extends Pick<WatchOptions, 'roots' | 'filter' | 'skipDirectory'> {
  /**
   * Config files, present or not (configWatchFiles): one that comes, changes or goes re-reads the WatchSet, since
   * workflowsDir and exclude may have moved. Watched, not listed in the "watching …" line.
   */
  configFiles: readonly string[];
}

export interface RerunOptions {
  /** The WatchSet as the project is now; throws a WfsyncError when the config does not read. */
  watched: () => WatchSet;
  /** One run, writing its own report. Its exit code is not the command's: watching ends only on Ctrl-C. */
  run: () => Promise<unknown>;
}

/**
 * `--watch`: run once, then again after every change, until Ctrl-C or SIGTERM (then resolve: exit 0). Nothing is
 * cleared: each rerun starts with a separator line holding the time and what changed, so earlier results stay in
 * the scrollback. A WfsyncError of the first run ends the command (a bad path or config); later ones are reported
 * and watching goes on, since the user is in the middle of editing. After a config file came, changed or went, the
 * WatchSet is read again: new exclusions apply at once, and other roots or config places restart the watcher (the
 * "watching …" line is said again when what it names changed); a config that does not read keeps the set it had.
 */
export async function runWatching(ctx: CommandContext, options: RerunOptions): Promise<void> {
  // It runs until Ctrl-C: a reader that stops reading must not stop it.
  handOverToNodeStreams(ctx);
  const controller = new AbortController();
  const restore = onInterrupt(() => controller.abort());
  const display = (path: string) => toDisplayPath(ctx.cwd, path);
  const describe = (roots: readonly string[]) =>
    roots
      .map((root) =>
        statSync(root, { throwIfNoEntry: false })?.isDirectory() ? `${display(root)}/` : display(root),
      )
      .join(', ');
  try {
    await options.run();
    if (controller.signal.aborted) return;
    let set = options.watched();
    let said = '';
    while (!controller.signal.aborted) {
      const watching = new AbortController();
      const stop = () => watching.abort();
      controller.signal.addEventListener('abort', stop, { once: true });
      const { roots, configFiles } = set;
      const isConfig = new Set(configFiles);
      try {
        await watchPaths({
          roots: [...new Set([...roots, ...configFiles])],
          // The current set's: an edited exclude applies without a restart.
          filter: (file) => set.filter(file),
          skipDirectory: (dir) => set.skipDirectory?.(dir) ?? false,
          signal: watching.signal,
          onReady: () => {
            const watched = describe(roots);
            if (watched === said) return;
            said = watched;
            void writeOutput(ctx.stderr, `watching ${watched} for changes (Ctrl-C to stop)\n`);
          },
          onChange: async (changed) => {
            await writeOutput(ctx.stdout, `\n${buildSeparator(new Date(), changed.map(display))}\n`);
            await options.run().catch(async (error: unknown) => {
              // What main() would print for it, without ending the command.
              if (!(error instanceof WfsyncError)) throw error;
              await writeWfsyncError(ctx, error);
            });
            if (!changed.some((path) => isConfig.has(path))) return;
            try {
              set = options.watched();
            } catch (error) {
              // The run just reported it: watching goes on as before until the config reads again.
              if (!(error instanceof WfsyncError)) throw error;
              return;
            }
            if (!sameList(set.roots, roots) || !sameList(set.configFiles, configFiles)) watching.abort();
          },
          onError: (error, dir) => {
            void writeOutput(ctx.stderr, `wfsync: cannot watch ${display(dir)}: ${error.message}\n`);
          },
        });
      } finally {
        controller.signal.removeEventListener('abort', stop);
      }
    }
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
