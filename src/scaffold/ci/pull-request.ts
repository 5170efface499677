/**
 * `.github/workflows/wfsync-pr.yml`: on every pull request, validate (annotations on the diff, no warning let
 * through), then plan what merging would do on the real target through wfsync's action, which keeps ONE comment on
 * the pull request up to date with it (found by the plan's hidden marker), failed plans included, and fails the job
 * when a workflow needs a person (exit 6) or the plan failed; plan.json and plan.md are kept as an artifact. Pure.
 */
import { CI_API_KEY_ENV, CI_TARGET } from '../config-file.js';
import {
  expr,
  KEY_ENV,
  KEY_JOB,
  KEY_PRESENT,
  keyJob,
  PINNED_ACTIONS,
  setupSteps,
  uses,
  wfsyncStep,
} from './common.js';

export function buildPullRequestWorkflow(): string {
  return `# wfsync on pull requests (written by \`wfsync init\`), through wfsync's action.
# - validate: every definition, problems as annotations on the diff; a warning fails it too (max-warnings: 0), so
#   a typo such as {{ammount}} never reaches the service. Needs no secret, so forks are checked too.
# - plan: what merging would do on the ${CI_TARGET} target, compared with the merge-base of this branch and the
#   base branch (wfsync reads GITHUB_BASE_REF; the checkout fetches the history for it). The action keeps one
#   comment on the pull request, updated in place by each push, with the plan (or why it failed), and plan.json,
#   plan.md and an HTML preview of each workflow to create or that differs (wfsync-previews/index.html) are the
#   artifact "wfsync-plan". The job passes on exit 0 (nothing to do) and 2 (merging creates what
#   the comment lists), and fails on 6 (a workflow needs a person: drifted, changed locally, conflict, missing
#   remotely or orphaned), naming the workflows, or any other code. Plan only reads (GET requests), but needs the
#   repository secret ${CI_API_KEY_ENV}; pull requests from forks get no secrets, so there the plan is skipped
#   with a note. (Do not switch to pull_request_target to get secrets: it would run the fork's code with them.)
name: wfsync (pull request)

on:
  pull_request:

permissions:
  contents: read

concurrency:
  group: wfsync-pr-${expr('github.event.pull_request.number')}
  cancel-in-progress: true

jobs:
  validate:
    name: validate definitions
    runs-on: ubuntu-latest
    steps:
${setupSteps()}
${wfsyncStep({ name: 'Validate', with: { command: 'validate', 'max-warnings': 0, args: '--report-unused-disable' } })}

${keyJob({
  level: 'notice',
  skipped: 'wfsync plan',
  why: 'Pull requests from forks get no secrets; the plan runs on branches of this repository.',
})}

  plan:
    name: plan against ${CI_TARGET}
    needs: [validate, ${KEY_JOB}]
    if: ${KEY_PRESENT}
    runs-on: ubuntu-latest
    permissions:
      contents: read
      pull-requests: write # the plan comment
${KEY_ENV}
    steps:
${setupSteps({ fullHistory: true })}
${wfsyncStep({ name: 'Plan', id: 'plan', with: { command: 'plan', target: CI_TARGET } })}
      - name: Upload the plan
        if: ${expr("!cancelled() && steps.plan.outputs.plan-file != ''")}
        ${uses(PINNED_ACTIONS.uploadArtifact)}
        with:
          name: wfsync-plan
          path: |
            ${expr('steps.plan.outputs.plan-file')}
            ${expr('steps.plan.outputs.markdown-file')}
            ${expr('steps.plan.outputs.previews-dir')}
`;
}
