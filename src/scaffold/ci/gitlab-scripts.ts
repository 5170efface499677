/**
 * The shell the GitLab jobs run (POSIX sh: the node image's /bin/sh is dash), one builder per job: the key check
 * that skips a job with a warning instead of failing it, then wfsync, then the verdict by exit code, as the GitHub
 * recipes decide it (0 and 2 pass, 6 needs a person, any other code fails). What a code means and who needs a person
 * are not written here: the plan and sync documents wfsync writes say them (`meaning`, `needsPerson`). Pure.
 */
import { CI_API_KEY_ENV, CI_TARGET } from '../config-file.js';

/** The exit code a job uses for "skipped: no API key"; the jobs allow it as a failure, so it shows as a warning. */
export const SKIPPED_EXIT_CODE = 78;

/** The masked CI/CD variable holding the project access token the plan job writes its merge request note with. */
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
 * `wfsync_said FILE who` prints the workflows the document wfsync wrote says need a person (`welcome (drifted)`);
 * `wfsync_said FILE meaning CODE` prints `: <what the code means>` when the document ended with that code. Nothing
 * when the file cannot be read (wfsync failed before writing it). Node, not jq: the node image has no jq. Identifiers
 * are text from outside: anything but letters, digits, `.`, `_` and `-` becomes `?`.
 */
export const WFSYNC_SAID_NODE = `wfsync_said() {
  node -e '
    const safe = (text) => String(text).replace(/[^A-Za-z0-9._-]/g, "?");
    let said = "";
    try {
      const doc = JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8"));
      if (process.argv[2] === "who") {
        const rows = doc.outcomes || doc.items || [];
        const named = new Map(rows.map((row) => [String(row.identifier), row.outcome || row.action]));
        said = (doc.needsPerson || [])
          .map((id) => safe(id) + (named.has(String(id)) ? " (" + safe(named.get(String(id))) + ")" : ""))
          .join(", ");
      } else if (doc.exitCode === Number(process.argv[3]) && typeof doc.meaning === "string") {
        said = ": " + doc.meaning.replace(/[\\r\\n]/g, " ");
      }
    } catch {}
    process.stdout.write(said);
  ' "$@" 2>/dev/null || true
}`;

/** Skip the job (exit 78, allowed: a warning) when the key variable is missing, saying why and what to do. */
function keyCheck(what: string, why: string): string {
  return `if [ -z "\${${CI_API_KEY_ENV}:-}" ]; then
  echo "${what} skipped: no ${CI_API_KEY_ENV} variable in this pipeline. ${why}"
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
npx wfsync validate --max-warnings 0 --codequality ${VALIDATE_REPORT}`;
}

/**
 * plan on a merge request: compared with the merge request's diff base (the merge-base with its target branch), one
 * plan run writing it as Markdown for the note, as JSON, as HTML previews and as the Code Quality report, the note
 * upserted, then the verdict. A note that could not be written fails a plan that would otherwise pass: a stale note
 * must not read as current.
 */
export function buildPlanScript(noteScript: string): string {
  return `${WFSYNC_SAID_NODE}
${keyCheck('wfsync plan', `${ADD_THE_KEY} Do not protect it: merge request pipelines run on unprotected branches. Merge requests from forks get no variables.`)}
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
note=0
node ${noteScript} plan.md "$code" || note=$?
case "$code" in
  0) echo "wfsync plan: merging changes nothing on ${CI_TARGET}." ;;
  2) echo "wfsync plan: merging creates what the plan note lists; the sync on the default branch applies it." ;;
  6)
    who="$(wfsync_said plan.json who)"
    echo "wfsync plan: a workflow needs a person: \${who:-see the plan note}. Sync will not apply this; the plan note says what to do for each."
    exit 6
    ;;
  *)
    echo "wfsync plan failed (exit $code$(wfsync_said plan.json meaning "$code")); the plan note and this job's log say why."
    exit "$code"
    ;;
esac
if [ "$note" != 0 ]; then
  echo "wfsync plan: the merge request note could not be written (above): it may show an older plan."
  exit 1
fi`;
}

/** sync on the default branch: what its exit code means after a merge. */
export function buildGitlabSyncScript(): string {
  return `${WFSYNC_SAID_NODE}
${keyCheck('wfsync sync', ADD_THE_KEY)}
${INSTALL}
code=0
npx wfsync sync --target ${CI_TARGET} --out ${SYNC_RESULT} || code=$?
case "$code" in
  0) ;;
  6)
    who="$(wfsync_said ${SYNC_RESULT} who)"
    echo "wfsync sync: synced what sync may apply, but a workflow needs a person: \${who:-see the report above}. The report above says what to do for each."
    exit 6
    ;;
  *)
    echo "wfsync sync failed (exit $code$(wfsync_said ${SYNC_RESULT} meaning "$code")); the log above says what was done."
    exit "$code"
    ;;
esac`;
}

/** The scheduled drift check: a read-only plan; drift (6) fails naming the workflows. */
export function buildGitlabDriftScript(): string {
  return `${WFSYNC_SAID_NODE}
${keyCheck('wfsync drift check', ADD_THE_KEY)}
${INSTALL}
code=0
npx wfsync plan --target ${CI_TARGET} --out plan.json || code=$?
case "$code" in
  0) echo "No drift: ${CI_TARGET} matches the definitions." ;;
  2) echo "warning: workflows on the default branch are not on ${CI_TARGET} yet: the sync job on the default branch creates them (did its last run fail?)." ;;
  6)
    who="$(wfsync_said plan.json who)"
    echo "wfsync drift check: drift found, a workflow needs a person: \${who:-see the plan above}. The plan above says what to do for each."
    exit 6
    ;;
  *)
    echo "wfsync drift check could not run (exit $code$(wfsync_said plan.json meaning "$code"))."
    exit "$code"
    ;;
esac`;
}
