/**
 * Pieces shared by the GitHub Actions recipes `wfsync init` writes: the actions they use (pinned), the setup steps,
 * the step that runs wfsync's own action (action.yml at the repository root, which decides what an exit code means
 * and posts the plan comment: one copy of that logic for every recipe), and the job that looks for the API key
 * secret so the jobs that need it are skipped with a note (fork pull requests get no secrets, and a freshly
 * initialised repository has none yet) instead of failing. Pure.
 */
import { VERSION } from '../../version.js';
import { CI_API_KEY_ENV, CI_TARGET } from '../config-file.js';

/**
 * The actions the recipes use, each pinned to the full commit SHA of a release of its current major (a tag can be
 * moved, a commit cannot), with the release in a trailing comment that Dependabot keeps up to date together with the
 * SHA (docs/guides/github.md, "Keeping the pinned actions current"). Each SHA is the one the release tag points at in the action's
 * own repository.
 */
export const PINNED_ACTIONS = {
  checkout: {
    action: 'actions/checkout',
    sha: '3d3c42e5aac5ba805825da76410c181273ba90b1',
    release: 'v7.0.1',
  },
  setupNode: {
    action: 'actions/setup-node',
    sha: '820762786026740c76f36085b0efc47a31fe5020',
    release: 'v7.0.0',
  },
  uploadArtifact: {
    action: 'actions/upload-artifact',
    sha: 'bbbca2ddaa5d8feaa63e36b76fdaad77386f024f',
    release: 'v7.0.0',
  },
} as const;

/** The Node.js major the jobs run wfsync on: the current LTS. */
export const CI_NODE_VERSION = 24;

/** `uses: owner/name@<sha> # vX.Y.Z`, the form Dependabot updates in place. */
export function uses(pinned: { action: string; sha: string; release: string }): string {
  return `uses: ${pinned.action}@${pinned.sha} # ${pinned.release}`;
}

/** The id of the job that looks for the key, and its output. */
export const KEY_JOB = 'key';
export const KEY_PRESENT = `needs.${KEY_JOB}.outputs.present == 'true'`;

/** `${{ expression }}` (written here once, so the TypeScript around it stays readable). */
export function expr(expression: string): string {
  return `\${{ ${expression} }}`;
}

/**
 * The repository that holds wfsync's action (action.yml at its root). package.json has no `repository` yet, so this
 * is the one place that names it; a test holds it equal to package.json's `repository` once that is set.
 */
export const WFSYNC_ACTION_REPOSITORY = 'wfsync/wfsync';

/**
 * The tag of the action the recipes use: the release line of the wfsync that wrote them, `v<major>` (`v0.<minor>`
 * before 1.0, where a minor release may break). The action runs the wfsync version of the ref it is used at, so the
 * recipe and the CLI that wrote it move together; Dependabot's github-actions updates move the tag.
 */
export function wfsyncActionRef(version: string = VERSION): string {
  const [major = '0', minor = '0'] = version.split('.');
  return major === '0' ? `v0.${minor}` : `v${major}`;
}

/**
 * A step that runs wfsync's action: `command` and the inputs given, in the order given (YAML scalars written as
 * they are: the callers pass fixed words and numbers).
 */
export function wfsyncStep(options: {
  name: string;
  id?: string;
  with: Record<string, string | number>;
}): string {
  const id = options.id === undefined ? '' : `\n        id: ${options.id}`;
  const inputs = Object.entries(options.with)
    .map(([key, value]) => `\n          ${key}: ${value}`)
    .join('');
  return `      - name: ${options.name}${id}
        uses: ${WFSYNC_ACTION_REPOSITORY}@${wfsyncActionRef()}
        with:${inputs}`;
}

/**
 * Checkout and Node, as a job's first steps (the action installs the wfsync of its release itself, so the project
 * needs no package.json). `fullHistory`: every commit and branch, so `wfsync plan` finds the merge-base with the pull
 * request's base branch.
 */
export function setupSteps(options: { fullHistory?: boolean } = {}): string {
  const history = options.fullHistory
    ? `
        with:
          fetch-depth: 0 # the base branch's history: plan compares with the merge-base`
    : '';
  return `      - ${uses(PINNED_ACTIONS.checkout)}${history}
      - ${uses(PINNED_ACTIONS.setupNode)}
        with:
          node-version: ${CI_NODE_VERSION}`;
}

/** The job-level env that hands the key to wfsync, under the variable the target's `apiKeyEnv` names. */
export const KEY_ENV = `    env:
      ${CI_API_KEY_ENV}: ${expr(`secrets.${CI_API_KEY_ENV}`)}`;

/** Why the sync and drift jobs were skipped: the key is simply not set up yet. */
export const ADD_THE_KEY = `Add the Development environment's API key in Settings > Secrets and variables > Actions once the ${CI_TARGET} target is set up in wfsync.config.yaml.`;

/**
 * A job that says whether the secret is set (without printing it), and explains a skip. Jobs cannot test
 * secrets in `if:`, hence a job whose output they can test.
 */
export function keyJob(options: {
  level: 'notice' | 'warning';
  skipped: string;
  why: string;
  /** Another target's key (default: the recipe's own target and CI_API_KEY_ENV, job `key`). */
  key?: { job: string; target: string; secret: string; needs: string };
}): string {
  const { job, target, secret } = options.key ?? { job: KEY_JOB, target: CI_TARGET, secret: CI_API_KEY_ENV };
  const needs = options.key === undefined ? '' : `\n    needs: ${options.key.needs}`;
  const message = `${options.skipped} skipped: no ${secret} secret in this run. ${options.why}`;
  return `  ${job}:
    name: look for the ${target} API key${needs}
    runs-on: ubuntu-latest
    outputs:
      present: ${expr('steps.look.outputs.present')}
    steps:
      - id: look
        env:
          KEY: ${expr(`secrets.${secret}`)}
        run: |
          if [ -n "$KEY" ]; then
            echo "present=true" >> "$GITHUB_OUTPUT"
          else
            echo "present=false" >> "$GITHUB_OUTPUT"
            echo "::${options.level} title=wfsync::${message}"
          fi`;
}
