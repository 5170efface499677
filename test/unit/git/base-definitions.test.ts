import { execFileSync } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDefinitionSources } from '../../../src/config/sources.js';
import { ExitCode } from '../../../src/exit-codes.js';
import {
  type BaseDefinitions,
  readBaseDefinitions,
  resolveBaseRef,
} from '../../../src/git/base-definitions.js';
import { GitBaseError } from '../../../src/git/git.js';
import { git } from '../../helpers/git.js';
import { useTempProjects, writeFiles } from '../../helpers/temp-project.js';
import { aWorkflowNamed } from '../../helpers/workflow.js';

/** The definitions at the merge-base, read from real git repositories in temp directories. */

const tempProject = useTempProjects('wfsync-git-');

function commitAll(cwd: string, message: string): void {
  git(cwd, 'add', '-A');
  git(cwd, 'commit', '-q', '--allow-empty', '-m', message);
}

/** A definition as YAML (JSON is YAML) with one in-app step whose content is given. */
function definition(name: string, content: unknown = 'Hello {{who}}'): string {
  return `${JSON.stringify(aWorkflowNamed(name, { steps: [{ name: 'inbox', template: { type: 'in_app', content } }] } as never), null, 2)}\n`;
}

function repo(files: Record<string, string | Uint8Array>): string {
  const cwd = tempProject({ 'wfsync.config.yaml': 'workflowsDir: workflows\n', ...files });
  git(cwd, 'init', '-q', '-b', 'main');
  commitAll(cwd, 'base');
  git(cwd, 'checkout', '-q', '-b', 'change');
  return cwd;
}

function read(
  cwd: string,
  ref = 'main',
  limits?: { maxBytes: number },
  env: NodeJS.ProcessEnv = process.env,
): Promise<BaseDefinitions> {
  return readBaseDefinitions({
    cwd,
    env,
    ref,
    sources: buildDefinitionSources({ base: cwd }),
    rules: { severities: {}, notificationGroups: {} } as never,
    ...(limits ? { limits } : {}),
  });
}

const contentOf = (base: BaseDefinitions, identifier: string) =>
  (
    base.definitions.find((d) => d.identifier === identifier)?.workflow.steps[0]?.template as {
      content: string;
    }
  )?.content;

