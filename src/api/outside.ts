import { existsSync } from 'node:fs';
import { relative } from 'node:path';
import type { CheckResult } from '../check/check-definitions.js';
import type { ProjectOptions } from '../config/project.js';
import { UsageError } from '../errors.js';

/** `k8s/deploy.yaml (outside workflowsDir (workflows) in wfsync.config.yaml)`: a given path, and why it is not read. */
export function outsidePath(outside: CheckResult['outside'][number], project: ProjectOptions): string {
  const why = {
    outside: `outside ${project.sources.describe}`,
    excluded: 'matched by exclude',
    config: 'the config file',
  };
  return `${outside.path} (${why[outside.why]})`;
}

/**
 * No folder `workflowsDir` names exists: a usage error a one-off run ends with, and that `validate --watch` reports
 * and goes on watching through (the folder, or a config naming another, may come).
 */
export class NoDefinitionFolders extends UsageError {}

/** Nothing to search: no folder `workflowsDir` names exists (a usage error, saying how to fix it). */
export function assertDefinitionFolders(project: ProjectOptions, cwd: string): void {
  if (project.sources.roots.some((root) => existsSync(root))) return;
  const where = Array.isArray(project.config?.config.workflowsDir)
    ? `no folder of ${project.sources.describe} exists`
    : `the workflows directory ${relative(cwd, project.workflowsDir) || '.'}/ does not exist`;
  throw new NoDefinitionFolders(
    `no workflow definitions: ${where} (create it, set workflowsDir in wfsync.config.yaml, or pass paths)`,
  );
}
