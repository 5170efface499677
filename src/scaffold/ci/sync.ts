/**
 * `.github/workflows/wfsync-sync.yml`: after every merge to main, create on the real target what the definitions
 * add, one run at a time, through wfsync's action; a workflow that needs a person (exit 6) fails the run with a
 * clear annotation. Pure.
 */
import { CI_API_KEY_ENV, CI_TARGET } from '../config-file.js';
import { ADD_THE_KEY, KEY_ENV, KEY_JOB, KEY_PRESENT, keyJob, setupSteps, wfsyncStep } from './common.js';

export function buildSyncWorkflow(): string {
  return `# wfsync on the main branch (written by \`wfsync init\`): sync the definitions to the ${CI_TARGET} target.
# Needs the repository secret ${CI_API_KEY_ENV}: the API key of the service's Development environment, the only
# one that may create workflows. Production takes them from Development through the dashboard's promotion
# (publish) step, a person's step that wfsync does not take.
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
`;
}
