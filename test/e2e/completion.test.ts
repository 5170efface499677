import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { aWorkflow, aWorkflowYaml } from '../helpers/workflow.js';
import { BIN, makeProject, runCli } from './helpers.js';

/**
 * `wfsync completion bash|zsh|fish`, loaded into the real shells, asked for completions in a temp project (each Tab
 * runs the built CLI's `__complete`): commands, options and their choices, a target from the config and identifiers
 * from the definitions, one of them shaped to run a command if anything evaluated it.
 */
const SHIM = mkdtempSync(join(tmpdir(), 'wfsync-completion-bin-'));
writeFileSync(join(SHIM, 'wfsync'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
chmodSync(join(SHIM, 'wfsync'), 0o755);
const ENV = { PATH: `${SHIM}${delimiter}${process.env.PATH}`, HOME: SHIM, NO_COLOR: '1', TZ: 'UTC' };

const HOSTILE = 'odd$(touch pwned)';
const definition = (name: string, identifier: string) =>
  aWorkflowYaml(aWorkflow({ name, triggers: [{ type: 'event', identifier }] }));

function project(): string {
  return makeProject({
    'wfsync.config.yaml': 'targets:\n  staging:\n    baseUrl: https://api.example.com\n',
    'workflows/order-shipped.yaml': definition('order shipped', 'order-shipped'),
    // A file name and an identifier a shell would run if it evaluated them.
    'workflows/weird $(touch pwned-file) name.yaml': definition('odd', HOSTILE),
  });
}

function available(shell: string): boolean {
  const found = spawnSync(shell, ['-c', 'exit 0']).status === 0;
  if (!found && process.env.CI) throw new Error(`${shell} is not installed (CI installs it)`);
  if (!found) console.log(`skipped: ${shell} is not installed`);
  return found;
}

async function script(shell: string, cwd: string): Promise<string> {
  const path = join(cwd, `.completion.${shell}`);
  const result = await runCli(['completion', shell], { cwd });
  expect(result.status).toBe(0);
  writeFileSync(path, result.stdout);
  return path;
}

function run(shell: string, args: string[], cwd: string): string {
  const result = spawnSync(shell, args, { cwd, env: ENV, encoding: 'utf8' });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result.stdout;
}

describe('__complete: what Tab offers after the words, from the command definitions and the project, offline', () => {
  it('one candidate a line (a tab before its description), then whether file names fit; nothing from the project is run', async () => {
    const cwd = project();
    writeFileSync(join(cwd, 'other.yaml'), 'targets:\n  qa:\n    baseUrl: https://qa.example.com\n');
    const complete = async (...words: string[]) => {
      const result = await runCli(['__complete', '--', ...words], { cwd });
      expect(result.stderr).toBe('');
      return result.stdout;
    };
    expect(await complete('st')).toMatch(/^state\t[^\n]+\n:none\n$/);
    expect(await complete('plan', '--format', 'j')).toBe('json\n:none\n');
    expect(await complete('sync', '--target', '')).toBe('local\nstaging\n:none\n');
    // The config the line names, however it is written.
    expect(await complete('-c', 'other.yaml', 'sync', '--target', '')).toBe('local\nqa\n:none\n');
    expect(await complete('sync', '--config=other.yaml', '-t', 'q')).toBe('qa\n:none\n');
    expect(await complete('pull', '')).toBe(`${HOSTILE}\norder-shipped\n:none\n`);
    expect(await complete('plan', '')).toBe(':files\n');
    expect(await complete('completion', '')).toBe('bash\nzsh\nfish\n:none\n');
    expect(existsSync(join(cwd, 'pwned'))).toBe(false);
  });
});

describe.runIf(available('bash'))('bash', () => {
  const complete = (cwd: string, file: string, words: string[]) =>
    run(
      'bash',
      [
        '-c',
        `source ${JSON.stringify(file)}; COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); ` +
          // biome-ignore lint/suspicious/noTemplateCurlyInString: bash's own expansions
          'COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); _wfsync; printf "%s\\n" "${COMPREPLY[@]}"',
      ],
      cwd,
    )
      .trimEnd()
      .split('\n');

  it('commands, subcommands, options, choices, targets and identifiers; nothing from the project is run', async () => {
    const cwd = project();
    const file = await script('bash', cwd);
    expect(complete(cwd, file, ['wfsync', 'pl'])).toEqual(['plan']);
    expect(complete(cwd, file, ['wfsync', 'state', ''])).toEqual(['show', 'rebuild', 'forget']);
    expect(complete(cwd, file, ['wfsync', 'plan', '--for'])).toEqual(['--format']);
    expect(complete(cwd, file, ['wfsync', 'plan', '--format', ''])).toEqual([
      'human',
      'json',
      'markdown',
      'github',
      'codeclimate',
    ]);
    expect(complete(cwd, file, ['wfsync', '--verbose', 'sync', '--target', 'st'])).toEqual(['staging']);
    expect(complete(cwd, file, ['wfsync', 'pull', ''])).toEqual([
      'odd\\$\\(touch\\ pwned\\)',
      'order-shipped',
    ]);
    expect(complete(cwd, file, ['wfsync', 'plan', '--only', 'ord'])).toEqual(['order-shipped']);
    expect(complete(cwd, file, ['wfsync', 'state', 'forget', 'o'])).toEqual([
      'odd\\$\\(touch\\ pwned\\)',
      'order-shipped',
    ]);
    expect(existsSync(join(cwd, 'pwned'))).toBe(false);
    expect(existsSync(join(cwd, 'pwned-file'))).toBe(false);
  });

  it('a variadic option (--only <pattern...>) takes values until the next option or --, as commander reads them', async () => {
    const cwd = project();
    const file = await script('bash', cwd);
    const identifiers = ['odd\\$\\(touch\\ pwned\\)', 'order-shipped'];
    expect(complete(cwd, file, ['wfsync', 'plan', '--only', 'order-shipped', 'o'])).toEqual(identifiers);
    expect(complete(cwd, file, ['wfsync', 'sync', '--only', 'a', 'b', ''])).toEqual(identifiers);
    expect(complete(cwd, file, ['wfsync', 'plan', '--only', 'order-shipped', '--for'])).toEqual(['--format']);
    expect(complete(cwd, file, ['wfsync', 'plan', '--only', 'a', '--format', 'j'])).toEqual(['json']);
    // After another option's value, after --, and after the one value of --only=…: paths again.
    expect(complete(cwd, file, ['wfsync', 'plan', '--only', 'a', '--format', 'json', 'work'])).toEqual([
      'workflows',
    ]);
    expect(complete(cwd, file, ['wfsync', 'plan', '--only', 'order-shipped', '--', 'work'])).toEqual([
      'workflows',
    ]);
    expect(complete(cwd, file, ['wfsync', 'plan', '--only=order-shipped', 'work'])).toEqual(['workflows']);
    // After --, every word is a path: no options offered.
    expect(complete(cwd, file, ['wfsync', 'plan', '--', '--for'])).toEqual(['']);
  });
});

describe.runIf(available('zsh'))('zsh', () => {
  // compadd and _describe work only inside a completion widget: the harness stands in for them and prints what the
  // function offers, after compinit has loaded the script as a user's shell would.
  const harness = (file: string, words: string[]) => `
autoload -U compinit && compinit -u -D
source ${JSON.stringify(file)}
[[ \${_comps[wfsync]} == _wfsync ]] || { print -u2 'not registered'; exit 1 }
compadd() { local seen=0 a; for a in "$@"; do if (( seen )); then print -r -- "$a"; elif [[ $a == -- ]]; then seen=1; fi; done }
_describe() { local name=\${@[-1]}; print -rl -- "\${(@P)name%%:*}" }
_files() { print -r -- '(files)' }
words=(${words.map((w) => `'${w}'`).join(' ')}); CURRENT=\${#words}
_wfsync`;

  it('loads with compinit; commands, choices, targets and identifiers; nothing from the project is run', async () => {
    const cwd = project();
    const file = await script('zsh', cwd);
    expect(run('zsh', ['-n', file], cwd)).toBe('');
    const complete = (words: string[]) =>
      run('zsh', ['-f', '-c', harness(file, words)], cwd)
        .trimEnd()
        .split('\n');
    expect(complete(['wfsync', ''])).toContain('plan');
    expect(complete(['wfsync', 'state', ''])).toEqual(['show', 'rebuild', 'forget']);
    expect(complete(['wfsync', 'plan', '--format', ''])).toEqual([
      'human',
      'json',
      'markdown',
      'github',
      'codeclimate',
    ]);
    expect(complete(['wfsync', 'sync', '-t', ''])).toEqual(['local', 'staging']);
    expect(complete(['wfsync', 'pull', ''])).toEqual([HOSTILE, 'order-shipped']);
    expect(existsSync(join(cwd, 'pwned'))).toBe(false);
  });

  it('a variadic option (--only <pattern...>) takes values until the next option or --, as commander reads them', async () => {
    const cwd = project();
    const file = await script('zsh', cwd);
    const complete = (words: string[]) =>
      run('zsh', ['-f', '-c', harness(file, words)], cwd)
        .trimEnd()
        .split('\n');
    expect(complete(['wfsync', 'plan', '--only', 'order-shipped', ''])).toEqual([HOSTILE, 'order-shipped']);
    expect(complete(['wfsync', 'sync', '--only', 'a', 'b', ''])).toEqual([HOSTILE, 'order-shipped']);
    expect(complete(['wfsync', 'plan', '--only', 'a', '--'])).toContain('--format');
    expect(complete(['wfsync', 'plan', '--only', 'a', '--format', ''])).toEqual([
      'human',
      'json',
      'markdown',
      'github',
      'codeclimate',
    ]);
    expect(complete(['wfsync', 'plan', '--only', 'a', '--format', 'json', ''])).toEqual(['(files)']);
    expect(complete(['wfsync', 'plan', '--only', 'order-shipped', '--', ''])).toEqual(['(files)']);
    expect(complete(['wfsync', 'plan', '--only=order-shipped', ''])).toEqual(['(files)']);
    expect(complete(['wfsync', 'plan', '--', '--'])).toEqual(['(files)']);
  });
});

describe.runIf(available('fish'))('fish', () => {
  const complete = (cwd: string, file: string, line: string) =>
    run('fish', ['-c', `source ${JSON.stringify(file)}; complete -C ${JSON.stringify(line)}`], cwd)
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t')[0]);

  it('commands, choices, targets and identifiers; nothing from the project is run', async () => {
    const cwd = project();
    const file = await script('fish', cwd);
    expect(complete(cwd, file, 'wfsync pl')).toEqual(['plan']);
    expect(complete(cwd, file, 'wfsync state ')).toEqual(['forget', 'rebuild', 'show']);
    expect(complete(cwd, file, 'wfsync plan --format ')).toEqual([
      'codeclimate',
      'github',
      'human',
      'json',
      'markdown',
    ]);
    expect(complete(cwd, file, 'wfsync sync --target st')).toEqual(['staging']);
    expect(complete(cwd, file, 'wfsync pull ')).toEqual([HOSTILE, 'order-shipped']);
    expect(existsSync(join(cwd, 'pwned'))).toBe(false);
  });

  it('a variadic option (--only <pattern...>) takes values until the next option or --, as commander reads them', async () => {
    const cwd = project();
    const file = await script('fish', cwd);
    expect(complete(cwd, file, 'wfsync plan --only order-shipped ')).toEqual([HOSTILE, 'order-shipped']);
    expect(complete(cwd, file, 'wfsync sync --only a b o')).toEqual([HOSTILE, 'order-shipped']);
    expect(complete(cwd, file, 'wfsync plan --only a --for')).toEqual(['--format']);
    expect(complete(cwd, file, 'wfsync plan --only a --format j')).toEqual(['json']);
    expect(complete(cwd, file, 'wfsync plan --only a --format json work')).toEqual(['workflows/']);
    expect(complete(cwd, file, 'wfsync plan --only order-shipped -- work')).toEqual(['workflows/']);
    expect(complete(cwd, file, 'wfsync plan --only=order-shipped work')).toEqual(['workflows/']);
  });
});
