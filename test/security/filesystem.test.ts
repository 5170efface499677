/**
 * The file-system boundary, tried as a hostile repository would (issue 12, items 1-3), against the built CLI: links
 * planted in the project that lead outside it are never read, shown or sent; a service identifier never chooses a
 * path; no writer (init, new, pull, state, cache) writes through a link. A canary stands for the secret: it must
 * appear nowhere in what wfsync prints, in any format, nor in what the service received.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT, type RunResult, runCli } from '../e2e/helpers.js';
import { startTarget, type Target } from '../e2e/plan-sync-target.js';
import { parseJsonOutput } from '../helpers/json-output.js';
import { writeFiles } from '../helpers/temp-project.js';

const CANARY = `wfsync-canary-${randomBytes(8).toString('hex')}`;

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A directory outside every project the test makes, holding files with the canary in them. */
function outsideWithSecrets(): string {
  const dir = mkdtempSync(join(tmpdir(), 'wfsync-outside-'));
  made.push(dir);
  const valid = readFileSync(join(ROOT, 'workflows/order-shipped.yaml'), 'utf8')
    .replace('name: order shipped', 'name: canary leak')
    .replace('identifier: order-shipped', 'identifier: canary-leak')
    .replace(/^description: .*$/m, `description: ${CANARY}`);
  writeFiles(dir, {
    // Not YAML at all, like ~/.npmrc; then YAML a schema rejects (a code frame would show it); then a valid one.
    '.npmrc': `//registry.npmjs.org/:_authToken=${CANARY}\n`,
    'broken.yaml': `name: [${CANARY}\n`,
    'valid.yaml': valid,
    'dir/inner.yaml': `token: ${CANARY}\n`,
    'config.yaml': `workflowsDir: ${CANARY}\n`,
    'state.json': `{"version": 1, "target": "${CANARY}"}\n`,
    'untouched.txt': 'untouched\n',
  });
  return dir;
}

function link(target: string, at: string): void {
  mkdirSync(dirname(at), { recursive: true });
  symlinkSync(target, at);
}

function expectNoCanary(run: RunResult, what: string): void {
  expect(run.stdout, `${what}: stdout`).not.toContain(CANARY);
  expect(run.stderr, `${what}: stderr`).not.toContain(CANARY);
}

/** The outside directory, byte for byte as outsideWithSecrets made it. */
function expectUntouched(outside: string): void {
  expect(readFileSync(join(outside, 'untouched.txt'), 'utf8')).toBe('untouched\n');
  expect(readdirSync(outside).sort()).toEqual(
    ['.npmrc', 'broken.yaml', 'config.yaml', 'dir', 'state.json', 'untouched.txt', 'valid.yaml'].sort(),
  );
  expect(readdirSync(join(outside, 'dir'))).toEqual(['inner.yaml']);
}

interface JsonDiagnostic {
  code: string;
  file: string;
  line: number;
  column: number;
}

/** The example project on the emulator, with definitions planted as links leading out of it. */
async function plantedTarget(): Promise<{ target: Target; outside: string }> {
  const outside = outsideWithSecrets();
  const target = await startTarget();
  const w = join(target.cwd, 'workflows');
  link(join(outside, 'broken.yaml'), join(w, 'broken.yaml'));
  link(join(outside, '.npmrc'), join(w, 'npmrc.yaml'));
  link(join(outside, 'valid.yaml'), join(w, 'valid.yaml'));
  link(join(outside, 'dir'), join(w, 'shared'));
  link('/proc/self/environ', join(w, 'env.yaml'));
  return { target, outside };
}

const PLANTED = [
  ['workflows/broken.yaml', 'definition-outside-project'],
  ['workflows/env.yaml', 'definition-outside-project'],
  ['workflows/npmrc.yaml', 'definition-outside-project'],
  ['workflows/shared', 'definition-outside-project'],
  ['workflows/valid.yaml', 'definition-outside-project'],
];

