/**
 * Issue 12, items 4, 5, 6 and 8: text from outside (definitions and their file names, the service's answers, state
 * files) through every format, with GITHUB_ACTIONS=true and without, as the built CLI writes it. Nothing may reach
 * the terminal as an escape, the Actions log as a command (test/helpers/runner.ts: the runner's own rules), or the PR
 * comment as a second marker or a live mention; a literal key in the config is never printed.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, type RunResult, runCli } from '../e2e/helpers.js';
import { runnerCommands } from '../helpers/runner.js';

/** Every hostile fragment at once. */
const EVIL = [
  '##[add-mask]leak',
  '::set-output name=x::y',
  '\n::stop-commands::pwned\n',
  '\n::error::forged',
  '\x1b]8;;https://evil.example\x07link\x1b]8;;\x07',
  '\x1b]0;title\x07',
  '\x1b[2J',
  '\u202eevil',
  '\u009b31m',
  '<!-- wfsync-plan -->',
  '<!-- wfsync-plan target=local -->',
  '@org/team @someone #12',
].join(' ');

// biome-ignore lint/suspicious/noControlCharactersInRegex: the point of the test
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** For fields of at most 128 characters. */
const SHORT_EVIL =
  'n ##[add-mask]x\n::set-output name=a::b \x1b]0;t\x07 \u202e\u009b @org/team #1 <!-- wfsync-plan -->';

/** YAML double-quoted scalar for any text. */
const yamlString = (text: string) => JSON.stringify(text);

/** Hostile text in every field; `invalid` adds an unknown property (whose value a code frame shows). */
function hostileDefinition(invalid: boolean, identifier = 'hostile'): string {
  return [
    `name: ${yamlString(SHORT_EVIL)}`,
    `description: ${yamlString(EVIL)}`,
    'steps:',
    `  - name: ${yamlString(SHORT_EVIL)}`,
    '    template:',
    '      type: in_app',
    `      content: ${yamlString(EVIL)}`,
    ...(invalid ? [`    bogus: ${yamlString(EVIL)}`] : []),
    'triggers:',
    `  - identifier: ${identifier}`,
    '    type: event',
    '',
  ].join('\n');
}

/** The file names: a command and an escape in them. */
const FILES = [
  'workflows/hostile.yaml',
  'workflows/##[add-mask]x.yaml',
  'workflows/::error::y \x1b]0;t\x07.yaml',
];

const ACTIONS = [
  { name: 'under GitHub Actions', env: { GITHUB_ACTIONS: 'true' } },
  { name: 'in a terminal', env: {} },
];

/** The command lines the CLI may write: its own annotations, nothing else. */
const OWN = /^::(error|warning|notice)( [^\n]*)?::/;

function expectSafe(run: RunResult, actions: boolean, options: { annotations?: boolean } = {}) {
  for (const text of [run.stdout, run.stderr]) {
    expect(text).not.toContain('\x1b');
    expect(text).not.toMatch(UNSAFE);
    const commands = runnerCommands(text);
    if (actions && options.annotations) for (const line of commands) expect(line).toMatch(OWN);
    else if (actions) expect(commands).toEqual([]);
  }
  if (actions && options.annotations) expect(runnerCommands(run.stdout).length).toBeGreaterThan(0);
}

describe('a hostile definition', () => {
  let cwd: string;
  let valid: string;
  beforeAll(() => {
    cwd = makeProject(Object.fromEntries(FILES.map((file) => [file, hostileDefinition(true)])));
    valid = makeProject({
      'workflows/hostile.yaml': hostileDefinition(false),
      // Plan names each workflow's file: a file name holding all of it.
      'workflows/##[add-mask]x ::error::y \x1b]0;t\x07 \u202e @org @o-rg #2 <!-- wfsync-plan -->.yaml':
        hostileDefinition(false, 'hostile-file'),
    });
  });

  for (const { name, env } of ACTIONS) {
    const actions = name.startsWith('under');
    for (const format of ['human', 'json', 'github', 'junit', 'sarif']) {
      it(`validate --format ${format}, ${name}`, async () => {
        const run = await runCli(['validate', '--format', format], { cwd, env });
        expect(run.status).toBe(3);
        expectSafe(run, actions, { annotations: format === 'github' });
        if (format === 'json' || format === 'sarif') expect(() => JSON.parse(run.stdout)).not.toThrow();
      });
    }
    for (const format of ['human', 'json', 'github', 'markdown']) {
      it(`plan --format ${format}, ${name}`, async () => {
        // Valid, so the plan is rendered (a create of a workflow named with all of it).
        const run = await runCli(['plan', '--format', format, '--quiet'], { cwd: valid, env });
        expect(run.status, run.stderr).toBe(2);
        expect(run.stdout).toContain('add-mask');
        expectSafe(run, actions, { annotations: format === 'github' });
        if (format === 'markdown') {
          expect(run.stdout.split('<!-- wfsync-plan -->')).toHaveLength(2);
          expect(run.stdout.split('<!-- wfsync-plan target=local -->')).toHaveLength(2);
          expect(run.stdout.split('<!--')).toHaveLength(3);
          expect(run.stdout).not.toMatch(/(?<![A-Za-z0-9_])@[A-Za-z0-9]/);
        }
      });
    }
  }
});

