/**
 * Pieces shared by the GitHub Actions recipes `wfsync init` writes: the actions they use (pinned), the setup steps,
 * what each wfsync exit code means, and the job that looks for the API key secret so the jobs that need it are
 * skipped with a note (fork pull requests get no secrets, and a freshly initialised repository has none yet) instead
 * of failing. Pure.
 */
import { CI_API_KEY_ENV, CI_TARGET } from '../config-file.js';

/**
 * The actions the recipes use, each pinned to the full commit SHA of a release of its current major (a tag can be
 * moved, a commit cannot), with the release in a trailing comment that Dependabot keeps up to date together with the
 * SHA (README: "Keeping the pinned actions current"). Each SHA is the one the release tag points at in the action's
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
  githubScript: {
    action: 'actions/github-script',
    sha: 'ed597411d8f924073f98dfc5c65a23a2325f34cd',
    release: 'v8.0.0',
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
 * Checkout, Node and the project's locked dependencies (wfsync among them), as a job's first steps. `fullHistory`:
 * every commit and branch, so `wfsync plan` finds the merge-base with the pull request's base branch.
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
          node-version: ${CI_NODE_VERSION}
          cache: npm
      - run: npm ci`;
}

/** The job-level env that hands the key to wfsync, under the variable the target's `apiKeyEnv` names. */
export const KEY_ENV = `    env:
      ${CI_API_KEY_ENV}: ${expr(`secrets.${CI_API_KEY_ENV}`)}`;

/** Why the sync and drift jobs were skipped: the key is simply not set up yet. */
export const ADD_THE_KEY = `Add the Development environment's API key in Settings > Secrets and variables > Actions once the ${CI_TARGET} target is set up in wfsync.config.yaml.`;

/**
 * A shell function, `exit_meaning CODE`, that prints what a wfsync exit code means (the README's table), for the
 * steps that report a code they did not expect.
 */
export const EXIT_MEANING = `exit_meaning() {
  case "$1" in
    0) echo "success" ;;
    1) echo "an unexpected failure: the service unreachable or failing, an I/O error, or a bug" ;;
    2) echo "changes that sync applies (workflows to create)" ;;
    3) echo "invalid definitions or config" ;;
    4) echo "the API key was refused, or it is not a Development-environment key" ;;
    5) echo "rate limited: the retry budget ran out" ;;
    6) echo "a workflow needs a person" ;;
    64) echo "a usage error in this job's wfsync command" ;;
    *) echo "an exit code wfsync does not use: wfsync did not run, or crashed" ;;
  esac
}`;

/**
 * A shell function, `needing_a_person FILE`, that names the workflows of a plan JSON document that need a person
 * (`welcome (drifted), billing (conflict)`), or prints nothing when the file cannot be read. Identifiers are text
 * from outside: anything but letters, digits, `.`, `_` and `-` becomes `?`, so none can end the annotation line.
 */
export const NEEDING_A_PERSON = `needing_a_person() {
  jq -r '[.items[]? | select(.action == "drifted" or .action == "changed-locally" or .action == "conflict"
    or .action == "missing-remotely" or .action == "orphaned")
    | "\\(.identifier | tostring | gsub("[^A-Za-z0-9._-]"; "?")) (\\(.action))"] | join(", ")' "$1" 2>/dev/null || true
}`;

/** A multi-line shell snippet indented to sit under a step's `run: |` (ten spaces). */
export function indentRun(script: string): string {
  return script
    .split('\n')
    .map((line) => (line === '' ? '' : `          ${line}`))
    .join('\n');
}

/**
 * A job that says whether the secret is set (without printing it), and explains a skip. Jobs cannot test
 * secrets in `if:`, hence a job whose output they can test.
 */
export function keyJob(options: { level: 'notice' | 'warning'; skipped: string; why: string }): string {
  const message = `${options.skipped} skipped: no ${CI_API_KEY_ENV} secret in this run. ${options.why}`;
  return `  ${KEY_JOB}:
    name: look for the ${CI_TARGET} API key
    runs-on: ubuntu-latest
    outputs:
      present: ${expr('steps.look.outputs.present')}
    steps:
      - id: look
        env:
          KEY: ${expr(`secrets.${CI_API_KEY_ENV}`)}
        run: |
          if [ -n "$KEY" ]; then
            echo "present=true" >> "$GITHUB_OUTPUT"
          else
            echo "present=false" >> "$GITHUB_OUTPUT"
            echo "::${options.level} title=wfsync::${message}"
          fi`;
}
