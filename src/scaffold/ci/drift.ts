/**
 * `.github/workflows/wfsync-drift.yml`: a daily read-only plan that fails (exit 2) when the real target no longer
 * matches the definitions, e.g. after an edit in the dashboard, with the plan as the run's summary. Pure.
 */
import { CI_API_KEY_ENV, CI_TARGET } from '../config-file.js';
import { ADD_THE_KEY, KEY_ENV, KEY_JOB, KEY_PRESENT, keyJob, SETUP_STEPS } from './common.js';

export function buildDriftWorkflow(): string {
  return `# wfsync drift check (written by \`wfsync init\`): every day, compare the ${CI_TARGET} target with the
# definitions on the default branch. Read-only: plan never creates anything. The run fails (exit 2) when
# something differs, e.g. a workflow edited in the dashboard, and its summary shows the plan with the next
# step for each workflow. Needs the repository secret ${CI_API_KEY_ENV}.
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
${SETUP_STEPS}
      - name: Plan (read-only)
        run: npx wfsync plan --target ${CI_TARGET} --format github
`;
}
