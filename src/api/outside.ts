import type { CheckResult } from '../check/check-definitions.js';
import type { ProjectOptions } from '../config/project.js';

/** `k8s/deploy.yaml (outside workflowsDir (workflows) in wfsync.config.yaml)`: a given path, and why it is not read. */
export function outsidePath(outside: CheckResult['outside'][number], project: ProjectOptions): string {
  const why = {
    outside: `outside ${project.sources.describe}`,
    excluded: 'matched by exclude',
    config: 'the config file',
  };
  return `${outside.path} (${why[outside.why]})`;
}
