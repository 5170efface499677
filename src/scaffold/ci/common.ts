/**
 * Pieces shared by the GitHub Actions recipes `wfsync init` writes: the setup steps, and the job that looks for
 * the API key secret so the jobs that need it are skipped with a note (fork pull requests get no secrets, and a
 * freshly initialised repository has none yet) instead of failing. Pure.
 */
import { CI_API_KEY_ENV, CI_TARGET } from '../config-file.js';

export const NODE_VERSION = 20;
/** The id of the job that looks for the key, and its output. */
export const KEY_JOB = 'key';
export const KEY_PRESENT = `needs.${KEY_JOB}.outputs.present == 'true'`;

/** The workflow files, under `.github/workflows/`. */
export const CI_FILES = {
  pullRequest: 'wfsync-pr.yml',
  sync: 'wfsync-sync.yml',
  drift: 'wfsync-drift.yml',
} as const;

/** `${{ expression }}` (written here once, so the TypeScript around it stays readable). */
export function expr(expression: string): string {
  return `\${{ ${expression} }}`;
}

/** Checkout, Node and the project's locked dependencies (wfsync among them), at `indent`. */
export function setupSteps(indent: string): string {
  return [
    '- uses: actions/checkout@v4',
    '- uses: actions/setup-node@v4',
    '  with:',
    `    node-version: ${NODE_VERSION}`,
    '    cache: npm',
    '- run: npm ci',
  ]
    .map((line) => indent + line)
    .join('\n');
}

/** The job-level env that hands the key to wfsync, under the variable the target's `apiKeyEnv` names. */
export function keyEnv(indent: string): string {
  return `${indent}env:\n${indent}  ${CI_API_KEY_ENV}: ${expr(`secrets.${CI_API_KEY_ENV}`)}`;
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
