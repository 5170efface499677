/**
 * Pieces shared by the GitHub Actions recipes `wfsync init` writes: the setup steps, and the job that looks for
 * the API key secret so the jobs that need it are skipped with a note (fork pull requests get no secrets, and a
 * freshly initialised repository has none yet) instead of failing. Pure.
 */
import { CI_API_KEY_ENV, CI_TARGET } from '../config-file.js';

/** The id of the job that looks for the key, and its output. */
export const KEY_JOB = 'key';
export const KEY_PRESENT = `needs.${KEY_JOB}.outputs.present == 'true'`;

/** `${{ expression }}` (written here once, so the TypeScript around it stays readable). */
export function expr(expression: string): string {
  return `\${{ ${expression} }}`;
}

/** Checkout, Node and the project's locked dependencies (wfsync among them), as a job's first steps. */
export const SETUP_STEPS = `      - uses: actions/checkout@v4
      - uses: actions/setup-node@v4
        with:
          node-version: 20
          cache: npm
      - run: npm ci`;

/** The job-level env that hands the key to wfsync, under the variable the target's `apiKeyEnv` names. */
export const KEY_ENV = `    env:
      ${CI_API_KEY_ENV}: ${expr(`secrets.${CI_API_KEY_ENV}`)}`;

/** Why the sync and drift jobs were skipped: the key is simply not set up yet. */
export const ADD_THE_KEY = `Add it in Settings > Secrets and variables > Actions once the ${CI_TARGET} target is set up in wfsync.config.yaml.`;

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
