import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

/** The files of a test project: path (relative, `/`-separated) → content. */
export type ProjectFiles = Readonly<Record<string, string | Uint8Array>>;

/** Writes `files` under `dir`, making the folders they need. */
export function writeFiles(dir: string, files: ProjectFiles): void {
  for (const [file, content] of Object.entries(files)) {
    const target = path.join(dir, file);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
}

/**
 * A new temp directory holding `files`, its path resolved through symbolic links (macOS's /tmp is one), so paths
 * the program prints can be compared with it. Not removed: for a test file that cleans up, `useTempProjects`.
 */
export function tempProject(files: ProjectFiles = {}, prefix = 'wfsync-test-'): string {
  const dir = realpathSync(mkdtempSync(path.join(tmpdir(), prefix)));
  writeFiles(dir, files);
  return dir;
}

/**
 * `tempProject` for one test file: every project made is removed after each test. Call it at the top of the file
 * (its hook belongs to the file that calls it).
 */
export function useTempProjects(prefix: string): (files?: ProjectFiles) => string {
  const made: string[] = [];
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return (files = {}) => {
    const dir = tempProject(files, prefix);
    made.push(dir);
    return dir;
  };
}

/** Every file under `dir` (recursively) with its text: what a run left behind, for a test to search. */
export function readAllFiles(dir: string): Array<[string, string]> {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const file = path.join(entry.parentPath, entry.name);
      return [file, readFileSync(file, 'utf8')];
    });
}
