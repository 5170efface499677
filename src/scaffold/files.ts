/**
 * The file I/O of `wfsync init` and `wfsync new`: read what exists, find the schemas, write files so that a new
 * one never replaces a file that appeared meanwhile and a replaced one is never left half-written.
 */
import { existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { findUp } from '../config/project.js';
import { readProjectText } from '../definitions/read-capped.js';
import { WfsyncError } from '../errors.js';
import { assertNoLinks, BoundaryError, createFsBoundary } from '../fs-boundary.js';
import { fsFailure, writeFileAtomically } from '../state/atomic-write.js';

/** A file init or new reads to edit it (`.gitignore`, `.vscode/settings.json`) holds far less. */
const MAX_EXISTING_BYTES = 4 * 1024 * 1024;

import { type ModelineInput, PACKAGE_SCHEMA_PATH, REPO_SCHEMA_PATH } from './schema-ref.js';
import { SETTINGS_PATH, workflowSchemaGlobs } from './vscode-settings.js';

/**
 * Current text of each path (relative to `root`, `/` separators) that exists. Every path is one the command will
 * write: a symbolic link at it or on the way to it is refused here (a BoundaryError, exit 1), before anything is
 * written, rather than read through or written through.
 */
export async function readExistingFiles(
  root: string,
  paths: readonly string[],
): Promise<Map<string, string>> {
  const boundary = createFsBoundary(root);
  const existing = new Map<string, string>();
  for (const path of paths) {
    const absolute = join(root, path);
    assertNoLinks(absolute, boundary);
    try {
      existing.set(path, readProjectText(absolute, MAX_EXISTING_BYTES, boundary));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Absent (ENOTDIR: a parent is a file; writing there will say so).
      if (code === 'ENOENT' || code === 'ENOTDIR') continue;
      if (error instanceof BoundaryError) throw error;
      throw fsFailure(`read ${path}`, error);
    }
  }
  return existing;
}

/**
 * Writes `text` to `path` (relative to `root`) with the one writer (state/atomic-write.ts): never through a symbolic
 * link (a BoundaryError naming it), atomically. `create` fails rather than replace a file that exists by now;
 * `replace` swaps the file.
 */
export async function writeScaffoldFile(
  root: string,
  path: string,
  text: string,
  mode: 'create' | 'replace',
): Promise<void> {
  const options = { boundary: createFsBoundary(root), exclusive: mode === 'create' };
  await writeFileAtomically(join(root, path), text, options).catch((error: unknown) => {
    if (error instanceof BoundaryError) throw error;
    if (mode === 'create' && (error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new WfsyncError(`${path} was created by something else meanwhile; nothing was written to it`);
    }
    throw fsFailure(`write ${path}`, error);
  });
}

/**
 * Where the workflow schema is, relative to `root` with `/` separators: the repository's own copy
 * (`./schemas/…`), else the installed package (`node_modules/wfsync/schemas/…`, looked up like Node resolves
 * packages, so a monorepo's hoisted install is found), else where `npm install --save-dev wfsync` will put it.
 */
export function detectSchemaPath(root: string): string {
  if (existsSync(join(root, REPO_SCHEMA_PATH))) return REPO_SCHEMA_PATH;
  const installed = findUp(root, [PACKAGE_SCHEMA_PATH]);
  return installed === undefined ? PACKAGE_SCHEMA_PATH : toPosix(relative(root, installed));
}

export function toPosix(path: string): string {
  return sep === '/' ? path : path.split(sep).join('/');
}

/** The schema files a definition written at `path` (absolute) could name: see decideModeline (schema-ref.ts). */
export type SchemaFiles = Pick<ModelineInput, 'path' | 'root' | 'vendored' | 'installed'>;

/**
 * The schema files for a definition written at `path` (absolute): the repository's own copy, and the installed
 * package's, looked up from the file's folder upward as Node resolves packages (a monorepo's hoisted install too).
 */
export function findSchemaFiles(root: string, path: string): SchemaFiles {
  const vendored = join(root, REPO_SCHEMA_PATH);
  const installed = findUp(dirname(resolve(path)), [PACKAGE_SCHEMA_PATH]);
  return {
    path: toPosix(resolve(path)),
    root: toPosix(resolve(root)),
    vendored: existsSync(vendored) ? toPosix(resolve(vendored)) : undefined,
    installed: installed === undefined ? undefined : toPosix(installed),
  };
}

/** Everything decideModeline needs for a definition written at `path`, the project's editor settings included. */
export function readModelineInput(root: string, path: string): ModelineInput {
  return { ...findSchemaFiles(root, path), settingsGlobs: workflowSchemaGlobs(readSettings(root)) };
}

/** The project's `.vscode/settings.json`, read through the project boundary. */
function readSettings(root: string): string | undefined {
  try {
    return readProjectText(join(root, SETTINGS_PATH), MAX_EXISTING_BYTES, createFsBoundary(root));
  } catch {
    // Absent, a link, too large or unreadable: it maps nothing wfsync can rely on.
    return undefined;
  }
}