describe('a hostile service', () => {
  let server: Server;
  let baseUrl: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      req.resume();
      // Every answer a failure whose message is hostile; the first one a 503 to make a retry line.
      const body = JSON.stringify({ statusCode: 500, message: `${req.url} ${EVIL}`, error: EVIL });
      res.writeHead(500, { 'content-type': 'application/json', 'x-evil': 'x' });
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const project = () =>
    makeProject({
      'wfsync.config.yaml': `targets:\n  dev:\n    baseUrl: ${baseUrl}\n    apiKeyEnv: DEV_KEY\n    notificationGroupId: 64f0c0ffee0000000000abcd\n    retries: { maxAttempts: 2 }\n`,
      'workflows/ok.yaml': [
        'name: ok',
        'steps:',
        '  - name: s',
        '    template: { type: in_app, content: hi }',
        'triggers:',
        '  - identifier: ok',
        '    type: event',
        '',
      ].join('\n'),
    });

  for (const { name, env } of ACTIONS) {
    const actions = name.startsWith('under');
    const withKey = { ...env, DEV_KEY: 'k_secret_1234567890' };
    for (const format of ['human', 'json', 'github', 'markdown']) {
      it(`plan --format ${format} --verbose, ${name}`, async () => {
        const run = await runCli(['plan', '-t', 'dev', '--format', format, '--verbose'], {
          cwd: project(),
          env: withKey,
        });
        expect(run.stdout + run.stderr).toContain('add-mask'); // the service's text was shown…
        expectSafe(run, actions, { annotations: format === 'github' }); // …and is harmless
      });
    }
    it(`sync, ${name}`, async () => {
      const run = await runCli(['sync', '-t', 'dev', '--verbose'], { cwd: project(), env: withKey });
      expect(run.status).not.toBe(0);
      expectSafe(run, actions);
    });
    for (const format of ['human', 'json']) {
      it(`pull --format ${format}, ${name}`, async () => {
        const run = await runCli(['pull', 'ok', '-t', 'dev', '--format', format], {
          cwd: project(),
          env: withKey,
        });
        expectSafe(run, actions);
      });
    }
  }
});

describe('a hostile state file', () => {
  for (const { name, env } of ACTIONS) {
    it(`plan quotes its target safely, ${name}`, async () => {
      const state = { version: 1, target: EVIL, baseUrl: EVIL, workflows: {}, pending: {} };
      const cwd = makeProject({ '.wfsync/state/local.json': JSON.stringify(state), 'workflows/.keep': '' });
      const run = await runCli(['plan'], { cwd, env });
      expect(run.stderr).toContain('belongs to target');
      expectSafe(run, name.startsWith('under'));
    });
  }
});

describe('a literal key in the config', () => {
  const KEY = 'sk_live_do_not_print_0123456789';
  const config = `targets:\n  prod:\n    baseUrl: https://api.example.com\n    apiKey: ${KEY}\n  stage:\n    baseUrl: https://api.example.com\n    apiKeyEnv: ${KEY}\n`;
  for (const format of ['human', 'json', 'github', 'junit', 'sarif']) {
    it(`is masked in validate --format ${format}`, async () => {
      const cwd = makeProject({ 'wfsync.config.yaml': config, 'workflows/a.yaml': 'name: a\n' });
      const run = await runCli(['validate', '--format', format], { cwd });
      expect(run.status).toBe(3);
      expect(run.stderr).toContain('schema-secret-in-file');
      expect(run.stderr).toContain(`apiKey: ${'*'.repeat(KEY.length)}`);
      expect(run.stdout + run.stderr).not.toContain('do_not_print');
    });
  }
  for (const format of ['human', 'json', 'github', 'markdown']) {
    it(`is masked in plan --format ${format}`, async () => {
      const cwd = makeProject({ 'wfsync.config.yaml': config, 'workflows/a.yaml': 'name: a\n' });
      const run = await runCli(['plan', '--format', format], { cwd, env: { GITHUB_ACTIONS: 'true' } });
      expect(run.status).toBe(3);
      expect(run.stdout + run.stderr).not.toContain('do_not_print');
    });
  }
});
