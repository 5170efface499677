/**
 * `.github/workflows/wfsync-pr.yml`: on every pull request, validate (annotations on the diff), then plan against
 * the real target and keep ONE comment on the pull request up to date with it (found by the plan's hidden
 * marker), with plan.json as an artifact. Pure.
 */
import { prCommentMarker } from '../../report/plan/markdown.js';
import { CI_API_KEY_ENV, CI_TARGET } from '../config-file.js';
import { expr, KEY_ENV, KEY_JOB, KEY_PRESENT, keyJob, SETUP_STEPS } from './common.js';

/** The script actions/github-script runs: update the earlier plan comment, or create one when there are changes. */
export function buildCommentScript(marker: string): string {
  return `const fs = require('node:fs');
const body = fs.readFileSync('plan.md', 'utf8');
const marker = ${JSON.stringify(marker)};
const { owner, repo } = context.repo;
const issue_number = context.issue.number;
const comments = await github.paginate(github.rest.issues.listComments, { owner, repo, issue_number, per_page: 100 });
// Only our own comment: anyone can post a comment that contains the marker.
const previous = comments.find((c) => c.user?.login === 'github-actions[bot]' && c.body?.includes(marker));
if (previous) {
  await github.rest.issues.updateComment({ owner, repo, comment_id: previous.id, body });
} else if (process.env.PLAN_EXIT_CODE === '2') {
  await github.rest.issues.createComment({ owner, repo, issue_number, body });
} else {
  core.info('No changes and no earlier plan comment: nothing to post.');
}`;
}

export function buildPullRequestWorkflow(): string {
  const script = buildCommentScript(prCommentMarker(CI_TARGET))
    .split('\n')
    .map((line) => (line === '' ? '' : `            ${line}`))
    .join('\n');
  return `# wfsync on pull requests (written by \`wfsync init\`).
# - validate: every definition, problems as annotations on the diff. Needs no secret, so forks are checked too.
# - plan: what merging would change on the ${CI_TARGET} target, as one comment on the pull request that each push
#   updates in place, and plan.json + plan.md as the artifact "wfsync-plan". Plan only reads (GET requests), but
#   needs the repository secret ${CI_API_KEY_ENV}; pull requests from forks get no secrets, so there
#   the plan is skipped with a note. (Do not switch to pull_request_target to get secrets: it would run the
#   fork's code with them.)
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
${SETUP_STEPS}
      - run: npx wfsync validate --format github

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
      pull-requests: write
${KEY_ENV}
    steps:
${SETUP_STEPS}
      - name: Plan
        id: plan
        run: |
          # Exit 2 means "there are changes": the comment shows them. Any other non-zero code fails the job.
          code=0
          npx wfsync plan --target ${CI_TARGET} --format markdown --out plan.json > plan.md || code=$?
          echo "exit-code=$code" >> "$GITHUB_OUTPUT"
          if [ "$code" -ne 0 ] && [ "$code" -ne 2 ]; then exit "$code"; fi
      - name: Upload the plan
        uses: actions/upload-artifact@v4
        with:
          name: wfsync-plan
          path: |
            plan.json
            plan.md
      - name: Comment on the pull request
        uses: actions/github-script@v7
        env:
          PLAN_EXIT_CODE: ${expr('steps.plan.outputs.exit-code')}
        with:
          script: |
${script}
`;
}
