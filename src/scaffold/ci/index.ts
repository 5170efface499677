/** The GitHub Actions recipes `wfsync init --ci github` writes, by file name. Pure. */
import { buildDriftWorkflow } from './drift.js';
import { buildPullRequestWorkflow } from './pull-request.js';
import { buildSyncWorkflow } from './sync.js';

export function buildGithubWorkflows(): Array<{ path: string; text: string }> {
  return [
    { path: '.github/workflows/wfsync-pr.yml', text: buildPullRequestWorkflow() },
    { path: '.github/workflows/wfsync-sync.yml', text: buildSyncWorkflow() },
    { path: '.github/workflows/wfsync-drift.yml', text: buildDriftWorkflow() },
  ];
}
