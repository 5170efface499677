import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { actionAsWorkflow, actionlint } from './action-lint.js';
import { ACTION_TEXT, type ActionYaml, readAction } from './action-runner.js';
import { ROOT } from './helpers.js';

/**
 * action.yml's shape, checked the way actionlint checks workflows (actionlint itself reads workflows only; it is
 * given the action's steps as a reusable workflow below): a composite action whose every `${{ }}` is defined and
 * whose `run:` text holds no expression, so no input can become shell code (template injection).
 */

/** A GitHub expression as it appears in the files. */
const gh = (expression: string) => `\${{ ${expression} }}`;
const EXPRESSION = /\$\{\{\s*([\s\S]*?)\s*\}\}/g;

/** What is wrong with an action definition (empty: nothing). */
function actionProblems(action: ActionYaml): string[] {
  const problems: string[] = [];
  if (typeof action.name !== 'string' || typeof action.description !== 'string')
    problems.push('name, description');
  if (action.runs?.using !== 'composite') problems.push(`runs.using is ${action.runs?.using}, not composite`);
  for (const [name, spec] of Object.entries(action.inputs ?? {})) {
    if (!spec.description) problems.push(`input ${name}: no description`);
  }
  const ids = new Set<string>();
  const check = (where: string, text: string) => {
    for (const [, expression] of text.matchAll(EXPRESSION)) {
      for (const [, input] of expression!.matchAll(/\binputs\.([\w-]+)/g)) {
        if (!(input! in (action.inputs ?? {}))) problems.push(`${where}: inputs.${input} is not defined`);
      }
      for (const [, id] of expression!.matchAll(/\bsteps\.([\w-]+)\./g)) {
        if (!ids.has(id!)) problems.push(`${where}: steps.${id} is not an earlier step`);
      }
    }
  };
  for (const [index, step] of (action.runs?.steps ?? []).entries()) {
    const where = `step ${step.id ?? index}`;
    if (step.run !== undefined) {
      if (step.shell === undefined) problems.push(`${where}: a composite run step needs a shell`);
      if (step.run.includes('${{'))
        problems.push(`${where}: an expression in run: text (pass it through env:)`);
    }
    for (const [name, value] of Object.entries(step.env ?? {})) check(`${where} env ${name}`, String(value));
    if (step.id !== undefined) ids.add(step.id);
  }
  for (const [name, spec] of Object.entries(action.outputs ?? {})) {
    if (!spec.description) problems.push(`output ${name}: no description`);
    check(`output ${name}`, String(spec.value));
  }
  return problems;
}

describe('action.yml', () => {
  const action = readAction();

  it('a composite action: every input and output described, every expression defined, no expression in run text', () => {
    expect(actionProblems(action)).toEqual([]);
    expect(Object.keys(action.inputs)).toEqual([
      'command',
      'target',
      'base-ref',
      'format',
      'working-directory',
      'version',
      'comment',
      'github-token',
      'max-warnings',
      'previews',
      'args',
    ]);
    expect(action.inputs['github-token']!.default).toBe(`${gh('github.token')}`);
    expect(action.inputs.version!.default).toBe(''); // the action's own version, never an unpinned latest
  });

  it('the check can fail: an input pasted into run text, an undefined input, a later step, a missing shell', () => {
    const broken = readAction(
      ACTION_TEXT.replace(
        'run: node "$GITHUB_ACTION_PATH/action/run.mjs" run',
        `run: node "$GITHUB_ACTION_PATH/action/run.mjs" run ${gh('inputs.args')}`,
      )
        .replace(`${gh('inputs.target')}`, `${gh('inputs.targte')}`)
        .replace(
          `value: ${gh('steps.run.outputs.exit-code')}`,
          `value: ${gh('steps.nope.outputs.exit-code')}`,
        )
        .replace('shell: bash', 'shell_: bash'),
    );
    expect(actionProblems(broken)).toEqual([
      'step run: a composite run step needs a shell',
      'step run: an expression in run: text (pass it through env:)',
      'step run env INPUT_TARGET: inputs.targte is not defined',
      'output exit-code: steps.nope is not an earlier step',
    ]);
  });

  it('every output is one its step writes: the run step (action/run.mjs), comment-url the relay (wfsync ci-relay)', () => {
    const script = readFileSync(join(ROOT, 'action/run.mjs'), 'utf8');
    const written = new Set([...script.matchAll(/setOutput\('([\w-]+)'/g)].map((m) => m[1]));
    const relay = readFileSync(join(ROOT, 'src/ci/github-comment.ts'), 'utf8');
    for (const name of Object.keys(action.outputs)) {
      if (name === 'comment-url') {
        expect(relay).toContain("setOutput('comment-url'");
        expect(script).not.toContain("setOutput('comment-url'"); // written once, by the relay
        expect(action.outputs[name]!.value).toBe(`\${{ steps.relay.outputs.${name} }}`);
        continue;
      }
      if (!written.has(name)) {
        // The counts are written in a loop from the COUNTS table.
        expect(script).toContain(`'${name}':`.replace(/^'(\w+)':$/, '$1:'));
      }
      expect(action.outputs[name]!.value).toBe(`\${{ steps.run.outputs.${name} }}`);
    }
  });

  it("actionlint finds nothing in the action's steps, read as a reusable workflow", async () => {
    expect(await actionlint(actionAsWorkflow(action), 'action-steps.yml')).toEqual([]);
  });

  it('actionlint, given the steps so, would catch an untrusted value pasted into a run: script', async () => {
    const broken = readAction(
      ACTION_TEXT.replace(
        'run: node "$GITHUB_ACTION_PATH/action/run.mjs" relay',
        `run: node "$GITHUB_ACTION_PATH/action/run.mjs" relay "${gh('github.head_ref')}"`,
      ).replace(
        `WFSYNC_EXIT_CODE: ${gh('steps.run.outputs.exit-code')}`,
        `WFSYNC_EXIT_CODE: ${gh('inputs.nope')}`,
      ),
    );
    const found = await actionlint(actionAsWorkflow(broken), 'action-steps.yml');
    expect(found.map((f) => f.message).join('\n')).toMatch(/"github\.head_ref" is potentially untrusted/);
    expect(found.map((f) => f.message).join('\n')).toMatch(/property "nope" is not defined/);
  });

  it('the scripts it runs are valid JavaScript, shipped in the package', () => {
    for (const file of ['run.mjs', 'args.mjs']) {
      const checked = spawnSync(process.execPath, ['--check', join(ROOT, 'action', file)], {
        encoding: 'utf8',
      });
      expect(checked.stderr).toBe('');
    }
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(manifest.files).toContain('action');
  });
});

describe('the GitHub Action section of docs/guides/github.md', () => {
  const page = readFileSync(join(ROOT, 'docs/guides/github.md'), 'utf8');
  const section = page.slice(page.indexOf('## The GitHub Action'), page.indexOf('## Keeping the pinned'));
  const action = readAction();

  it('names every input and output in its tables', () => {
    const rows = section.split('\n').filter((line) => line.startsWith('| `'));
    const named = new Set(
      rows.flatMap((row) => [...row.split('|')[1]!.matchAll(/`([\w-]+)`/g)].map((m) => m[1])),
    );
    expect(
      [...Object.keys(action.inputs), ...Object.keys(action.outputs)].filter((n) => !named.has(n)),
    ).toEqual([]);
  });

  it('its example workflow passes actionlint', async () => {
    const example = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
    expect(example).toContain('uses: wfsync/wfsync@');
    expect(await actionlint(example!, '.github/workflows/wfsync-plan.yml')).toEqual([]);
  });
});
