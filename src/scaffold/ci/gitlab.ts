/**
 * What `wfsync init --ci gitlab` writes. wfsync's jobs live in a file of their own, `.gitlab/wfsync.gitlab-ci.yml`
 * (owned by wfsync: rewritten when identical, kept when edited unless --force); the jobs call `wfsync ci-relay` for
 * the merge request note and the verdict, so none of that is copied into the repository. `.gitlab-ci.yml` is the user's pipeline: created when absent (the default stages and the `include:`), left
 * alone when it already includes wfsync's file, and otherwise never touched: init prints the `include:` to add. Pure.
 *
 * The jobs: `wfsync-validate` on merge requests and the default branch (Code Quality report), `wfsync-plan` on merge
 * requests (compared with the diff base, full history, an upserted note, Code Quality report), `wfsync-sync` on the
 * default branch (not on schedules) one at a time per target (`resource_group`), `wfsync-drift` on schedules.
 */
import { parse } from 'yaml';
import { isRecord } from '../../json.js';
import {
  CI_API_KEY_ENV,
  CI_PROMOTED_KEY_ENV,
  CI_PROMOTED_TARGET,
  CI_TARGET,
  PROMOTING_GUIDE,
} from '../config-file.js';
import { CI_NODE_VERSION } from './common.js';
import {
  buildGitlabDriftScript,
  buildGitlabPromoteScript,
  buildGitlabPromotionPlanScript,
  buildGitlabSyncScript,
  buildPlanScript,
  buildValidateScript,
  GITLAB_TOKEN_ENV,
  PLAN_REPORT,
  PREVIEWS_DIR,
  PROMOTE_RESULT,
  SKIPPED_EXIT_CODE,
  SYNC_RESULT,
  VALIDATE_REPORT,
} from './gitlab-scripts.js';

export const GITLAB_PIPELINE_PATH = '.gitlab/wfsync.gitlab-ci.yml';
export const GITLAB_ROOT_PATH = '.gitlab-ci.yml';

/** The stages the jobs use: GitLab's defaults, which most pipelines keep. */
export const GITLAB_STAGES = ['test', 'deploy'] as const;

/** The `include:` entry that brings wfsync's jobs into a pipeline. */
export const GITLAB_INCLUDE = `include:\n  - local: ${GITLAB_PIPELINE_PATH}`;

const MERGE_REQUEST = '$CI_PIPELINE_SOURCE == "merge_request_event"';
const DEFAULT_BRANCH = '$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH';
const SCHEDULE = '$CI_PIPELINE_SOURCE == "schedule"';

/** A script as a literal block under `script:`, indented for a job. */
function scriptBlock(script: string): string {
  const body = script
    .split('\n')
    .map((line) => (line === '' ? '' : `      ${line}`))
    .join('\n');
  return `  script:\n    - |\n${body}`;
}

