import { type ProjectOptions, readProject } from '../../config/project.js';
import { UsageError, WfsyncError } from '../../errors.js';
import { ExitCode } from '../../exit-codes.js';
import { startPreviewServer } from '../../preview/server.js';
import { PreviewStore } from '../../preview/store.js';
import { writeOutput } from '../../report/write-output.js';
import { configWatchFiles, isEditorArtefact, sameList } from '../config-watch.js';
import { type CommandContext, handOverToNodeStreams, writeWfsyncError } from '../context.js';
import { onInterrupt } from '../interrupt.js';
import { watchPaths } from '../watch-paths.js';
import type { PreviewFlags } from './preview-flags.js';

export const DEFAULT_PREVIEW_PORT = 4777;

/**
 * `wfsync preview --serve`: load every definition (broken ones too: the page shows their errors), serve the page on
 * 127.0.0.1, and on every change re-check what the change touches and tell the open pages (SSE), until Ctrl-C.
 */
export async function runPreviewServe(
  ctx: CommandContext,
  args: string[],
  flags: PreviewFlags,
): Promise<number> {
  const refused = (['step', 'payload', 'subscriber', 'events', 'preview', 'out'] as const).filter(
    (flag) => flags[flag] !== undefined,
  );
  if (refused.length > 0 || flags.format !== 'human')
    throw new UsageError(
      `--serve takes no ${refused.length > 0 ? `--${refused[0]}` : '--format'}: the page has its own payload editor and step list`,
    );
  // It serves until Ctrl-C: a reader that stops reading must not stop it.
  handOverToNodeStreams(ctx);
  // 1. Config and the definitions, as they are (the page shows broken files in place).
  const project = readProject(flags, ctx.cwd);
  const store = new PreviewStore({ cwd: ctx.cwd, project, paths: args });
  await store.load();
  if (!store.hasFolders)
    await writeOutput(
      ctx.stderr,
      `wfsync preview: no folder of ${project.sources.describe} exists yet: the page fills in when one comes, or a ` +
        'config file naming another\n',
    );
  // 2. The page on loopback (a port in use: exit 64, naming it).
  const server = await startPreviewServer({
    store,
    port: flags.port ?? DEFAULT_PREVIEW_PORT,
    allowImages: flags.allowImages === true,
  });
  const controller = new AbortController();
  const restore = onInterrupt(() => controller.abort());
  try {
    // Said once the first watchers are in place: a save made after this line is seen.
    let announced = false;
    const announce = () => {
      if (announced) return;
      announced = true;
      void writeOutput(
        ctx.stderr,
        `wfsync preview: ${store.list().length} workflows on ${server.url} (loopback only; Ctrl-C to stop)\n`,
      );
    };
    // 3. Live: a short quiet time, since a save is one burst of events and the page waits on it. A config file that
    //    comes, changes or goes (where discovery looks, or the --config file) reloads the project (severities,
    //    workflowsDir); when what is watched changes, so does the watcher.
    const watchSet = () => {
      const configFiles = configWatchFiles(ctx.cwd, flags.config, store.configFile);
      return { configFiles, roots: [...new Set([...store.roots, ...configFiles])] };
    };
    while (!controller.signal.aborted) {
      const { roots, configFiles } = watchSet();
      const isConfig = new Set(configFiles);
      const watching = new AbortController();
      const stop = () => watching.abort();
      controller.signal.addEventListener('abort', stop, { once: true });
      try {
        await watchPaths({
          roots,
          filter: (file) => !isEditorArtefact(file),
          signal: watching.signal,
          debounceMs: 10,
          onReady: announce,
          onChange: async (changed) => {
            if (changed.some((path) => isConfig.has(path))) {
              const project = await rereadProject(ctx, flags);
              if (project !== undefined) {
                server.notify(await store.reloadProject(project));
                if (!sameList(watchSet().roots, roots)) watching.abort();
                // Definitions saved in the same burst were checked again with the rest.
                return;
              }
            }
            server.notify(await store.refresh(changed));
          },
          onError: (error, dir) => {
            void writeOutput(ctx.stderr, `wfsync: cannot watch ${dir}: ${error.message}\n`);
          },
        });
      } finally {
        controller.signal.removeEventListener('abort', stop);
      }
    }
  } finally {
    restore();
    await server.close();
  }
  return ExitCode.Ok;
}

/**
 * The config as it is now, said on stderr; a config that no longer reads (invalid YAML, a bad rule) is reported and
 * the page keeps the one it has until it is fixed.
 */
async function rereadProject(ctx: CommandContext, flags: PreviewFlags): Promise<ProjectOptions | undefined> {
  try {
    const project = readProject(flags, ctx.cwd);
    await writeOutput(ctx.stderr, 'wfsync preview: the config changed: every workflow checked again\n');
    return project;
  } catch (error) {
    if (!(error instanceof WfsyncError)) throw error;
    await writeWfsyncError(ctx, error);
    await writeOutput(
      ctx.stderr,
      'wfsync preview: still serving with the config as it was; fix it and save again\n',
    );
    return undefined;
  }
}
