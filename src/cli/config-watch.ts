import { basename, dirname, join, resolve } from 'node:path';
import { CONFIG_FILE_NAMES } from '../fs-boundary.js';

/**
 * The paths whose appearing, changing or disappearing changes the project a command reads (readProject): with
 * `--config`, that file; otherwise each name config discovery looks for, in every folder from `cwd` up to the one
 * the config was found in (a nearer one would take its place), or up to the filesystem root when none was found
 * (one may be created anywhere discovery looks). Watched by name in their folders (one non-recursive watcher per
 * folder, events for other names ignored), never polled.
 */
export function configWatchFiles(
  cwd: string,
  explicit: string | undefined,
  found: string | undefined,
): string[] {
  if (explicit !== undefined) return [resolve(cwd, explicit)];
  const stopAt = found === undefined ? undefined : dirname(found);
  const files: string[] = [];
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    for (const name of CONFIG_FILE_NAMES) files.push(join(dir, name));
    if (dir === stopAt || dirname(dir) === dir) return files;
  }
}

/** Editors' backup, swap and probe files (hidden ones are skipped anyway): never a change that matters. */
export function isEditorArtefact(file: string): boolean {
  return /(~|\.swp|\.swx|\.tmp|\.bak)$|^#.*#$|^\d+$/.test(basename(file));
}

/** Whether a watch set's list (its roots, its config files) is the same as before: else the watcher restarts. */
export function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((item, i) => item === b[i]);
}
