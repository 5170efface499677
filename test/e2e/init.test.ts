import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { makeProject, ROOT, runCli } from './helpers.js';

const FILES = [
  'wfsync.config.yaml',
  'workflows/welcome.yaml',
  '.vscode/settings.json',
  '.gitignore',
  '.github/workflows/wfsync-pr.yml',
  '.github/workflows/wfsync-sync.yml',
  '.github/workflows/wfsync-drift.yml',
];
const PACKAGE_JSON = JSON.stringify({ name: 'acme-app', devDependencies: { wfsync: '^0.1.0' } });
const NEXT =
  '\nNext: `wfsync validate`, then `wfsync sync` (the built-in local target: no account needed).\n' +
  "For a real service, fill in the development target in the config and add the Development environment's API key " +
  'as the repository secret WFSYNC_DEVELOPMENT_API_KEY.\n';

/** Every file under `dir` (path → content), to compare a tree before and after. */
function tree(dir: string, root = dir): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) Object.assign(files, tree(path, root));
    else files[relative(root, path)] = readFileSync(path, 'utf8');
  }
  return files;
}

function lines(statuses: Record<string, string>): string {
  return Object.entries(statuses)
    .map(([path, status]) => `${status.padEnd(9)}  ${path}\n`)
    .join('');
}

