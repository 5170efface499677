import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { validNumbered } from '../fixtures/workflow-texts.js';
import { git } from '../helpers/git.js';
import { ROOT } from './helpers.js';
import { extractBlocks } from './readme-blocks.js';

/**
 * The wfsync-validate hook (.pre-commit-hooks.yaml) through Debian's real `pre-commit`, installed the way it
 * installs any `language: node` hook: nodeenv over the system node, `npm install` in the hook repository, `npm pack`
 * (whose stdout it reads as the tarball's name), `npm install -g` of that tarball from the registry (or npm's cache).
 * The hook repository is this one as a release tag would hold it: the built dist/ committed beside bin/, schemas/
 * and the manifest, without the development toolchain (devDependencies, the build script), so the install needs the
 * runtime dependencies alone. `pre-commit try-repo` runs the hook against a sample repository; then the hook is
 * installed in it and `git commit` runs it on the staged files.
 */

const available = spawnSync('pre-commit', ['--version'], { encoding: 'utf8' });
const missing =
  available.error !== undefined ? 'pre-commit is not installed (apt-get install pre-commit)' : undefined;
if (missing && process.env.CI) throw new Error(`${missing}: CI must run this test`);
if (missing) console.log(`skipped: ${missing}`);

/** The page that shows the hook snippets (docs/guides/adopting.md, "Git hooks"). */
const HOOKS_PAGE = 'docs/guides/adopting.md';

/** The page's block written under the `write <file>` directive: the hook snippets as users copy them. */
function pageSnippet(file: string): string {
  const blocks = extractBlocks(readFileSync(join(ROOT, HOOKS_PAGE), 'utf8'), HOOKS_PAGE).filter((block) =>
    block.directives.some((d) => d.kind === 'write' && d.file === file),
  );
  if (blocks.length !== 1)
    throw new Error(`${HOOKS_PAGE}: ${blocks.length} blocks written as ${file}, expected 1`);
  return blocks[0]!.body;
}

interface PreCommitConfig {
  repos: { repo: string; rev: string; hooks: { id: string }[] }[];
}
interface LefthookConfig {
  'pre-commit': { commands: Record<string, { glob: string; run: string }> };
}
interface LintStagedConfig {
  'lint-staged': Record<string, string>;
}

let base: string;
let hookRepo: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  if (missing) return;
  base = mkdtempSync(join(tmpdir(), 'wfsync-pre-commit-'));
  hookRepo = join(base, 'hook');
  for (const path of ['bin', 'dist', 'schemas', 'README.md', '.pre-commit-hooks.yaml']) {
    cpSync(join(ROOT, path), join(hookRepo, path), {
      recursive: true,
      filter: (source) => !source.endsWith('.map'),
    });
  }
  const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
  const { devDependencies: _dev, scripts: _scripts, ...release } = manifest;
  writeFileSync(join(hookRepo, 'package.json'), `${JSON.stringify(release, null, 2)}\n`);
  git(hookRepo, 'init', '-q', '-b', 'main');
  git(hookRepo, 'add', '-A', '-f');
  git(hookRepo, 'commit', '-q', '-m', 'release');
  env = {
    ...process.env,
    PRE_COMMIT_HOME: join(base, 'pre-commit-home'),
    // The registry is slow from here: what npm already holds is taken without asking it again.
    npm_config_prefer_offline: 'true',
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    NO_COLOR: '1',
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@e',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@e',
  };
}, 60_000);

afterAll(() => {
  if (base) rmSync(base, { recursive: true, force: true });
});

/** A sample repository: three committed definitions, a config, and YAML that is not a definition. */
function sampleRepo(): string {
  const repo = join(base, `sample-${Math.random().toString(16).slice(2)}`);
  const files: Record<string, string> = {
    'wfsync.config.yaml': 'workflowsDir: [services/*/workflows]\n',
    'services/a/workflows/one.yaml': validNumbered(1),
    'services/b/workflows/two.yaml': validNumbered(2),
    'deploy/k8s.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, path)), { recursive: true });
    writeFileSync(join(repo, path), text);
  }
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'init');
  return repo;
}

