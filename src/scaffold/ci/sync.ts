/**
 * `.github/workflows/wfsync-sync.yml`: after every merge to main, create on the real target what the definitions
 * add, one run at a time, through wfsync's action; a workflow that needs a person (exit 6) fails the run with a
 * clear annotation. Pure.
 */
import {
  CI_API_KEY_ENV,
  CI_PROMOTED_KEY_ENV,
  CI_PROMOTED_TARGET,
  CI_TARGET,
  PROMOTING_GUIDE,
} from '../config-file.js';
import {
  ADD_THE_KEY,
  expr,
  KEY_ENV,
  KEY_JOB,
  KEY_PRESENT,
  keyJob,
  setupSteps,
  wfsyncStep,
} from './common.js';

export function buildSyncWorkflow(): string {
  return `# wfsync on the main branch (written by \`wfsync init\`): sync the definitions to the ${CI_TARGET} target.
# Needs the repository secret ${CI_API_KEY_ENV}: the API key of the service's Development environment, the only
# one that may create workflows. Production takes them from Development through the dashboard's promotion
# (publish) step: the jobs after the sync take it from code, once a reviewer approves (see below).
# A workflow that needs a person (exit 6: drifted, changed locally, conflict, missing remotely or orphaned) fails
# the run on purpose, after the rest is synced: the summary says what to do.
name: wfsync (sync)

on:
  push:
    branches: [main]
  workflow_dispatch:

# Two merges in quick succession must not sync at once: the second run waits for the first, which is never
# cancelled half-way (a newer waiting run replaces an older waiting one: the newest commit has every change).
concurrency:
  group: wfsync-sync-${CI_TARGET}
  cancel-in-progress: false

permissions:
  contents: read

jobs:
${keyJob({ level: 'warning', skipped: 'wfsync sync', why: ADD_THE_KEY })}

  sync:
    name: sync to ${CI_TARGET}
    needs: ${KEY_JOB}
    if: ${KEY_PRESENT}
    runs-on: ubuntu-latest
    # Optional: a GitHub environment with protection rules and its own copy of the secret (give the key job
    # the same environment, so it looks for the secret there).
    # environment: ${CI_TARGET}
${KEY_ENV}
    steps:
${setupSteps()}
${wfsyncStep({ name: 'Sync', id: 'sync', with: { command: 'sync', target: CI_TARGET } })}
      # State between runs. By default each run starts without .wfsync/state/${CI_TARGET}.json and wfsync looks
      # every workflow up on the service by its identifier before deciding to create it, so nothing is created
      # twice. To keep state in git instead (plan then tells "drifted" from "changed locally"), give this job
      # \`permissions: contents: write\` and uncomment:
      # - name: Commit the state
      #   if: always() && steps.sync.outcome != 'skipped'
      #   run: |
      #     git config user.name "github-actions[bot]"
      #     git config user.email "41898282+github-actions[bot]@users.noreply.github.com"
      #     git add .wfsync/state/${CI_TARGET}.json
      #     if git diff --cached --quiet; then exit 0; fi
      #     git commit -m "wfsync: state of ${CI_TARGET} [skip ci]"
      #     git pull --rebase && git push

${promotionJobs()}
`;
}

/**
 * After the sync: the production plan (read-only, its summary for the reviewer), then the promotion in a job behind
 * the \`${CI_PROMOTED_TARGET}\` environment, whose required reviewers approve it. Skipped with a note while there is
 * no Production key secret.
 */
function promotionJobs(): string {
  const keys = `    env:
      ${CI_API_KEY_ENV}: ${expr(`secrets.${CI_API_KEY_ENV}`)}
      ${CI_PROMOTED_KEY_ENV}: ${expr(`secrets.${CI_PROMOTED_KEY_ENV}`)}`;
  const ready = `needs.${PROMOTED_KEY_JOB}.outputs.present == 'true'`;
  return `  # Promotion to Production (${PROMOTING_GUIDE}):
  # the ${CI_PROMOTED_TARGET} target of wfsync.config.yaml (promoteFrom: ${CI_TARGET}). Its key, the repository secret
  # ${CI_PROMOTED_KEY_ENV}, only reads; the changes are applied with the Development key.
  # Create the GitHub environment "${CI_PROMOTED_TARGET}" with required reviewers (Settings > Environments): the promote
  # job waits for their approval, after they read the plan job's summary.
${keyJob({
  level: 'notice',
  skipped: 'promotion',
  why: `Add the Production environment's API key once the ${CI_PROMOTED_TARGET} target (promoteFrom: ${CI_TARGET}) is set up in wfsync.config.yaml.`,
  key: { job: PROMOTED_KEY_JOB, target: CI_PROMOTED_TARGET, secret: CI_PROMOTED_KEY_ENV, needs: 'sync' },
})}

  plan-${CI_PROMOTED_TARGET}:
    name: plan the promotion to ${CI_PROMOTED_TARGET}
    needs: [sync, ${PROMOTED_KEY_JOB}]
    if: ${ready}
    runs-on: ubuntu-latest
${keys}
    steps:
${setupSteps()}
${wfsyncStep({ name: 'Plan (read-only)', id: 'plan', with: { command: 'plan', target: CI_PROMOTED_TARGET } })}

  promote:
    name: promote to ${CI_PROMOTED_TARGET}
    needs: [${PROMOTED_KEY_JOB}, plan-${CI_PROMOTED_TARGET}]
    if: ${ready}
    runs-on: ubuntu-latest
    environment: ${CI_PROMOTED_TARGET}
${keys}
    steps:
${setupSteps()}
${wfsyncStep({ name: 'Promote', id: 'promote', with: { command: 'sync', target: CI_PROMOTED_TARGET } })}`;
}

const PROMOTED_KEY_JOB = 'production-key';