describe('wfsync init (the built CLI)', () => {
  it('an empty directory: writes every file, one line each, then validate passes and sync creates the example', async () => {
    const cwd = makeProject({ 'package.json': PACKAGE_JSON });
    const result = await runCli(['init'], { cwd });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(lines(Object.fromEntries(FILES.map((f) => [f, 'created']))) + NEXT);
    expect(result.status).toBe(0);
    expect(Object.keys(tree(cwd)).sort()).toEqual([...FILES, 'package.json'].sort());

    const validate = await runCli(['validate', '--max-warnings', '0'], { cwd });
    expect(validate.stdout).toBe('✔ 1 file valid\n');
    expect(validate.status).toBe(0);

    const sync = await runCli(['sync'], { cwd });
    expect(sync.stdout).toMatch(/^\+ created {2}welcome {2}workflows\/welcome\.yaml:4$/m);
    expect(sync.stdout).toContain('Sync: 1 created, 0 in sync, 0 drifted, 0 failed, 0 skipped.');
    expect(sync.status).toBe(0);
    const plan = await runCli(['plan'], { cwd });
    expect(plan.stdout).toContain('No changes. 1 workflow in sync.');
    expect(plan.status).toBe(0);
  });

  it('run twice: the second run changes nothing and says so; every file is byte-identical', async () => {
    const cwd = makeProject({ 'package.json': PACKAGE_JSON });
    expect((await runCli(['init'], { cwd })).status).toBe(0);
    const before = tree(cwd);
    const second = await runCli(['init'], { cwd });
    expect(second.stdout).toBe(
      `${lines(Object.fromEntries(FILES.map((f) => [f, 'unchanged'])))}\nnothing to do: everything is already set up\n`,
    );
    expect(second.status).toBe(0);
    expect(tree(cwd)).toEqual(before);
  });

  it('an existing .vscode/settings.json with comments: merged, comments, other settings and the trailing comma kept', async () => {
    const settings = `// Team editor settings
{
    "editor.formatOnSave": true, // always
    /* YAML */
    "yaml.format.enable": true,
}
`;
    const cwd = makeProject({ 'package.json': PACKAGE_JSON, '.vscode/settings.json': settings });
    const result = await runCli(['init', '--ci', 'none'], { cwd });
    expect(result.stdout).toContain('updated    .vscode/settings.json (merged: added yaml.schemas)\n');
    expect(readFileSync(join(cwd, '.vscode/settings.json'), 'utf8')).toBe(`// Team editor settings
{
    "editor.formatOnSave": true, // always
    /* YAML */
    "yaml.format.enable": true,
    "yaml.schemas": {
        "node_modules/wfsync/schemas/workflow.schema.json": [
            "workflows/**/*.yaml",
            "workflows/**/*.yml"
        ]
    },
}
`);
    expect((await runCli(['init', '--ci', 'none'], { cwd })).stdout).toContain(
      'unchanged  .vscode/settings.json\n',
    );
  });

  it('a settings file that cannot be parsed safely is not touched; the entry to add is printed', async () => {
    const settings = '{\n  "editor.tabSize": 2\n  "oops": true\n}\n';
    const cwd = makeProject({ 'package.json': PACKAGE_JSON, '.vscode/settings.json': settings });
    const result = await runCli(['init', '--ci', 'none'], { cwd });
    expect(result.stdout).toContain(
      'kept       .vscode/settings.json (not merged: it is not valid JSON with comments (expected "," at 3:3))\n',
    );
    expect(result.stdout).toContain(
      '\n.vscode/settings.json was left as it is; add this to it by hand:\n' +
        '  "yaml.schemas": {\n    "node_modules/wfsync/schemas/workflow.schema.json": [\n' +
        '      "workflows/**/*.yaml",\n      "workflows/**/*.yml"\n    ]\n  }\n',
    );
    expect(result.status).toBe(0);
    expect(readFileSync(join(cwd, '.vscode/settings.json'), 'utf8')).toBe(settings);
  });

  it('an existing .gitignore: the entries are appended once, and ignore exactly the local-only files', async () => {
    const cwd = makeProject({ 'package.json': PACKAGE_JSON, '.gitignore': 'node_modules/\n' });
    expect(spawnSync('git', ['init', '-q'], { cwd }).status).toBe(0);
    const first = await runCli(['init', '--ci', 'none'], { cwd });
    expect(first.stdout).toContain('updated    .gitignore (merged: 6 entries added)\n');
    await runCli(['init', '--ci', 'none'], { cwd });
    const gitignore = readFileSync(join(cwd, '.gitignore'), 'utf8');
    expect(gitignore.startsWith('node_modules/\n\n# wfsync: local-only files.')).toBe(true);
    expect(gitignore.match(/^\.wfsync\/local-service\.json$/gm)).toHaveLength(1);

    // What git makes of them: the local target's files, locks and temp files are ignored; a real target's
    // state is not (a team may commit it).
    expect((await runCli(['sync', '--quiet'], { cwd })).status).toBe(0);
    mkdirSync(join(cwd, '.wfsync/state'), { recursive: true });
    for (const f of [
      'development.json',
      'development.json.lock',
      'development.json.lock.takeover',
      'development.json.123.0a1b2c3d.tmp',
    ]) {
      writeFileSync(join(cwd, '.wfsync/state', f), '{}');
    }
    const status = spawnSync('git', ['status', '--porcelain', '--untracked-files=all'], {
      cwd,
      encoding: 'utf8',
    });
    const untracked = status.stdout.split('\n').filter((l) => l.includes('.wfsync'));
    expect(untracked).toEqual(['?? .wfsync/state/development.json']);
    expect(tree(join(cwd, '.wfsync'))).toHaveProperty(['local-service.json']);
    expect(tree(join(cwd, '.wfsync'))).toHaveProperty(['state/local.json']);
  });

  it('an existing wfsync.config.yaml is kept; --force replaces it', async () => {
    const config = 'workflowsDir: workflows\ndefaultTarget: local\n';
    const cwd = makeProject({ 'package.json': PACKAGE_JSON, 'wfsync.config.yaml': config });
    const kept = await runCli(['init', '--ci', 'none'], { cwd });
    expect(kept.stdout.split('\n')[0]).toBe('kept       wfsync.config.yaml (exists; --force to replace)');
    expect(readFileSync(join(cwd, 'wfsync.config.yaml'), 'utf8')).toBe(config);
    const again = await runCli(['init', '--ci', 'none'], { cwd });
    expect(again.stdout).toMatch(/\nnothing changed: 1 file kept as it was \(--force replaces it\)\n$/);

    const forced = await runCli(['init', '--ci', 'none', '--force'], { cwd });
    expect(forced.stdout.split('\n')[0]).toBe('replaced   wfsync.config.yaml');
    // wfsync is listed but not installed: no modeline naming a file that is not there.
    expect(readFileSync(join(cwd, 'wfsync.config.yaml'), 'utf8')).toMatch(/^# wfsync: workflow definitions/);
    expect((await runCli(['init', '--ci', 'none'], { cwd })).stdout).toMatch(
      /nothing to do: everything is already set up\n$/,
    );
  });

  it('an existing config names the workflows directory; the example goes there, and validate finds it', async () => {
    const cwd = makeProject({
      'package.json': PACKAGE_JSON,
      'wfsync.config.yaml': 'workflowsDir: notifications\n',
    });
    const result = await runCli(['init', '--ci', 'none'], { cwd });
    expect(result.stdout).toContain('created    notifications/welcome.yaml\n');
    expect(JSON.parse(readFileSync(join(cwd, '.vscode/settings.json'), 'utf8'))['yaml.schemas']).toEqual({
      'node_modules/wfsync/schemas/workflow.schema.json': [
        'notifications/**/*.yaml',
        'notifications/**/*.yml',
      ],
    });
    expect((await runCli(['validate'], { cwd })).stdout).toBe('✔ 1 file valid\n');
  });

  it('--dir: the config, the example and the editor globs use it; a workflows directory with definitions gets no example', async () => {
    const cwd = makeProject({ 'package.json': PACKAGE_JSON, 'defs/billing/existing.yml': 'name: x\n' });
    const result = await runCli(['init', '--dir', 'defs', '--ci', 'none'], { cwd });
    expect(result.stdout).toContain('skipped    defs/welcome.yaml (defs/ already has definitions)\n');
    expect(parse(readFileSync(join(cwd, 'wfsync.config.yaml'), 'utf8'))).toEqual({
      workflowsDir: 'defs',
      defaultTarget: 'local',
    });
    for (const bad of ['.', '..', '/']) {
      const refused = await runCli(['init', '--dir', bad], { cwd });
      expect(refused.stderr).toMatch(/^wfsync: --dir must be (a subdirectory|inside the current directory)/);
      expect(refused.status).toBe(64);
    }
  });

  it('a repository with its own schemas/: the editor settings and modelines point there', async () => {
    const cwd = makeProject({
      'package.json': JSON.stringify({ name: 'wfsync' }),
      'schemas/workflow.schema.json': readFileSync(join(ROOT, 'schemas/workflow.schema.json'), 'utf8'),
    });
    await runCli(['init', '--ci', 'none'], { cwd });
    expect(JSON.parse(readFileSync(join(cwd, '.vscode/settings.json'), 'utf8'))['yaml.schemas']).toEqual({
      './schemas/workflow.schema.json': ['workflows/**/*.yaml', 'workflows/**/*.yml'],
    });
    expect(readFileSync(join(cwd, 'workflows/welcome.yaml'), 'utf8').split('\n')[0]).toBe(
      '# yaml-language-server: $schema=../schemas/workflow.schema.json',
    );
    expect(readFileSync(join(cwd, 'wfsync.config.yaml'), 'utf8').split('\n')[0]).toBe(
      '# yaml-language-server: $schema=./schemas/config.schema.json',
    );
  });

  it('--schema-path overrides the detection', async () => {
    const cwd = makeProject({ 'package.json': PACKAGE_JSON });
    await runCli(['init', '--ci', 'none', '--schema-path', 'vendor/wfsync/workflow.schema.json'], { cwd });
    expect(
      Object.keys(JSON.parse(readFileSync(join(cwd, '.vscode/settings.json'), 'utf8'))['yaml.schemas']),
    ).toEqual(['vendor/wfsync/workflow.schema.json']);
    expect(readFileSync(join(cwd, 'workflows/welcome.yaml'), 'utf8').split('\n')[0]).toBe(
      '# yaml-language-server: $schema=../vendor/wfsync/workflow.schema.json',
    );
  });

  it('no package.json, or one without wfsync: says how to install it', async () => {
    const none = await runCli(['init', '--ci', 'gitlab'], { cwd: makeProject({}) });
    expect(none.stdout).toContain(
      '\nnote: there is no package.json here: the GitLab jobs run `npm ci` and `npx wfsync`',
    );
    // The GitHub recipes run the action's own pinned wfsync: only the editor needs the package.
    const github = await runCli(['init', '--ci', 'github'], { cwd: makeProject({}) });
    expect(github.stdout).not.toContain('npm ci');
    const without = await runCli(['init'], { cwd: makeProject({ 'package.json': '{"name": "app"}' }) });
    expect(without.stdout).toContain(
      '\nnote: wfsync is not a dependency in package.json: `npm install --save-dev wfsync`',
    );
  });

  it('--help shows the options and examples; a bad --ci is a usage error', async () => {
    const help = await runCli(['init', '--help'], { cwd: makeProject({}) });
    expect(help.stdout).toContain('--ci <provider>');
    expect(help.stdout).toContain('Examples:');
    expect(help.status).toBe(0);
    const bad = await runCli(['init', '--ci', 'jenkins'], { cwd: makeProject({}) });
    expect(bad.stderr).toContain("option '--ci <provider>' argument 'jenkins' is invalid");
    expect(bad.status).toBe(64);
  });

  it('the config’s modeline as the example’s: none before install (--verbose says why), the installed schema after', async () => {
    const cwd = makeProject({ 'package.json': PACKAGE_JSON });
    const before = await runCli(['init', '--ci', 'gitlab', '--verbose'], { cwd });
    expect(before.status).toBe(0);
    const config = readFileSync(join(cwd, 'wfsync.config.yaml'), 'utf8');
    expect(config.split('\n')[0]).toBe(
      '# wfsync: workflow definitions kept as code. `wfsync help` lists the commands.',
    );
    expect(before.stderr).toBe(
      'wfsync: no schema modeline in wfsync.config.yaml: wfsync is not installed here (npm install --save-dev ' +
        'wfsync) and the repository has no schemas/config.schema.json; once installed, make its first line ' +
        '`# yaml-language-server: $schema=./node_modules/wfsync/schemas/config.schema.json`\n' +
        'wfsync: no schema modeline in workflows/welcome.yaml: .vscode/settings.json maps it to the schema (a ' +
        'modeline would override the mapping)\n',
    );
    // Under --ci gitlab the commented target names the GitLab jobs and their variable, not .github/workflows.
    expect(config).toContain('# The GitLab jobs in .gitlab/wfsync.gitlab-ci.yml use this target');
    expect(config).not.toContain('.github/workflows');

    // Installed: both files name the package's schemas, which are there; --verbose has nothing to explain.
    const installed = makeProject({ 'package.json': PACKAGE_JSON });
    for (const file of ['workflow.schema.json', 'config.schema.json']) {
      mkdirSync(join(installed, 'node_modules/wfsync/schemas'), { recursive: true });
      writeFileSync(
        join(installed, 'node_modules/wfsync/schemas', file),
        readFileSync(join(ROOT, 'schemas', file)),
      );
    }
    const after = await runCli(['init', '--ci', 'none', '--verbose'], { cwd: installed });
    expect(after.stderr).toBe('');
    const first = readFileSync(join(installed, 'wfsync.config.yaml'), 'utf8').split('\n')[0]!;
    expect(first).toBe('# yaml-language-server: $schema=./node_modules/wfsync/schemas/config.schema.json');
    const named = first.slice(first.indexOf('=') + 1);
    expect(readFileSync(join(installed, named), 'utf8')).toContain('"$id"');
    expect(readFileSync(join(installed, 'workflows/welcome.yaml'), 'utf8').split('\n')[0]).toBe(
      '# yaml-language-server: $schema=../node_modules/wfsync/schemas/workflow.schema.json',
    );
  });
});
