/**
 * The shell the GitLab jobs run (POSIX sh: the node image's /bin/sh is dash), one builder per job: the key check
 * that skips a job with a warning instead of failing it, then wfsync, then `wfsync ci-relay` (src/ci/relay.ts),
 * which writes the merge request note, says the verdict and ends the job with its code. No rule of the verdict or
 * the note is written here: they ship with wfsync, so an upgrade fixes a pipeline without rerunning init. Pure.
 */
import { CI_API_KEY_ENV, CI_PROMOTED_KEY_ENV, CI_PROMOTED_TARGET, CI_TARGET } from '../config-file.js';

/** The exit code a job uses for "skipped: no API key"; the jobs allow it as a failure, so it shows as a warning. */
export const SKIPPED_EXIT_CODE = 78;

/** The masked CI/CD variable holding the project access token the relay writes the merge request note with. */
export const GITLAB_TOKEN_ENV = 'WFSYNC_GITLAB_TOKEN';

/** The files the jobs write: Code Quality reports (validate, plan), the plan as JSON and as the note's Markdown. */
export const VALIDATE_REPORT = 'gl-code-quality-validate.json';
export const PLAN_REPORT = 'gl-code-quality-plan.json';
/** The plan job's HTML previews (index.html and one page per workflow to create or that differs), an artifact. */
export const PREVIEWS_DIR = 'wfsync-previews';

/** The sync job's result document (`sync --out`): what it says of itself names the workflows that need a person. */
export const SYNC_RESULT = 'wfsync-sync.json';

/** `npm ci` from the job's cache folder (the template's `cache:`), quiet about audit and funding. */
const INSTALL = 'npm ci --prefer-offline --no-audit --no-fund';

/**
 * The job's last line: `wfsync ci-relay` reads what wfsync wrote, writes the note (plan on a merge request), says the
 * verdict and ends the job with its code. The rules live in wfsync (src/ci/), not in this file: an upgrade of wfsync
 * fixes them without rerunning init.
 */
function relay(command: 'plan' | 'sync', files: string, target = CI_TARGET): string {
  return `npx wfsync ci-relay --command ${command} --exit-code "$code" --target ${target} ${files}`;
}

/** Skip the job (exit 78, allowed: a warning) when the key variable is missing, saying why and what to do. */
function keyCheck(what: string, why: string, variable = CI_API_KEY_ENV): string {
  return `if [ -z "\${${variable}:-}" ]; then
  echo "${what} skipped: no ${variable} variable in this pipeline. ${why}"
  exit ${SKIPPED_EXIT_CODE}
fi`;
}

const ADD_THE_KEY =
  "Add the Development environment's API key in Settings > CI/CD > Variables (masked) once the " +
  `${CI_TARGET} target is set up in wfsync.config.yaml.`;

/**
 * validate: one run, the report in the log and the Code Quality report in its file (a run that fails as a whole
 * writes its failure there); its exit code decides the job.
 */
export function buildValidateScript(): string {
  return `${INSTALL}
npx wfsync validate --max-warnings 0 --report-unused-disable --codequality ${VALIDATE_REPORT}`;
}

/**
 * plan on a merge request: compared with the merge request's diff base (the merge-base with its target branch), one
 * plan run writing it as Markdown for the note, as JSON, as HTML previews and as the Code Quality report, the note
 * upserted, then the verdict. A note that could not be written fails a plan that would otherwise pass: a stale note
 * must not read as current.
 */
export function buildPlanScript(): string {
  return `${keyCheck('wfsync plan', `${ADD_THE_KEY} Do not protect it: merge request pipelines run on unprotected branches. Merge requests from forks get no variables.`)}
${INSTALL}
base="\${CI_MERGE_REQUEST_DIFF_BASE_SHA:-}"
if [ -z "$base" ]; then
  # No diff base from GitLab: the target branch, fetched (the clone holds only this branch).
  target="$CI_MERGE_REQUEST_TARGET_BRANCH_NAME"
  git fetch --quiet origin "+refs/heads/$target:refs/remotes/origin/$target"
  base="origin/$target"
fi
code=0
# One plan, every output: the note (stdout), the JSON, the previews and the Code Quality report (a failed plan
# writes its failure there), so they cannot disagree and the service is asked once.
npx wfsync plan --target ${CI_TARGET} --base "$base" --format markdown --out plan.json --previews ${PREVIEWS_DIR} --codequality ${PLAN_REPORT} > plan.md || code=$?
# The note on the merge request, the verdict and the job's exit code (wfsync ci-relay, shipped with wfsync).
${relay('plan', '--document plan.json --markdown plan.md')}`;
}

/** sync on the default branch: what its exit code means after a merge. */
export function buildGitlabSyncScript(): string {
  return `${keyCheck('wfsync sync', ADD_THE_KEY)}
${INSTALL}
code=0
npx wfsync sync --target ${CI_TARGET} --out ${SYNC_RESULT} || code=$?
${relay('sync', `--document ${SYNC_RESULT}`)}`;
}

/** The scheduled drift check: a read-only plan; drift (6) fails naming the workflows. */
export function buildGitlabDriftScript(): string {
  return `${keyCheck('wfsync drift check', ADD_THE_KEY)}
${INSTALL}
code=0
npx wfsync plan --target ${CI_TARGET} --out plan.json || code=$?
${relay('plan', '--document plan.json')}`;
}

/** The promotion result document (`sync --target production --out`). */
export const PROMOTE_RESULT = 'wfsync-promote.json';

const ADD_THE_PRODUCTION_KEY =
  "Add the Production environment's API key (masked; it only reads) once the " +
  `${CI_PROMOTED_TARGET} target (promoteFrom: ${CI_TARGET}) is set up in wfsync.config.yaml.`;

/** Both keys: the promotion reads Production with its own and applies changes with the Development one. */
function promotionKeyChecks(what: string): string {
  return `${keyCheck(what, ADD_THE_KEY)}
${keyCheck(what, ADD_THE_PRODUCTION_KEY, CI_PROMOTED_KEY_ENV)}`;
}

/** After the sync on the default branch: what promoting would do (read-only), for the person who starts it. */
export function buildGitlabPromotionPlanScript(): string {
  return `${promotionKeyChecks('wfsync plan of the promotion')}
${INSTALL}
code=0
npx wfsync plan --target ${CI_PROMOTED_TARGET} --out plan-${CI_PROMOTED_TARGET}.json || code=$?
${relay('plan', `--document plan-${CI_PROMOTED_TARGET}.json`, CI_PROMOTED_TARGET)}`;
}

/** The promotion, started by a person in the protected environment: the reviewed workflows' changes only. */
export function buildGitlabPromoteScript(): string {
  return `${promotionKeyChecks('wfsync promotion')}
${INSTALL}
code=0
npx wfsync sync --target ${CI_PROMOTED_TARGET} --out ${PROMOTE_RESULT} || code=$?
${relay('sync', `--document ${PROMOTE_RESULT}`, CI_PROMOTED_TARGET)}`;
}