export function buildGitlabPipeline(): string {
  return `# wfsync on GitLab (written by \`wfsync init --ci gitlab\`; ${GITLAB_ROOT_PATH} includes it).
# Set in Settings > CI/CD > Variables:
# - ${CI_API_KEY_ENV} (masked): the API key of the service's Development environment, the only
#   one that may create workflows (wfsync reads it through the ${CI_TARGET} target's apiKeyEnv in
#   wfsync.config.yaml). Leave it unprotected so merge request pipelines get it, or protect it and accept that plan
#   is skipped on merge requests. Without it, plan, sync and the drift check are skipped with a warning (exit
#   ${SKIPPED_EXIT_CODE}, which the jobs allow).
# - ${GITLAB_TOKEN_ENV} (masked): a project access token (role Reporter, scope api) the plan job writes its merge
#   request note with (the job's own CI_JOB_TOKEN may not write notes). Without it the plan is only in the job log.
# Jobs:
# - wfsync-validate (merge requests and the default branch): every definition, a warning fails it too
#   (--max-warnings 0); the findings go to the merge request's Code Quality widget.
# - wfsync-plan (merge requests): what merging would do on ${CI_TARGET}, compared with the merge request's diff base
#   (full history: GIT_DEPTH 0). One note on the merge request, updated in place by each push (found by the plan's
#   marker), shows it; plan.json, plan.md and ${PREVIEWS_DIR}/ (an HTML preview of each workflow to create or
#   that differs, index.html first) are artifacts, the workflows that need a person are in Code Quality.
#   Passes on exit 0 (nothing to do) and 2 (merging creates what the note lists); fails on 6 (a workflow needs a
#   person: drifted, changed locally, conflict, missing remotely or orphaned) or any other code.
# - wfsync-sync (the default branch, not schedules): creates what the definitions add, one run at a time per target
#   (resource_group).
# - wfsync-plan-${CI_PROMOTED_TARGET} and wfsync-promote (the default branch, after the sync; skipped with a warning
#   without the masked variable ${CI_PROMOTED_KEY_ENV}, the Production key, which only reads): what promoting
#   would do, then a manual job in the protected environment ${CI_PROMOTED_TARGET} (Operate > Environments: protect it
#   and name who may deploy) that applies exactly the reviewed workflows' pending changes
#   (${PROMOTING_GUIDE}).
# - wfsync-drift (pipeline schedules: add one in Build > Pipeline schedules, e.g. daily): a read-only plan of
#   ${CI_TARGET}; drift (exit 6) fails the job naming the workflows.

.wfsync:
  image: node:${CI_NODE_VERSION}
  variables:
    npm_config_cache: "$CI_PROJECT_DIR/.npm"
  cache:
    key:
      files:
        - package-lock.json
    paths:
      - .npm/

wfsync-validate:
  extends: .wfsync
  stage: test
  rules:
    - if: ${MERGE_REQUEST}
    - if: ${SCHEDULE}
      when: never
    - if: ${DEFAULT_BRANCH}
${scriptBlock(buildValidateScript())}
  artifacts:
    when: always
    reports:
      codequality: ${VALIDATE_REPORT}

wfsync-plan:
  extends: .wfsync
  stage: test
  needs:
    - wfsync-validate
  rules:
    - if: ${MERGE_REQUEST}
  variables:
    GIT_DEPTH: "0"
  allow_failure:
    exit_codes:
      - ${SKIPPED_EXIT_CODE}
${scriptBlock(buildPlanScript())}
  artifacts:
    when: always
    expose_as: wfsync plan
    paths:
      - plan.json
      - plan.md
      - ${PREVIEWS_DIR}/
    reports:
      codequality: ${PLAN_REPORT}

wfsync-sync:
  extends: .wfsync
  stage: deploy
  needs:
    - wfsync-validate
  rules:
    - if: ${SCHEDULE}
      when: never
    - if: ${DEFAULT_BRANCH}
  # Two merges in quick succession never sync at once: the second job waits for the first.
  resource_group: wfsync-${CI_TARGET}
  # Optional: a GitLab environment with its own protected copy of the key.
  # environment: ${CI_TARGET}
  allow_failure:
    exit_codes:
      - ${SKIPPED_EXIT_CODE}
${scriptBlock(buildGitlabSyncScript())}
  artifacts:
    when: always
    paths:
      - ${SYNC_RESULT}

wfsync-plan-${CI_PROMOTED_TARGET}:
  extends: .wfsync
  stage: deploy
  needs:
    - wfsync-sync
  rules:
    - if: ${SCHEDULE}
      when: never
    - if: ${DEFAULT_BRANCH}
  allow_failure:
    exit_codes:
      - ${SKIPPED_EXIT_CODE}
${scriptBlock(buildGitlabPromotionPlanScript())}
  artifacts:
    when: always
    paths:
      - plan-${CI_PROMOTED_TARGET}.json

wfsync-promote:
  extends: .wfsync
  stage: deploy
  needs:
    - wfsync-plan-${CI_PROMOTED_TARGET}
  rules:
    - if: ${SCHEDULE}
      when: never
    - if: ${DEFAULT_BRANCH}
      when: manual
  # A person starts it, after reading the plan job's log; protect the environment to say who may.
  environment:
    name: ${CI_PROMOTED_TARGET}
    deployment_tier: production
  resource_group: wfsync-${CI_PROMOTED_TARGET}
  allow_failure:
    exit_codes:
      - ${SKIPPED_EXIT_CODE}
${scriptBlock(buildGitlabPromoteScript())}
  artifacts:
    when: always
    paths:
      - ${PROMOTE_RESULT}

wfsync-drift:
  extends: .wfsync
  stage: test
  rules:
    - if: ${SCHEDULE}
  resource_group: wfsync-${CI_TARGET}
  allow_failure:
    exit_codes:
      - ${SKIPPED_EXIT_CODE}
${scriptBlock(buildGitlabDriftScript())}
  artifacts:
    when: always
    paths:
      - plan.json
`;
}

/** `.gitlab-ci.yml` for a repository that has none: GitLab's default stages and wfsync's jobs. */
export function buildGitlabRoot(): string {
  return `# The project's pipeline (written by \`wfsync init --ci gitlab\`): add your own jobs here.
stages:
${GITLAB_STAGES.map((stage) => `  - ${stage}`).join('\n')}

${GITLAB_INCLUDE}
`;
}

/** The files wfsync owns: the jobs (the note and the verdict are `wfsync ci-relay`'s, in the package). */
export function buildGitlabFiles(): Array<{ path: string; text: string }> {
  return [{ path: GITLAB_PIPELINE_PATH, text: buildGitlabPipeline() }];
}

/** What init does to an existing `.gitlab-ci.yml`: nothing, with a note or the `include:` to add by hand. */
export type GitlabRootCheck =
  | { status: 'included'; note?: string }
  | { status: 'manual'; reason: string; snippet: string };

/** Whether the user's pipeline already includes wfsync's jobs (and has the stages they use). */
export function checkGitlabRoot(text: string): GitlabRootCheck {
  let pipeline: unknown;
  try {
    pipeline = parse(text);
  } catch {
    return { status: 'manual', reason: 'it is not valid YAML', snippet: GITLAB_INCLUDE };
  }
  const record = isRecord(pipeline) ? pipeline : {};
  const stages = Array.isArray(record.stages) ? record.stages : undefined;
  const missing = stages === undefined ? [] : GITLAB_STAGES.filter((s) => !stages.includes(s));
  const stagesNote =
    missing.length === 0
      ? undefined
      : `its stages lack ${missing.join(' and ')}, which wfsync's jobs use: add them`;
  if (includesPipeline(record.include))
    return stagesNote ? { status: 'included', note: stagesNote } : { status: 'included' };
  return {
    status: 'manual',
    reason: `it is your pipeline: wfsync's jobs are in ${GITLAB_PIPELINE_PATH}`,
    snippet: stagesNote ? `${GITLAB_INCLUDE}\n# and ${stagesNote}` : GITLAB_INCLUDE,
  };
}

/** `include:` as GitLab reads it: a path, a `{local: path}`, or a list of either. */
function includesPipeline(include: unknown): boolean {
  const entries = Array.isArray(include) ? include : include === undefined ? [] : [include];
  return entries.some((entry) => {
    const path = typeof entry === 'string' ? entry : isRecord(entry) ? entry.local : undefined;
    return typeof path === 'string' && path.replace(/^\.?\//, '') === GITLAB_PIPELINE_PATH;
  });
}
