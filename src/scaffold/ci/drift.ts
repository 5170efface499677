/**
 * `.github/workflows/wfsync-drift.yml`: a daily read-only plan of the real target against the definitions on the
 * default branch, with the plan as the run's summary. Drift (exit 6: e.g. a workflow edited in the dashboard) fails
 * the run with an annotation naming the workflows; a plan that could not run fails with what its code means. Pure.
 */
import { CI_API_KEY_ENV, CI_TARGET } from '../config-file.js';
import {
  ADD_THE_KEY,
  EXIT_MEANING,
  indentRun,
  KEY_ENV,
  KEY_JOB,
  KEY_PRESENT,
  keyJob,
  NEEDING_A_PERSON,
  setupSteps,
} from './common.js';

/** The drift step's script: the plan, then what its exit code means for a scheduled check. */
export function buildDriftScript(): string {
  return `${EXIT_MEANING}
${NEEDING_A_PERSON}
code=0
npx wfsync plan --target ${CI_TARGET} --format github --out plan.json || code=$?
case "$code" in
  0) echo "No drift: ${CI_TARGET} matches the definitions." ;;
  2) echo "::warning title=wfsync drift check::workflows on the default branch are not on ${CI_TARGET} yet: the sync run on main creates them (did its last run fail?)." ;;
  6)
    who="$(needing_a_person plan.json)"
    echo "::error title=wfsync drift check::drift found, a workflow needs a person: \${who:-see the summary of this run}. The summary says what to do for each."
    exit 6
    ;;
  *)
    echo "::error title=wfsync drift check::the drift check could not run (exit $code: $(exit_meaning "$code"))."
    exit "$code"
    ;;
esac`;
}

export function buildDriftWorkflow(): string {
  return `# wfsync drift check (written by \`wfsync init\`): every day, compare the ${CI_TARGET} target with the
# definitions on the default branch. Read-only: plan never creates anything. Drift (exit 6), e.g. a workflow edited
# or deleted in the dashboard, fails the run with an annotation naming the workflows, and the run's summary shows
# the plan with the next step for each; workflows not created yet (exit 2) are a warning. Needs the repository
# secret ${CI_API_KEY_ENV}.
name: wfsync (drift check)

on:
  schedule:
    - cron: "23 6 * * *" # daily at 06:23 UTC
  workflow_dispatch:

concurrency:
  group: wfsync-drift-${CI_TARGET}
  cancel-in-progress: true

permissions:
  contents: read

jobs:
${keyJob({ level: 'warning', skipped: 'wfsync drift check', why: ADD_THE_KEY })}

  drift:
    name: compare ${CI_TARGET} with the definitions
    needs: ${KEY_JOB}
    if: ${KEY_PRESENT}
    runs-on: ubuntu-latest
${KEY_ENV}
    steps:
${setupSteps()}
      - name: Plan (read-only)
        run: |
${indentRun(buildDriftScript())}
`;
}
