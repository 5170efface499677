/**
 * The file I/O of `wfsync init` and `wfsync new`: read what exists, find the schemas, write files so that a new
 * one never replaces a file that appeared meanwhile and a replaced one is never left half-written.
 */
import { existsSync } from 'node:fs';
import { mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { findUp } from '../config/project.js';
import { WfsyncError } from '../errors.js';
import { fsFailure, writeFileAtomically } from '../state/atomic-write.js';
import { PACKAGE_SCHEMA_PATH, REPO_SCHEMA_PATH } from './schema-ref.js';

/** Current text of each path (relative to `root`, `/` separators) that exists. */
export async function readExistingFiles(
  root: string,
  paths: readonly string[],
): Promise<Map<string, string>> {
  const existing = new Map<string, string>();
  for (const path of paths) {
    try {
      existing.set(path, await readFile(join(root, path), 'utf8'));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Absent (ENOTDIR: a parent is a file; writing there will say so).
      if (code === 'ENOENT' || code === 'ENOTDIR') continue;
      throw fsFailure(`read ${path}`, error);
    }
  }
  return existing;
}

/**
 * Writes `text` to `path` (relative to `root`). `create` fails rather than replace a file that exists by now;
 * `replace` swaps the file atomically (through a symbolic link to its target).
 */
export async function writeScaffoldFile(
  root: string,
  path: string,
  text: string,
  mode: 'create' | 'replace',
): Promise<void> {
  const absolute = join(root, path);
  const failed = (error: unknown) => fsFailure(`write ${path}`, error);
  if (mode === 'replace') {
    await writeFileAtomically(await realpath(absolute), text).catch((error: unknown) => {
      throw failed(error);
    });
    return;
  }
  // A parent that is a file makes mkdir fail with EEXIST too: only the file's own EEXIST means "appeared".
  await mkdir(dirname(absolute), { recursive: true }).catch((error: unknown) => {
    throw failed(error);
  });
  await writeFile(absolute, text, { encoding: 'utf8', flag: 'wx' }).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw failed(error);
    throw new WfsyncError(`${path} was created by something else meanwhile; nothing was written to it`);
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
