/**
 * `plan --previews <dir>`: the plan artifact's HTML previews, one per created or differing workflow and an index,
 * written into `dir` only (each name a slug the builder made, checked again here), with the one writer that never
 * goes through a symbolic link (state/atomic-write.ts). Nothing else in `dir` is touched.
 */
import { isAbsolute, join, resolve } from 'node:path';
import { WfsyncError } from '../errors.js';
import { createFsBoundary, isInside, shownPath } from '../fs-boundary.js';
import { serviceDefinition } from '../plan/rendered-changes.js';
import type { DesiredWorkflow, Plan } from '../plan/types.js';
import { buildPreviewFiles, type PreviewSource } from '../report/plan/preview-files.js';
import { fsFailure, writeFileAtomically } from '../state/atomic-write.js';

/** What a preview file may be called: the builder's slugs, nothing that could leave the directory. */
const FILE_NAME = /^[a-z0-9][a-z0-9-]*\.html$/;

/** Writes the previews; returns how many workflow files (the index not counted) and the directory as shown. */
export async function writePlanPreviews(
  dir: string,
  plan: Plan,
  desired: readonly DesiredWorkflow[],
  cwd: string,
): Promise<{ count: number; shown: string }> {
  const root = resolve(cwd, dir);
  const files = buildPreviewFiles(previewSources(plan, desired));
  const boundary = createFsBoundary(cwd);
  for (const file of files) {
    const path = join(root, file.name);
    if (!FILE_NAME.test(file.name) || !isInside(root, path) || isAbsolute(file.name))
      throw new WfsyncError(`refusing to write the preview "${file.name}": not a plain file name`);
    await writeFileAtomically(path, file.text, { boundary }).catch((error: unknown) => {
      if (error instanceof WfsyncError) throw error;
      throw fsFailure(`write ${shownPath(cwd, path)}`, error);
    });
  }
  return { count: files.length - 1, shown: shownPath(cwd, root) };
}

/** Creates, and differing workflows whose file's version is known, in the plan's order. */
export function previewSources(plan: Plan, desired: readonly DesiredWorkflow[]): PreviewSource[] {
  const byKey = new Map(desired.map((d) => [`${d.file}\0${d.identifier}`, d]));
  const sources: PreviewSource[] = [];
  for (const item of plan.items) {
    const wanted = byKey.get(`${item.file ?? ''}\0${item.identifier}`);
    if (wanted === undefined) continue;
    const base = {
      identifier: item.identifier,
      file: wanted.file,
      action: item.action,
      workflow: wanted.definition,
    };
    if (item.action === 'create') sources.push(base);
    else if (item.changes.length > 0) {
      const service = serviceDefinition(wanted.definition, item.changes);
      sources.push(service === undefined ? base : { ...base, service });
    }
  }
  return sources;
}