describe('definition files that are links leading outside the project', () => {
  it('validate refuses each at line 1 column 1 and prints no byte of them, in any format', async () => {
    const { target } = await plantedTarget();
    const env = { DEV_KEY: undefined, WFSYNC_CANARY: CANARY };
    const json = await runCli(['validate', '--format', 'json'], { cwd: target.cwd, env });
    expectNoCanary(json, 'json');
    expect(json.status).toBe(3);
    const { diagnostics } = parseJsonOutput('validate', json.stdout) as { diagnostics: JsonDiagnostic[] };
    expect(diagnostics.map((d) => [d.file, d.code, d.line, d.column])).toEqual(
      PLANTED.map(([file, code]) => [file, code, 1, 1]),
    );
    for (const format of ['human', 'github', 'junit', 'sarif']) {
      const run = await runCli(['validate', '--format', format], { cwd: target.cwd, env });
      expectNoCanary(run, format);
      expect(run.status, format).toBe(3);
    }
    const human = await runCli(['validate'], { cwd: target.cwd, env });
    expect(human.stdout).toContain(
      'workflows/env.yaml leads outside the project (the directory of wfsync.config.yaml) through a symbolic ' +
        'link; its content is not read',
    );
    // The cache neither reads nor stores them.
    const cached = await runCli(['validate', '--cache', '--format', 'json'], { cwd: target.cwd, env });
    expectNoCanary(cached, 'cache');
    expect(readFileSync(join(target.cwd, '.wfsync/cache/validate.json'), 'utf8')).not.toContain(CANARY);
  });

  it('plan and sync refuse to go on, and the service receives none of it', async () => {
    const { target } = await plantedTarget();
    for (const command of [['plan'], ['plan', '--format', 'json'], ['sync'], ['sync', '--format', 'json']]) {
      const run = await target.run(command, { WFSYNC_CANARY: CANARY });
      expectNoCanary(run, command.join(' '));
      expect(run.status, command.join(' ')).toBe(3);
      expect(run.posts).toBe(0);
    }
    expect(JSON.stringify(target.emulator.workflows())).not.toContain(CANARY);
    expect(target.stored()).toEqual([]);
  });

  it('a link that stays inside the project keeps working', async () => {
    const target = await startTarget();
    const w = join(target.cwd, 'workflows');
    mkdirSync(join(target.cwd, 'shared'));
    execFileSync('mv', [join(w, 'order-shipped.yaml'), join(target.cwd, 'shared/order-shipped.yaml')]);
    link(join(target.cwd, 'shared/order-shipped.yaml'), join(w, 'order-shipped.yaml'));
    const run = await runCli(['validate'], { cwd: target.cwd });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it('a config file that is a link out is refused unread (exit 3)', async () => {
    const outside = outsideWithSecrets();
    const cwd = mkdtempSync(join(tmpdir(), 'wfsync-sec-'));
    made.push(cwd);
    mkdirSync(join(cwd, '.git'));
    link(join(outside, 'config.yaml'), join(cwd, 'wfsync.config.yaml'));
    const run = await runCli(['validate', '--format', 'json'], { cwd });
    expectNoCanary(run, 'config');
    expect(run.status).toBe(3);
    expect(run.stderr + run.stdout).toContain('config-outside-project');
  });

  it('a FIFO named like a definition is refused without hanging', async (context) => {
    const cwd = mkdtempSync(join(tmpdir(), 'wfsync-sec-'));
    made.push(cwd);
    mkdirSync(join(cwd, 'workflows'));
    try {
      execFileSync('mkfifo', [join(cwd, 'workflows/pipe.yaml')]);
    } catch {
      console.info('skipped: mkfifo is not available here');
      context.skip();
    }
    const run = await runCli(['validate', '--format', 'json'], { cwd, timeoutMs: 20_000 });
    expect(run.signal).toBeNull();
    expect(run.status).toBe(3);
    const { diagnostics } = parseJsonOutput('validate', run.stdout) as { diagnostics: JsonDiagnostic[] };
    expect(diagnostics.map((d) => [d.file, d.code])).toEqual([['workflows/pipe.yaml', 'file-unreadable']]);
  });
});

describe('pull with identifiers chosen by the service', () => {
  it('an identifier that is not a slug (../../x) writes nothing, with or without --force', async () => {
    const target = await startTarget();
    expect((await target.run(['sync'])).status).toBe(0);
    rmSync(join(target.cwd, 'workflows/order-shipped.yaml'));
    const outName = `wfsync-pulled-${randomBytes(6).toString('hex')}`;
    // workflows/../../<outName>.yaml is a file beside the project: it exists, and must stay as it is.
    const victim = join(dirname(target.cwd), `${outName}.yaml`);
    writeFileSync(victim, 'untouched\n');
    made.push(victim);
    const edited = target.emulator.editWorkflow('order-shipped', (w) => {
      w.triggers[0]!.identifier = `../../${outName}`;
    });
    const before = readdirSync(target.cwd, { recursive: true }).sort();
    for (const force of [[], ['--force']]) {
      const run = await target.run(['pull', edited._id, ...force]);
      expect(run.status, force.join(' ')).toBe(1);
      expect(run.stdout + run.stderr).toContain(
        `the service's trigger identifier "../../${outName}" cannot name a file`,
      );
      expect(readFileSync(victim, 'utf8')).toBe('untouched\n');
      expect(readdirSync(target.cwd, { recursive: true }).sort()).toEqual(before);
    }
    for (const hostile of ['a/b', '/tmp/abs', '..', '']) {
      target.emulator.editWorkflow(edited._id, (w) => {
        w.triggers[0]!.identifier = hostile;
      });
      const run = await target.run(['pull', edited._id, '--force']);
      expect(run.status, hostile).toBe(1);
      expect(readdirSync(target.cwd, { recursive: true }).sort()).toEqual(before);
    }
  });

  it('pull (with --force too) never writes through a definition file that is a link, even one inside', async () => {
    const target = await startTarget();
    expect((await target.run(['sync'])).status).toBe(0);
    const file = join(target.cwd, 'workflows/order-shipped.yaml');
    const real = join(target.cwd, 'shared/order-shipped.yaml');
    mkdirSync(dirname(real));
    execFileSync('mv', [file, real]);
    link(real, file);
    const before = readFileSync(real, 'utf8');
    target.emulator.editWorkflow('order-shipped', (w) => {
      w.description = 'edited in the dashboard';
    });
    for (const force of [[], ['--force']]) {
      const run = await target.run(['pull', 'order-shipped', ...force]);
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(
        'refusing to write through workflows/order-shipped.yaml: it is a symbolic link (the file itself)',
      );
      expect(readFileSync(real, 'utf8')).toBe(before);
    }
  });
});

describe('writers never write through a planted link', () => {
  function project(files: Record<string, string> = {}): string {
    const cwd = mkdtempSync(join(tmpdir(), 'wfsync-sec-'));
    made.push(cwd);
    mkdirSync(join(cwd, '.git'));
    writeFiles(cwd, files);
    return cwd;
  }

  it.each([
    ['.gitignore', 'untouched.txt'],
    ['.vscode', 'dir'],
    ['.github', 'dir'],
    ['workflows', 'dir'],
    ['wfsync.config.yaml', 'untouched.txt'],
  ])(
    'init with %s planted as a link: exit 1, the link named, nothing outside changed',
    async (planted, to) => {
      const outside = outsideWithSecrets();
      const cwd = project();
      link(join(outside, to), join(cwd, planted));
      const run = await runCli(['init'], { cwd });
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(`refusing to write through ${planted}: it is a symbolic link`);
      expectNoCanary(run, 'init');
      expectUntouched(outside);
      // Every file is checked before the first is written.
      if (planted !== 'wfsync.config.yaml') expect(existsSync(join(cwd, 'wfsync.config.yaml'))).toBe(false);
    },
  );

  it('new into a workflows folder that is a link out: exit 1, nothing written there', async () => {
    const outside = outsideWithSecrets();
    const cwd = project({ 'wfsync.config.yaml': 'workflowsDir: workflows\n' });
    link(join(outside, 'dir'), join(cwd, 'workflows'));
    const run = await runCli(['new', 'order shipped'], { cwd });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('refusing to write through workflows: it is a symbolic link');
    expectUntouched(outside);
  });

  it('state: a .wfsync folder or a state file planted as a link is refused, unread and unwritten', async () => {
    const outside = outsideWithSecrets();
    const target = await startTarget();
    link(outside, join(target.cwd, '.wfsync'));
    const sync = await target.run(['sync']);
    expect(sync.status).toBe(1);
    expect(sync.stderr).toContain('refusing to write through .wfsync: it is a symbolic link');
    expect(sync.posts).toBe(0);
    expectUntouched(outside);

    rmSync(join(target.cwd, '.wfsync'));
    link(join(outside, 'state.json'), join(target.cwd, '.wfsync/state/dev.json'));
    for (const command of [['plan'], ['sync'], ['state', 'show']]) {
      const run = await target.run(command);
      expectNoCanary(run, command.join(' '));
      expect(run.status, command.join(' ')).toBe(1);
      expect(run.stderr).toContain('.wfsync/state/dev.json');
      expect(run.posts).toBe(0);
    }
    expectUntouched(outside);
  });

  it('cache: a cache folder or file planted as a link is neither read nor written (a warning, exit 0)', async () => {
    const outside = outsideWithSecrets();
    const cwd = project();
    writeFiles(cwd, {
      'workflows/order-shipped.yaml': readFileSync(join(ROOT, 'workflows/order-shipped.yaml'), 'utf8'),
    });
    link(join(outside, 'dir'), join(cwd, '.wfsync/cache'));
    const folder = await runCli(['validate', '--cache', '--verbose'], { cwd });
    expect(folder.status).toBe(0);
    expect(folder.stderr).toContain(
      'could not write the validate cache .wfsync/cache/validate.json: refusing',
    );
    expectUntouched(outside);

    rmSync(join(cwd, '.wfsync/cache'));
    link(join(outside, 'state.json'), join(cwd, '.wfsync/cache/validate.json'));
    const file = await runCli(['validate', '--cache', '--verbose'], { cwd });
    expectNoCanary(file, 'cache file');
    expect(file.status).toBe(0);
    expect(file.stderr).toContain('could not write the validate cache');
    expectUntouched(outside);
  });
});