function run(command: string, args: string[], cwd: string) {
  const result = spawnSync(command, args, { cwd, env, encoding: 'utf8', timeout: 900_000 });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe.skipIf(missing !== undefined)('pre-commit: the wfsync-validate hook', () => {
  it('try-repo: a duplicate identifier in a file that is not staged fails the staged file, naming both', () => {
    const repo = sampleRepo();
    mkdirSync(join(repo, 'services/c/workflows'), { recursive: true });
    writeFileSync(join(repo, 'services/c/workflows/three.yaml'), validNumbered(3));
    // An unstaged draft elsewhere in the project declares the same identifier as the new file.
    writeFileSync(join(repo, 'services/a/workflows/draft.yaml'), validNumbered(3));
    git(repo, 'add', 'services/c/workflows/three.yaml');

    const files = ['services/c/workflows/three.yaml', 'deploy/k8s.yaml'];
    const caught = run('pre-commit', ['try-repo', hookRepo, 'wfsync-validate', '--files', ...files], repo);
    expect(caught.output).toContain('wfsync validate');
    expect(caught.output).toMatch(
      /services\/c\/workflows\/three\.yaml:9:17 error identifier `order-shipped-3` is also used by services\/a\/workflows\/draft\.yaml:9/,
    );
    // The Kubernetes manifest pre-commit also passed is named and skipped, not read as a definition.
    expect(caught.output).toContain('deploy/k8s.yaml (outside workflowsDir (services/*/workflows)');
    expect(caught.output).not.toContain('draft.yaml:9:17');
    expect(caught.status).toBe(1);
  }, 900_000);

  it('installed as a git hook: a clean commit goes through, one whose file clashes with a committed one is refused', () => {
    const repo = sampleRepo();
    const rev = git(hookRepo, 'rev-parse', 'HEAD').trim();
    // The page's config, pointed at this release's hook repository instead of the published one.
    const config = parseYaml(pageSnippet('.pre-commit-config.yaml')) as PreCommitConfig;
    expect(config.repos).toHaveLength(1);
    expect(config.repos[0]!.hooks).toEqual([{ id: 'wfsync-validate' }]);
    const snippet = pageSnippet('.pre-commit-config.yaml')
      .replace(config.repos[0]!.repo, hookRepo)
      .replace(/rev: \S+/, `rev: ${rev}`);
    writeFileSync(join(repo, '.pre-commit-config.yaml'), snippet);
    expect(run('pre-commit', ['install'], repo).status).toBe(0);
    writeFileSync(join(repo, 'services/b/workflows/copy.yaml'), validNumbered(1));
    writeFileSync(join(repo, 'services/b/workflows/new.yaml'), validNumbered(4));
    git(repo, 'add', '.pre-commit-config.yaml', 'services/b/workflows/new.yaml');

    // Not the duplicate's fault yet: only new.yaml is staged and it is unique.
    const clean = run('git', ['commit', '-m', 'add four'], repo);
    expect(clean.output).toMatch(/wfsync validate\.+Passed/);
    expect(clean.status).toBe(0);

    // Staging an edit whose identifier a committed file already declares is refused, with both positions.
    writeFileSync(join(repo, 'services/b/workflows/new.yaml'), validNumbered(2));
    git(repo, 'add', 'services/b/workflows/new.yaml');
    const refused = run('git', ['commit', '-m', 'clash'], repo);
    expect(refused.output).toMatch(/wfsync validate\.+Failed/);
    expect(refused.output).toMatch(
      /services\/b\/workflows\/new\.yaml:9:17 error identifier `order-shipped-2` is also used by services\/b\/workflows\/two\.yaml:9/,
    );
    expect(refused.status).not.toBe(0);
    expect(git(repo, 'log', '--format=%s')).toBe('add four\ninit\n');
  }, 900_000);
});

/**
 * The page's lefthook, husky and lint-staged snippets: the exact command each runs, in a sample repository where
 * wfsync is installed as a project dependency (node_modules/.bin/wfsync, what `npm install --save-dev` makes), with
 * the file list each tool passes (lefthook `{staged_files}`: relative; lint-staged: absolute; husky: git's list).
 */
describe('the hook snippets of docs/guides/adopting.md: the command each runs', () => {
  function hookProject(): string {
    const repo = mkdtempSync(join(tmpdir(), 'wfsync-hooks-'));
    const files: Record<string, string> = {
      'package.json': '{ "name": "sample", "private": true }\n',
      'node_modules/.bin/wfsync': `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin/wfsync.cjs')}" "$@"\n`,
      'workflows/one.yaml': validNumbered(1),
      'workflows/two.yaml': validNumbered(2),
      'k8s/deploy.yaml': 'apiVersion: v1\nkind: ConfigMap\n',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(repo, path)), { recursive: true });
      writeFileSync(join(repo, path), text, { mode: 0o755 });
    }
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'add', 'workflows/one.yaml', 'workflows/two.yaml');
    git(repo, 'commit', '-q', '-m', 'init');
    return repo;
  }
  const sh = (command: string, cwd: string) => {
    const result = spawnSync('sh', ['-c', command], {
      cwd,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', npm_config_offline: 'true', npm_config_update_notifier: 'false' },
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
  };

  it('lefthook, husky and lint-staged: pass when clean, fail on a staged duplicate of an unstaged file', () => {
    const repo = hookProject();
    writeFileSync(join(repo, 'workflows/three.yaml'), validNumbered(3));
    git(repo, 'add', 'workflows/three.yaml', 'k8s/deploy.yaml');
    const staged = ['workflows/three.yaml', 'k8s/deploy.yaml'];
    const lefthook = (parseYaml(pageSnippet('lefthook.yml')) as LefthookConfig)['pre-commit'].commands
      .wfsync!;
    expect(lefthook.glob).toBe('*.{yaml,yml}');
    const [lintStagedCommand, ...others] = Object.values(
      (JSON.parse(pageSnippet('lint-staged.json')) as LintStagedConfig)['lint-staged'],
    );
    expect(others).toEqual([]);
    const commands = {
      // lefthook replaces {staged_files} with the staged paths matching its glob, relative to the root.
      lefthook: lefthook.run.replace('{staged_files}', staged.join(' ')),
      husky: pageSnippet('husky-pre-commit').trim(),
      // lint-staged runs its command from node_modules/.bin with the absolute paths appended.
      'lint-staged': `PATH="${join(repo, 'node_modules/.bin')}:$PATH" ${lintStagedCommand} ${staged
        .map((file) => join(repo, file))
        .join(' ')}`,
    };
    for (const command of Object.values(commands)) {
      const clean = sh(command, repo);
      expect(clean.stdout, command).toBe('✔ 1 file valid\n');
      expect(clean.stderr, command).toContain('k8s/deploy.yaml (outside workflowsDir (workflows))');
      expect(clean.status, command).toBe(0);
    }
    writeFileSync(join(repo, 'workflows/draft.yaml'), validNumbered(3));
    for (const [tool, command] of Object.entries(commands)) {
      const caught = sh(command, repo);
      expect(caught.stdout, command).toContain(
        'workflows/three.yaml:9:17 error identifier `order-shipped-3` is also used by workflows/draft.yaml:9',
      );
      // xargs reports a command's failure (exit 1–125) as its own 123; git sees a failure either way.
      expect(caught.status, command).toBe(tool === 'husky' ? 123 : 3);
    }
  });
});
