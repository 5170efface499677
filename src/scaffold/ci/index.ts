/** The GitHub Actions recipes `wfsync init --ci github` writes, by file name. Pure. */
import { CI_FILES } from './common.js';
import { buildDriftWorkflow } from './drift.js';
import { buildPullRequestWorkflow } from './pull-request.js';
import { buildSyncWorkflow } from './sync.js';

export const GITHUB_WORKFLOWS_DIR = '.github/workflows';

export function buildGithubWorkflows(): Array<{ path: string; text: string }> {
  return [
    { path: `${GITHUB_WORKFLOWS_DIR}/${CI_FILES.pullRequest}`, text: buildPullRequestWorkflow() },
    { path: `${GITHUB_WORKFLOWS_DIR}/${CI_FILES.sync}`, text: buildSyncWorkflow() },
    { path: `${GITHUB_WORKFLOWS_DIR}/${CI_FILES.drift}`, text: buildDriftWorkflow() },
  ];
}