describe('readBaseDefinitions', () => {
  it('reads each definition as it was at the merge-base, not as it is now nor at the base tip', async () => {
    const cwd = repo({ 'workflows/alpha.yaml': definition('alpha', 'at base') });
    writeFiles(cwd, { 'workflows/alpha.yaml': definition('alpha', 'in the change') });
    commitAll(cwd, 'change');
    const mergeBase = git(cwd, 'rev-parse', 'main').trim();
    // main moves on after the branch point: its tip is not what the change is compared with.
    git(cwd, 'checkout', '-q', 'main');
    writeFiles(cwd, { 'workflows/alpha.yaml': definition('alpha', 'later on main') });
    commitAll(cwd, 'later');
    git(cwd, 'checkout', '-q', 'change');
    // Uncommitted edits in the working tree are not the base either.
    writeFiles(cwd, { 'workflows/alpha.yaml': definition('alpha', 'uncommitted') });

    const base = await read(cwd);
    expect(base.commit).toBe(mergeBase);
    expect(base.ref).toBe('main');
    expect(contentOf(base, 'alpha')).toBe('at base');
  });

  it('resolves `{file: …}` includes from the base commit’s texts', async () => {
    const cwd = repo({
      'workflows/alpha.yaml': definition('alpha', { file: './alpha.html' }),
      'workflows/alpha.html': '<p>at base</p>\n',
    });
    writeFiles(cwd, { 'workflows/alpha.html': '<p>changed</p>\n' });
    commitAll(cwd, 'change the include only');
    const base = await read(cwd);
    expect(contentOf(base, 'alpha')).toBe('<p>at base</p>');
    expect(base.unreadable.size).toBe(0);
  });

  it('an include missing at the base makes that base version unreadable, saying why', async () => {
    const cwd = repo({ 'workflows/alpha.yaml': definition('alpha', { file: './missing.html' }) });
    const base = await read(cwd);
    expect(base.definitions).toEqual([]);
    expect(base.unreadable.get('alpha')).toMatch(/missing\.html does not exist at the base/);
  });

  it('finds a renamed file by its identifier, and keeps a file deleted since', async () => {
    const cwd = repo({
      'workflows/old-name.yaml': definition('alpha'),
      'workflows/gone.yaml': definition('gone'),
    });
    git(cwd, 'mv', 'workflows/old-name.yaml', 'workflows/alpha.yaml');
    git(cwd, 'rm', '-q', 'workflows/gone.yaml');
    commitAll(cwd, 'rename and delete');
    const base = await read(cwd);
    expect(base.definitions.map((d) => [d.identifier, d.file])).toEqual([
      ['gone', 'workflows/gone.yaml'],
      ['alpha', 'workflows/old-name.yaml'],
    ]);
  });

  it('an invalid or duplicated definition at the base is unreadable, with the reason', async () => {
    const cwd = repo({
      'workflows/bad.yaml': definition('bad').replace('"in_app"', '"in_ap"'),
      'workflows/twice-a.yaml': definition('twice'),
      'workflows/twice-b.yaml': definition('twice'),
    });
    const base = await read(cwd);
    expect(base.definitions).toEqual([]);
    expect(base.unreadable.get('bad')).toMatch(/^workflows\/bad\.yaml was not a valid definition there \(/);
    expect(base.unreadable.get('twice')).toBe(
      '2 files declared it there (workflows/twice-a.yaml, workflows/twice-b.yaml)',
    );
  });

  it('holds base texts to the same limits: a file over the size limit is not read', async () => {
    const cwd = repo({ 'workflows/big.yaml': `${definition('big')}# ${'x'.repeat(4000)}\n` });
    const base = await read(cwd, 'main', { maxBytes: 1024 });
    expect(base.definitions).toEqual([]);
    // Its identifier was never read, so it is simply not known at the base.
    expect([...base.identifiers.keys()]).toEqual([]);
  });

  it('reads hostile file names exactly (quotes, newlines, a leading dash, non-ASCII), and skips hidden folders', async () => {
    const names = [
      'workflows/-dash.yaml',
      'workflows/"quoted".yaml',
      'workflows/new\nline.yaml',
      'workflows/ünï.yaml',
    ];
    const cwd = repo({
      ...Object.fromEntries(names.map((name, i) => [name, definition(`w${i}`)])),
      'workflows/.hidden/skip.yaml': definition('hidden'),
      'workflows/node_modules/skip.yaml': definition('module'),
      'other/outside.yaml': definition('outside'),
    });
    const base = await read(cwd);
    expect(base.definitions.map((d) => d.file).sort()).toEqual([...names].sort());
    expect(base.definitions.map((d) => d.identifier).sort()).toEqual(['w0', 'w1', 'w2', 'w3']);
  });

  it('a project in a subdirectory of the repository: paths shown from the working directory', async () => {
    const cwd = repo({
      'app/wfsync.config.yaml': 'workflowsDir: workflows\n',
      'app/workflows/alpha.yaml': definition('alpha'),
    });
    const app = join(cwd, 'app');
    const base = await readBaseDefinitions({
      cwd: app,
      env: process.env,
      ref: 'main',
      sources: buildDefinitionSources({ base: app }),
      rules: { severities: {}, notificationGroups: {} } as never,
    });
    expect(base.definitions.map((d) => d.file)).toEqual(['workflows/alpha.yaml']);
  });

  it('a monorepo: the same folder list and exclude as the file search (glob, exclude, the config never read)', async () => {
    const cwd = repo({
      'wfsync.config.yaml': 'workflowsDir: [services/*/workflows, .]\n',
      'services/a/workflows/alpha.yaml': definition('alpha'),
      'services/b/workflows/beta.yaml': definition('beta'),
      'services/b/workflows/k8s/deploy.yaml': 'apiVersion: v1\nkind: ConfigMap\n',
      'services/b/docker-compose.yml': 'services: {}\n',
      'root.yaml': definition('root'),
    });
    const base = await readBaseDefinitions({
      cwd,
      env: process.env,
      ref: 'main',
      sources: buildDefinitionSources({
        base: cwd,
        workflowsDir: ['services/*/workflows', '.'],
        exclude: ['services/*/workflows/k8s', '**/docker-compose*.yml'],
        configFiles: [join(cwd, 'wfsync.config.yaml')],
      }),
      rules: { severities: {}, notificationGroups: {} } as never,
    });
    expect(base.definitions.map((d) => d.file)).toEqual([
      'root.yaml',
      'services/a/workflows/alpha.yaml',
      'services/b/workflows/beta.yaml',
    ]);
    expect(base.unreadable.size).toBe(0);
  });
});

describe('readBaseDefinitions: what git cannot give is a clear error (exit 64), never a stack', () => {
  async function failure(promise: Promise<unknown>): Promise<GitBaseError> {
    const error = await promise.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GitBaseError);
    expect((error as GitBaseError).exitCode).toBe(ExitCode.Usage);
    return error as GitBaseError;
  }

  it('an unknown ref', async () => {
    const cwd = repo({ 'workflows/alpha.yaml': definition('alpha') });
    expect((await failure(read(cwd, 'no-such-branch'))).message).toBe(
      '--base no-such-branch: git knows no commit by that name.',
    );
  });

  it('a ref that would read as an option', async () => {
    const cwd = repo({ 'workflows/alpha.yaml': definition('alpha') });
    expect((await failure(read(cwd, '--output=/tmp/x'))).message).toBe(
      '--base "--output=/tmp/x" is not a git ref',
    );
  });

  it('not a git repository', async () => {
    const cwd = tempProject();
    expect((await failure(read(cwd))).message).toMatch(
      /is not inside a git work tree, so there is no base to read$/,
    );
  });

  it('a shallow clone without the base: says to fetch it', async () => {
    const origin = repo({ 'workflows/alpha.yaml': definition('alpha') });
    writeFiles(origin, { 'workflows/alpha.yaml': definition('alpha', 'changed') });
    commitAll(origin, 'change');
    const clone = tempProject();
    git(clone, 'clone', '-q', '--depth', '1', '--branch', 'change', `file://${origin}`, '.');
    const message = (await failure(read(clone, 'origin/main'))).message;
    expect(message).toContain('--base origin/main: git knows no commit by that name.');
    expect(message).toContain(
      'This is a shallow clone: fetch the base (actions/checkout with fetch-depth: 0',
    );
  });

  it("git missing from the run's PATH (the run's environment, not the process's)", async () => {
    const cwd = repo({ 'workflows/alpha.yaml': definition('alpha') });
    const env = { ...process.env, PATH: '/nonexistent' };
    expect((await failure(read(cwd, 'main', undefined, env))).message).toBe(
      '--base main: git is not installed (or not on PATH)',
    );
  });
});

