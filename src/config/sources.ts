/**
 * Where the project's definitions are: config `workflowsDir` (a folder, or a list of folders and glob patterns) and
 * `exclude`, turned into the DefinitionSources the file search (definitions/find.ts), the git base
 * (git/base-definitions.ts) and `--watch` all ask, so they agree on which file is a definition.
 */
import path from 'node:path';
import type picomatchType from 'picomatch';
import type { DefinitionSources, SourceClass } from '../definitions/find.js';
import { isWithin } from '../definitions/find.js';
import { onFirstUse } from '../derive/first-use.js';

/**
 * picomatch, loaded on first use: a plain folder (`workflows`, the default) needs none, and every `wfsync validate`
 * (a pre-commit hook's, on every commit) would otherwise pay for loading it.
 */
const picomatch = onFirstUse<typeof picomatchType>('picomatch');

/** Characters that make a pattern a glob for picomatch (a path without them is a plain folder or file). */
const GLOB_CHARACTER = /[*?[\]{}()!+@]/;

/** The folder a pattern's search starts from, and what must match below it (none for a plain folder). */
function splitPattern(pattern: string): { base: string; glob?: string } {
  if (!GLOB_CHARACTER.test(pattern)) return { base: pattern };
  const scanned = picomatch().scan(pattern);
  return scanned.isGlob ? { base: scanned.base || '.', glob: scanned.glob } : { base: pattern };
}

export const DEFAULT_WORKFLOWS_DIR = 'workflows';

export interface SourcesInput {
  /** Absolute: the config file's folder (the working directory without a config). Patterns are relative to it. */
  base: string;
  /** `workflowsDir` as written (default: `workflows`). */
  workflowsDir?: string | readonly string[];
  exclude?: readonly string[];
  /** Absolute paths of the config file(s): never a definition. */
  configFiles?: readonly string[];
  /** For messages: the config's display path. */
  configFile?: string;
}

/** One `workflowsDir` entry: the folder searched and, for a glob, what must match below it. */
interface Entry {
  root: string;
  /** Undefined for a plain folder: everything below it. */
  match?: (relative: string) => boolean;
}

/** Pure but for path arithmetic: the same input gives the same answers, whatever is on disk. */
export function buildDefinitionSources(input: SourcesInput): DefinitionSources {
  const { base } = input;
  const written = listOf(input.workflowsDir ?? DEFAULT_WORKFLOWS_DIR);
  const entries = written.map((pattern): Entry => {
    const { base: fixed, glob } = splitPattern(normalize(pattern));
    const root = path.resolve(base, fixed);
    return glob === undefined ? { root } : { root, match: picomatch()(glob) };
  });
  const excludes = (input.exclude ?? []).map((pattern) => picomatch()(normalize(pattern)));
  const configFiles = new Set(input.configFiles ?? []);
  const roots = [...new Set(entries.map((e) => e.root))]
    .filter((root, _, all) => !all.some((other) => other !== root && isWithin(root, other)))
    .sort();

  const excluded = (absolute: string): boolean => {
    if (excludes.length === 0) return false;
    const relative = toPosix(path.relative(base, absolute));
    return ancestorsAndSelf(relative).some((candidate) => excludes.some((m) => m(candidate)));
  };
  const classify = (absolute: string): SourceClass => {
    if (configFiles.has(absolute)) return 'config';
    const listed = entries.some(({ root, match }) => {
      if (!isWithin(absolute, root) || absolute === root) return false;
      const relative = toPosix(path.relative(root, absolute));
      // The search never enters hidden folders or node_modules: neither does a definition come from one.
      if (relative.split('/').some((s) => s.startsWith('.') || s === 'node_modules')) return false;
      return match === undefined || ancestorsAndSelf(relative).some((candidate) => match(candidate));
    });
    if (!listed) return 'outside';
    return excluded(absolute) ? 'excluded' : 'definition';
  };
  const plain =
    entries.every((e) => e.match === undefined) &&
    excludes.length === 0 &&
    ![...configFiles].some((file) => roots.some((root) => isWithin(file, root)));
  const shown = written.length === 1 ? written[0] : written.join(', ');
  return {
    roots,
    classify,
    excludes: excluded,
    plain,
    describe: `workflowsDir (${shown})${input.configFile ? ` in ${input.configFile}` : ''}`,
  };
}

/** The absolute folder new definitions go to: the first plain folder listed, else the first pattern's fixed part. */
export function firstFolder(base: string, workflowsDir: string | readonly string[] | undefined): string {
  const split = listOf(workflowsDir ?? DEFAULT_WORKFLOWS_DIR).map((p) => splitPattern(normalize(p)));
  return path.resolve(base, (split.find((s) => s.glob === undefined) ?? split[0]!).base);
}

/**
 * The plain folders `workflowsDir` lists (absolute, in its order): none when it lists only glob patterns, so that
 * no one folder is where a new definition belongs.
 */
export function plainFolders(base: string, workflowsDir: string | readonly string[] | undefined): string[] {
  return listOf(workflowsDir ?? DEFAULT_WORKFLOWS_DIR)
    .map((p) => splitPattern(normalize(p)))
    .filter((s) => s.glob === undefined)
    .map((s) => path.resolve(base, s.base));
}

function listOf(value: string | readonly string[]): readonly string[] {
  return typeof value === 'string' ? [value] : value;
}

/** `./a/b/` → `a/b`; `.` stays. */
function normalize(pattern: string): string {
  const trimmed = pattern.replace(/^(?:\.\/)+/, '').replace(/\/+$/, '');
  return trimmed === '' ? '.' : trimmed;
}

function toPosix(relative: string): string {
  return path.sep === '/' ? relative : relative.split(path.sep).join('/');
}

/** `a/b/c.yaml` → `a`, `a/b`, `a/b/c.yaml`: a pattern that matches a folder takes everything below it. */
function ancestorsAndSelf(relative: string): string[] {
  const parts = relative.split('/');
  return parts.map((_, i) => parts.slice(0, i + 1).join('/'));
}
