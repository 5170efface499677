import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildGitlabFiles } from '../scaffold/ci/gitlab.js';
import { buildGithubWorkflows } from '../scaffold/ci/index.js';
import { plural } from '../text.js';
import { ok, warn } from './results.js';
import type { CheckResult } from './types.js';

/**
 * The CI recipe files `wfsync init` wrote beside the config (GitHub workflows, the GitLab pipeline and its note
 * script), against what this wfsync writes: a file that differs was edited by hand or written by another version.
 * A warning, never a failure: an edit may be deliberate.
 */
export async function checkCiRecipes(root: string): Promise<CheckResult> {
  const recipes = [
    ...buildGithubWorkflows().map((file) => ({ ...file, flag: 'github' })),
    ...buildGitlabFiles().map((file) => ({ ...file, flag: 'gitlab' })),
  ];
  const found = await Promise.all(
    recipes.map(async (recipe) => ({
      ...recipe,
      current: await readFile(join(root, recipe.path), 'utf8').catch(() => undefined),
    })),
  );
  const present = found.filter((recipe) => recipe.current !== undefined);
  if (present.length === 0) return ok('none written ("wfsync init --ci github|gitlab" writes them)');
  // A checkout with CRLF line endings (git autocrlf) holds the same file.
  const differ = present.filter((recipe) => recipe.current!.replace(/\r\n/g, '\n') !== recipe.text);
  if (differ.length === 0) return ok(`${plural(present.length, 'file')}, as this wfsync writes them`);
  const flags = [...new Set(differ.map((recipe) => recipe.flag))].join('|');
  return warn(
    `${differ.map((recipe) => recipe.path).join(', ')} ${differ.length === 1 ? 'differs' : 'differ'} from what this wfsync writes (edited by hand, or written by another version)`,
    `"wfsync init --ci ${flags} --force" rewrites ${differ.length === 1 ? 'it' : 'them'} (edits by hand are lost: compare first)`,
  );
}