describe('resolveBaseRef', () => {
  it('--base wins; else GITHUB_BASE_REF as origin/<name> when that resolves, else <name>; else none', async () => {
    const cwd = repo({ 'workflows/alpha.yaml': definition('alpha') });
    const at = (env: Record<string, string>) => ({ cwd, env: { PATH: process.env.PATH, ...env } });
    const fromEnv = { fromEnv: true };
    expect(await resolveBaseRef('v1', at({ GITHUB_BASE_REF: 'main' }), fromEnv)).toBe('v1');
    expect(await resolveBaseRef(undefined, at({ GITHUB_BASE_REF: 'main' }), fromEnv)).toBe('main');
    expect(await resolveBaseRef(undefined, at({}), fromEnv)).toBeUndefined();
    expect(await resolveBaseRef(undefined, at({ GITHUB_BASE_REF: '' }), fromEnv)).toBeUndefined();
    // sync reads no GITHUB_BASE_REF: only a --base given.
    expect(
      await resolveBaseRef(undefined, at({ GITHUB_BASE_REF: 'main' }), { fromEnv: false }),
    ).toBeUndefined();
    git(cwd, 'update-ref', 'refs/remotes/origin/main', 'main');
    expect(await resolveBaseRef(undefined, at({ GITHUB_BASE_REF: 'main' }), fromEnv)).toBe('origin/main');
  });
});

