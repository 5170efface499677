/**
 * `.github/workflows/wfsync-pr.yml`: on every pull request, validate (annotations on the diff, no warning let
 * through), then plan what merging would do on the real target and keep ONE comment on the pull request up to date
 * with it (found by the plan's hidden marker), failed plans included, with plan.json as an artifact; the job fails
 * when a workflow needs a person (exit 6) or the plan failed. Pure.
 */
import { prCommentMarker } from '../../report/plan/markdown.js';
import { CI_API_KEY_ENV, CI_TARGET } from '../config-file.js';
import {
  EXIT_MEANING,
  expr,
  indentRun,
  KEY_ENV,
  KEY_JOB,
  KEY_PRESENT,
  keyJob,
  NEEDING_A_PERSON,
  PINNED_ACTIONS,
  setupSteps,
  uses,
} from './common.js';

/**
 * The script actions/github-script runs: put what `wfsync plan` printed (plan.md) in the earlier plan comment, or in
 * a new one unless the plan found nothing to change. A failed plan prints a failure document with the same marker,
 * so it replaces a stale plan; when wfsync printed nothing (it did not run), the comment says so and links the log.
 */
export function buildCommentScript(marker: string): string {
  return `const fs = require('node:fs');
const marker = ${JSON.stringify(marker)};
const code = process.env.PLAN_EXIT_CODE;
const { owner, repo } = context.repo;
const issue_number = context.issue.number;
let body = '';
try {
  body = fs.readFileSync('plan.md', 'utf8');
} catch {}
if (!body.includes(marker)) {
  const log = \`\${context.serverUrl}/\${owner}/\${repo}/actions/runs/\${context.runId}\`;
  body = \`\${marker}\\n### wfsync plan failed\\n\\n\\\`wfsync plan\\\` exited \${code} without printing a plan: see [the job log](\${log}).\\n\`;
}
const comments = await github.paginate(github.rest.issues.listComments, { owner, repo, issue_number, per_page: 100 });
// Only our own comment: anyone can post a comment that contains the marker.
const previous = comments.find((c) => c.user?.login === 'github-actions[bot]' && c.body?.includes(marker));
if (previous) {
  await github.rest.issues.updateComment({ owner, repo, comment_id: previous.id, body });
} else if (code !== '0') {
  await github.rest.issues.createComment({ owner, repo, issue_number, body });
} else {
  core.info('No changes and no earlier plan comment: nothing to post.');
}`;
}

/**
 * The last step: the job's verdict from the plan's exit code. 0 and 2 pass (2: merging creates what the comment
 * lists); 6 fails naming the workflows that need a person; any other code fails with what it means.
 */
export function buildVerdictScript(): string {
  return `${EXIT_MEANING}
${NEEDING_A_PERSON}
code="$PLAN_EXIT_CODE"
case "$code" in
  0) echo "wfsync plan: merging changes nothing on ${CI_TARGET}." ;;
  2) echo "wfsync plan: merging creates what the plan comment lists; the sync on main applies it." ;;
  6)
    who="$(needing_a_person plan.json)"
    echo "::error title=wfsync plan::a workflow needs a person: \${who:-see the plan comment}. Sync will not apply this; the plan comment says what to do for each."
    exit 6
    ;;
  *)
    echo "::error title=wfsync plan::wfsync plan failed (exit $code: $(exit_meaning "$code")); the plan comment and this job's log say why."
    exit "$code"
    ;;
esac`;
}

export function buildPullRequestWorkflow(): string {
  const script = buildCommentScript(prCommentMarker(CI_TARGET))
    .split('\n')
    .map((line) => (line === '' ? '' : `            ${line}`))
    .join('\n');
  return `# wfsync on pull requests (written by \`wfsync init\`).
# - validate: every definition, problems as annotations on the diff; a warning fails it too (--max-warnings 0), so
#   a typo such as {{ammount}} never reaches the service. Needs no secret, so forks are checked too.
# - plan: what merging would do on the ${CI_TARGET} target, compared with the merge-base of this branch and the
#   base branch (wfsync reads GITHUB_BASE_REF; the checkout fetches the history for it). One comment on the pull
#   request, updated in place by each push, shows it (or why the plan failed), and plan.json + plan.md are the
#   artifact "wfsync-plan". The job passes on exit 0 (nothing to do) and 2 (merging creates what the comment
#   lists), and fails on 6 (a workflow needs a person: drifted, changed locally, conflict, missing remotely or
#   orphaned) or any other code. Plan only reads (GET requests), but needs the repository secret
#   ${CI_API_KEY_ENV}; pull requests from forks get no secrets, so there the plan is skipped with a
#   note. (Do not switch to pull_request_target to get secrets: it would run the fork's code with them.)
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
      - run: npx wfsync validate --format github --max-warnings 0

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
${setupSteps({ fullHistory: true })}
      - name: Plan
        id: plan
        run: |
          # Whatever the exit code, what wfsync printed goes to the comment; the Verdict step decides the job.
          code=0
          npx wfsync plan --target ${CI_TARGET} --format markdown --out plan.json > plan.md || code=$?
          echo "exit-code=$code" >> "$GITHUB_OUTPUT"
      - name: Upload the plan
        ${uses(PINNED_ACTIONS.uploadArtifact)}
        with:
          name: wfsync-plan
          path: |
            plan.json
            plan.md
      - name: Comment on the pull request
        ${uses(PINNED_ACTIONS.githubScript)}
        env:
          PLAN_EXIT_CODE: ${expr('steps.plan.outputs.exit-code')}
        with:
          script: |
${script}
      - name: Verdict
        env:
          PLAN_EXIT_CODE: ${expr('steps.plan.outputs.exit-code')}
        run: |
${indentRun(buildVerdictScript())}
`;
}
