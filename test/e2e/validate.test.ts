import { existsSync, readFileSync as readPkg } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { describe, expect, it } from 'vitest';
import { VALID } from '../fixtures/workflow-texts.js';
import { parseJsonOutput } from '../helpers/json-output.js';
import { makeExampleProject, makeProject, runCli } from './helpers.js';

const pkgVersion = (
  JSON.parse(readPkg(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

describe('wfsync validate (the built CLI)', () => {
  it('accepts the example workflows: exit 0 and a one-line summary', async () => {
    const cwd = makeExampleProject();
    const result = await runCli(['validate'], { cwd });
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/^✔ 9 files valid/m);
    expect(result.status).toBe(0);
  });

  it('reports every problem of every file in one run, sorted, with file:line:col and a code frame; exit 3', async () => {
    const cwd = makeProject({
      'workflows/a.yaml': VALID.replace('type: chat', 'type: chatt'),
      'workflows/b.yaml': 'name: [unclosed\n',
      'workflows/c.yaml': VALID.replace('name: order shipped', 'name: order shipped\nnmae: typo').replace(
        'order-shipped',
        'order-shipped-two',
      ),
    });
    const result = await runCli(['validate'], { cwd });
    expect(result.status).toBe(3);
    const headers = result.stdout.split('\n').filter((l) => /^workflows\/\S+:\d+:\d+ /.test(l));
    expect(headers).toEqual([
      expect.stringMatching(/^workflows\/a\.yaml:5:13 error .*chatt.*\[schema-enum\]$/),
      expect.stringMatching(/^workflows\/b\.yaml:2:1 error .*\[yaml-syntax\]$/),
      expect.stringMatching(/^workflows\/c\.yaml:2:1 error .*nmae.*\[schema-additional-property\]$/),
    ]);
    expect(result.stdout).toContain('> 5 |       type: chatt');
    // A file that does not parse gets a code frame too.
    expect(result.stdout).toContain('  1 | name: [unclosed\n> 2 |\n    | ^\n');
    expect(result.stdout).toMatch(/✖ 3 problems \(3 errors, 0 warnings\) in 3 of 3 files/);
    expect(result.stdout).not.toContain('\x1b[');
    expect(result.stderr).toBe('');
  });

  it('json output is versioned and machine-readable', async () => {
    const cwd = makeProject({ 'workflows/a.yaml': VALID.replace('type: chat', 'type: chatt') });
    const result = await runCli(['validate', '--format', 'json'], { cwd });
    expect(result.status).toBe(3);
    const report = parseJsonOutput('validate', result.stdout);
    expect(report.schemaVersion).toBe(4);
    expect(report.diagnostics).toEqual([
      expect.objectContaining({
        code: 'schema-enum',
        severity: 'error',
        file: 'workflows/a.yaml',
        line: 5,
        column: 13,
        pointer: '/steps/0/template/type',
      }),
    ]);
  });

  it('github format prints annotations and writes the step summary', async () => {
    const cwd = makeProject({ 'workflows/a.yaml': VALID.replace('type: chat', 'type: chatt') });
    const summary = `${cwd}/summary.md`;
    const result = await runCli(['validate', '--format', 'github'], {
      cwd,
      env: { GITHUB_STEP_SUMMARY: summary },
    });
    expect(result.status).toBe(3);
    expect(result.stdout).toMatch(/^::error file=workflows\/a\.yaml,line=5,col=13,/m);
    const { readFileSync } = await import('node:fs');
    expect(readFileSync(summary, 'utf8')).toContain('workflows/a.yaml');
  });

  it('--max-warnings turns warnings into a failure', async () => {
    const cwd = makeProject({
      'workflows/a.yaml': VALID.replace('identifier: order-shipped', 'identifier: shipped'),
    });
    const lenient = await runCli(['validate'], { cwd });
    expect(lenient.status).toBe(0);
    expect(lenient.stdout).toContain('[identifier-name-mismatch]');
    const strict = await runCli(['validate', '--max-warnings', '0'], { cwd });
    expect(strict.status).toBe(3);
  });

  it('rule severities come from wfsync.config.yaml', async () => {
    const cwd = makeProject({
      'wfsync.config.yaml': 'rules:\n  identifier-name-mismatch: error\n',
      'workflows/a.yaml': VALID.replace('identifier: order-shipped', 'identifier: shipped'),
    });
    const result = await runCli(['validate'], { cwd });
    expect(result.status).toBe(3);
    expect(result.stdout).toMatch(/a\.yaml:\d+:\d+ error .*\[identifier-name-mismatch\]/);
  });

  it('an invalid config is reported with its position on stderr; exit 3', async () => {
    const cwd = makeProject({
      'wfsync.config.yaml': 'rules:\n  identifer-name-mismatch: error\n',
      'workflows/a.yaml': VALID,
    });
    const result = await runCli(['validate'], { cwd });
    expect(result.status).toBe(3);
    expect(result.stderr).toContain('wfsync: invalid config file wfsync.config.yaml');
    expect(result.stderr).toMatch(
      /wfsync\.config\.yaml:2:3 error .*identifier-name-mismatch.*\[config-unknown-rule\]/,
    );
  });

  it('usage errors exit 64 without a stack trace', async () => {
    const cwd = makeProject({ 'workflows/a.yaml': VALID });
    const badFormat = await runCli(['validate', '--format', 'xml'], { cwd });
    expect(badFormat.status).toBe(64);
    expect(badFormat.stderr).toContain("argument 'xml' is invalid");
    const missing = await runCli(['validate', 'nope.yaml'], { cwd });
    expect(missing.status).toBe(64);
    expect(missing.stderr).toContain('nope.yaml');
    expect(missing.stderr).not.toMatch(/\n\s+at /);
    const empty = await runCli(['validate'], { cwd: makeProject({ 'README.md': '' }) });
    expect(empty.status).toBe(64);
    expect(empty.stderr).toContain('no workflow definitions');
  });

  it('a typo of a declared variable is an error at its use, with "did you mean"; exit 3', async () => {
    const cwd = makeProject({
      'workflows/a.yaml': VALID.replace(
        'Order {{orderId}} shipped',
        'Order {{orderId}} shipped, {{orderid}} {{ordrId}}',
      ),
    });
    const result = await runCli(['validate'], { cwd });
    expect(result.status).toBe(3);
    expect(result.stdout).toContain(
      'workflows/a.yaml:6:46 error `orderid` is used in steps[0].template.content but not declared (the message ' +
        'would show nothing for it): did you mean `orderId`? [variable-typo]\n' +
        '  5 |       type: chat\n' +
        '> 6 |       content: "Order {{orderId}} shipped, {{orderid}} {{ordrId}}"\n' +
        '    |                                              ^^^^^^^\n',
    );
    expect(result.stdout).toMatch(
      /^workflows\/a\.yaml:6:58 error `ordrId` .*did you mean `orderId`\? \[variable-typo\]$/m,
    );
    expect(result.stdout).toMatch(/✖ 2 problems \(2 errors, 0 warnings\)/);
    // The config may lower it to the warning it was before.
    const lowered = makeProject({
      'wfsync.config.yaml': 'rules:\n  variable-typo: warning\n',
      'workflows/a.yaml': VALID.replace('{{orderId}}', '{{orderId}} {{ordrId}}'),
    });
    const warned = await runCli(['validate', '--max-warnings', '0'], { cwd: lowered });
    expect(warned.stdout).toMatch(/^workflows\/a\.yaml:6:\d+ warning `ordrId` .*\[variable-typo\]$/m);
    expect(warned.status).toBe(3);
  });

  it('--list-rules lists every rule code', async () => {
    const result = await runCli(['validate', '--list-rules'], { cwd: makeProject({}) });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^identifier-duplicate\s+error\s+/m);
    expect(result.stdout).toMatch(/^identifier-name-mismatch\s+warning\s+/m);
    expect(result.stdout).toMatch(/^variable-typo\s+error\s+a variable used but not declared is a typo/m);
  });

  it('--list-rules with a report file: a usage error that says why, which --codequality receives', async () => {
    for (const flag of ['--codequality', '--output']) {
      const cwd = makeProject({});
      const result = await runCli(['validate', '--list-rules', flag, 'report.json'], { cwd });
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `wfsync: --list-rules lists the rules and checks no file, so ${flag} would have nothing to write: ` +
          `run "wfsync validate ${flag} <file>" without --list-rules\n`,
      );
      expect(result.status).toBe(64);
      if (flag === '--output') {
        expect(existsSync(join(cwd, 'report.json'))).toBe(false);
        continue;
      }
      // The Code Quality report of a run that failed as a whole: its one issue says why (the widget is not empty).
      const issues = parseJsonOutput('codeclimate', readPkg(join(cwd, 'report.json'), 'utf8'));
      expect(issues.map((i: { check_name: string }) => i.check_name)).toEqual(['wfsync-validate/usage']);
      expect(issues[0].description).toContain('--list-rules lists the rules and checks no file');
    }
  });

  it('--version and --help', async () => {
    const cwd = makeProject({});
    const version = await runCli(['--version'], { cwd });
    // The version first, then what a bug report needs; the fast path in bin/ and commander's print the same line.
    expect(version.stdout).toBe(
      `${pkgVersion} (node ${process.version}; ${process.platform} ${process.arch})\n`,
    );
    const slow = await runCli(['--version', '--verbose'], { cwd });
    expect(slow.stdout).toBe(version.stdout);
    expect((await runCli(['-V'], { cwd })).stdout).toBe(version.stdout);
    const help = await runCli(['validate', '--help'], { cwd });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--max-warnings');
  });

  it('--no-color and --color anywhere on the command line win over NO_COLOR / FORCE_COLOR', async () => {
    const cwd = makeProject({ 'workflows/bad.yaml': 'name: x\nsteps: []\n' });
    const forced = await runCli(['validate'], { cwd, env: { NO_COLOR: '', FORCE_COLOR: '1' } });
    expect(forced.stdout).toContain('\u001b[');
    const off = await runCli(['validate', '--no-color'], { cwd, env: { NO_COLOR: '', FORCE_COLOR: '1' } });
    expect(off.status).toBe(forced.status);
    expect(off.stdout).not.toContain('\u001b[');
    expect(off.stdout).toBe(stripVTControlCharacters(forced.stdout));
    const on = await runCli(['--color', 'validate'], { cwd, env: { NO_COLOR: '1' } });
    expect(on.stdout).toBe(forced.stdout);
    const help = await runCli(['--help'], { cwd });
    expect(help.stdout).toContain('--no-color');
    expect(help.stdout).toContain('6 a workflow needs a person');
  });
});