describe("git runs with the run's environment, at the project's repository", () => {
  /** What locates a repository, pointed at `decoy` (a hook, or a shell left in another repository, sets these). */
  const pointedAt = (decoy: string): Record<string, string> => ({
    GIT_DIR: join(decoy, '.git'),
    GIT_WORK_TREE: decoy,
    GIT_COMMON_DIR: join(decoy, '.git'),
    GIT_INDEX_FILE: join(decoy, '.git/index'),
    GIT_OBJECT_DIRECTORY: join(decoy, '.git/objects'),
    GIT_ALTERNATE_OBJECT_DIRECTORIES: join(decoy, '.git/objects'),
    GIT_NAMESPACE: 'decoy',
  });

  it('GIT_DIR and the rest pointing at another repository: the base is still read from the project', async () => {
    const cwd = repo({ 'workflows/alpha.yaml': definition('alpha', 'the project') });
    const decoy = repo({ 'workflows/alpha.yaml': definition('alpha', 'the decoy') });
    const base = await read(cwd, 'main', undefined, { ...process.env, ...pointedAt(decoy) });
    expect(base.commit).toBe(git(cwd, 'rev-parse', 'main').trim());
    expect(contentOf(base, 'alpha')).toBe('the project');
    // The decoy is a real repository git would have read: given no project, the same variables find it.
    expect(git(cwd, '--git-dir', join(decoy, '.git'), 'rev-parse', 'main').trim()).not.toBe(base.commit);
  });

  it("every git process gets exactly the run's environment, with wfsync's settings, and none of the host's", async () => {
    const cwd = repo({ 'workflows/alpha.yaml': definition('alpha') });
    const decoy = repo({ 'workflows/alpha.yaml': definition('alpha') });
    // A `git` first on the run's PATH that writes down its environment, then runs the real one.
    const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    const bin = tempProject({
      git: `#!/bin/sh\n/usr/bin/env -0 > "$WFSYNC_TEST_LOG/$$"\nexec "${real}" "$@"\n`,
    });
    chmodSync(join(bin, 'git'), 0o755);
    const given = {
      PATH: `${bin}:${process.env.PATH}`,
      WFSYNC_TEST_LOG: bin,
      LC_ALL: 'fr_FR.UTF-8',
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'safe.directory',
      GIT_CONFIG_VALUE_0: '*',
      GIT_CEILING_DIRECTORIES: tmpdir(),
      ...pointedAt(decoy),
    };
    expect(process.env.HOME ?? process.env.USERPROFILE).toBeDefined(); // the host has one; the run does not
    await read(cwd, 'main', undefined, given);
    const seen = readdirSync(bin)
      .filter((name) => name !== 'git')
      .map((name) => {
        const pairs = readFileSync(join(bin, name), 'utf8')
          .split('\0')
          .filter((pair) => pair !== '');
        const env = Object.fromEntries(
          pairs.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
        );
        for (const shell of ['PWD', 'OLDPWD', 'SHLVL', '_']) delete env[shell];
        return env;
      });
    // rev-parse (x4), merge-base, ls-tree, cat-file --batch
    expect(seen.length).toBeGreaterThanOrEqual(7);
    for (const env of seen) {
      expect(env).toEqual({
        PATH: given.PATH,
        WFSYNC_TEST_LOG: bin,
        LC_ALL: 'C',
        GIT_TERMINAL_PROMPT: '0',
        GIT_PAGER: 'cat',
        GIT_CONFIG_COUNT: '1',
        GIT_CONFIG_KEY_0: 'safe.directory',
        GIT_CONFIG_VALUE_0: '*',
        GIT_CEILING_DIRECTORIES: tmpdir(),
      });
    }
  });
});
