/**
 * `.github/workflows/wfsync-drift.yml`: a daily read-only plan of the real target against the definitions on the
 * default branch, through wfsync's action, with the plan as the run's summary. Drift (exit 6: e.g. a workflow edited
 * in the dashboard) fails the run with an annotation naming the workflows; workflows not created yet (exit 2) are a
 * warning; a plan that could not run fails with what its code means. Pure.
 */
import { CI_API_KEY_ENV, CI_TARGET } from '../config-file.js';
import { ADD_THE_KEY, KEY_ENV, KEY_JOB, KEY_PRESENT, keyJob, setupSteps, wfsyncStep } from './common.js';

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
${wfsyncStep({ name: 'Plan (read-only)', id: 'plan', with: { command: 'plan', target: CI_TARGET } })}
`;
}
