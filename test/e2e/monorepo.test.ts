import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { validNumbered } from '../fixtures/workflow-texts.js';
import { makeProject, runCli } from './helpers.js';

/**
 * A monorepo: one config at the root, three service folders (`services/<name>/workflows`), and YAML that is not a
 * definition: a Kubernetes manifest beside a service's workflows, another inside one (excluded), a docker-compose
 * file at the root. Through the built CLI: validate, plan and sync (the `local` target, the embedded emulator) read
 * the listed folders only, take paths, and check identifiers across all of them.
 */

const CONFIG = 'workflowsDir: [services/*/workflows]\nexclude: [services/*/workflows/manifests]\n';

function monorepo(config = CONFIG): string {
  return makeProject({
    'wfsync.config.yaml': config,
    'services/a/workflows/one.yaml': validNumbered(1),
    'services/a/workflows/two.yaml': validNumbered(2),
    'services/b/workflows/three.yaml': validNumbered(3),
    'services/c/workflows/four.yaml': validNumbered(4),
    'services/c/workflows/manifests/configmap.yaml':
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n',
    'services/a/k8s/deployment.yaml':
      'apiVersion: apps/v1\nkind: Deployment\n---\napiVersion: v1\nkind: Service\n',
    'docker-compose.yml': 'services:\n  web:\n    image: nginx\n',
  });
}

describe('a monorepo with three service folders and unrelated YAML', () => {
  it('validate reads the listed folders only: not the config, the manifests or the compose file', async () => {
    const cwd = monorepo();
    expect(await runCli(['validate'], { cwd })).toMatchObject({ status: 0, stdout: '✔ 4 files valid\n' });
    const json = await runCli(['validate', '--format', 'json'], { cwd });
    expect(JSON.parse(json.stdout).summary.files).toBe(4);
    // `workflowsDir: .` never reads the config file as a definition.
    const root = monorepo(
      'workflowsDir: .\nexclude: [services/*/workflows/manifests, services/a/k8s, docker-compose.yml]\n',
    );
    expect(await runCli(['validate'], { cwd: root })).toMatchObject({
      status: 0,
      stdout: '✔ 4 files valid\n',
    });
  });

  it('unrelated YAML inside a listed folder is one clear error, not a schema error per key, until excluded', async () => {
    const cwd = monorepo('workflowsDir: [services/*/workflows, services/a/k8s]\n');
    const result = await runCli(['validate'], { cwd });
    expect(result.stdout).toContain(
      'services/a/k8s/deployment.yaml:1:1 error not a workflow definition: it looks like a Kubernetes manifest (apiVersion, kind)',
    );
    expect(result.stdout).toContain(
      'services/c/workflows/manifests/configmap.yaml:1:1 error not a workflow definition: it looks like a Kubernetes manifest',
    );
    expect(result.stdout).toContain('add it (or its folder) to `exclude` in wfsync.config.yaml');
    expect(result.stdout).toContain('✖ 2 problems (2 errors, 0 warnings) in 2 of 6 files');
    expect(result.status).toBe(3);
  });

  it('validate takes paths; a path that is not a definition of the project is named on stderr and not read', async () => {
    const cwd = monorepo();
    const result = await runCli(
      [
        'validate',
        'services/a/workflows/one.yaml',
        'docker-compose.yml',
        'services/a/k8s',
        'wfsync.config.yaml',
      ],
      { cwd },
    );
    expect(result.stdout).toBe('✔ 1 file valid\n');
    expect(result.stderr).toBe(
      'wfsync: not checked, not workflow definitions of this project:\n' +
        '  docker-compose.yml (outside workflowsDir (services/*/workflows) in wfsync.config.yaml)\n' +
        '  services/a/k8s (outside workflowsDir (services/*/workflows) in wfsync.config.yaml)\n' +
        '  wfsync.config.yaml (the config file)\n',
    );
    expect(result.status).toBe(0);
    const excluded = await runCli(['validate', 'services/c/workflows/manifests/configmap.yaml'], { cwd });
    expect(excluded.stderr).toContain('services/c/workflows/manifests/configmap.yaml (matched by exclude)');
    expect(excluded.status).toBe(0);
    // A folder above the listed ones takes the definitions under it.
    expect((await runCli(['validate', 'services'], { cwd })).stdout).toBe('✔ 4 files valid\n');
  });

  it('one config at the root serves a subfolder: found from there, its paths relative to it', async () => {
    const cwd = monorepo();
    const sub = join(cwd, 'services/b');
    expect(await runCli(['validate'], { cwd: sub })).toMatchObject({
      status: 0,
      stdout: '✔ 4 files valid\n',
    });
    writeFileSync(join(cwd, 'services/b/workflows/three.yaml'), validNumbered(1));
    const result = await runCli(['validate', 'workflows'], { cwd: sub });
    expect(result.stdout).toContain(
      'workflows/three.yaml:9:17 error identifier `order-shipped-1` is also used by ../a/workflows/one.yaml:9',
    );
    expect(result.status).toBe(3);
  });

  it('a duplicate identifier across folders: both positions, and from either file alone the other is named', async () => {
    const cwd = monorepo();
    writeFileSync(join(cwd, 'services/c/workflows/copy.yaml'), `# a copy\n${validNumbered(1)}`);
    const all = await runCli(['validate'], { cwd });
    expect(all.stdout).toContain(
      'services/a/workflows/one.yaml:9:17 error identifier `order-shipped-1` is also used by services/c/workflows/copy.yaml:10',
    );
    expect(all.stdout).toContain(
      'services/c/workflows/copy.yaml:10:17 error identifier `order-shipped-1` is also used by services/a/workflows/one.yaml:9',
    );
    expect(all.status).toBe(3);

    for (const cache of [[], ['--cache']]) {
      const one = await runCli(['validate', ...cache, 'services/c/workflows/copy.yaml'], { cwd });
      expect(one.stdout).toContain(
        'services/c/workflows/copy.yaml:10:17 error identifier `order-shipped-1` is also used by services/a/workflows/one.yaml:9',
      );
      // The other file is not what was asked about: its own finding is not reported.
      expect(one.stdout).not.toContain('services/a/workflows/one.yaml:9:17');
      expect(one.stdout).toContain('✖ 1 problem (1 error, 0 warnings) in 1 of 1 file');
      expect(one.status).toBe(3);
    }
    // plan and sync refuse it too, before any request; a service folder the clash is not in plans as usual.
    expect(await runCli(['plan', 'services/c/workflows', '--quiet'], { cwd })).toMatchObject({ status: 3 });
    expect(await runCli(['plan', 'services/b/workflows', '--quiet'], { cwd })).toMatchObject({ status: 2 });
  });

  it('plan and sync with paths act on those definitions only; the others are never orphans', async () => {
    const cwd = monorepo();
    const planA = await runCli(['plan', 'services/a/workflows', '--quiet'], { cwd });
    expect(planA.stdout).toContain('Plan: 2 to create, 0 in sync.');
    expect(planA.stdout).not.toContain('order-shipped-3');
    expect(planA.status).toBe(2);

    const syncA = await runCli(['sync', 'services/a/workflows', '--quiet'], { cwd });
    expect(syncA.stdout).toContain('Sync: 2 created, 0 in sync, 0 drifted, 0 failed, 0 skipped.');
    expect(syncA.status).toBe(0);

    // b's plan neither sees a's workflows (recorded in state) as orphans nor plans c's.
    rmSync(join(cwd, 'services/a/workflows/one.yaml'));
    const planB = await runCli(['plan', 'services/b/workflows/three.yaml', '--quiet'], { cwd });
    expect(planB.stdout).toContain('Plan: 1 to create, 0 in sync.');
    expect(planB.stdout).not.toContain('orphaned');
    expect(planB.status).toBe(2);

    // The whole project: a's removed workflow is to be deleted now (the local target allows deletes).
    const whole = await runCli(['plan', '--quiet'], { cwd });
    expect(whole.stdout).toContain('Plan: 2 to create, 1 to delete, 1 in sync.');
    expect(whole.status).toBe(2);

    const syncRest = await runCli(['sync', 'services/b/workflows', 'services/c/workflows', '--quiet'], {
      cwd,
    });
    expect(syncRest.stdout).toContain('Sync: 2 created, 0 in sync, 0 drifted, 0 failed, 0 skipped.');
    expect(syncRest.status).toBe(0);
  });

  it('plan and sync refuse a path that is not a definition of the project (usage error)', async () => {
    const cwd = monorepo();
    for (const command of ['plan', 'sync']) {
      const result = await runCli([command, 'services/a/workflows', 'docker-compose.yml'], { cwd });
      expect(result.stderr).toContain(
        'not workflow definitions of this project: docker-compose.yml (outside workflowsDir (services/*/workflows) in wfsync.config.yaml)',
      );
      expect(result.status).toBe(64);
    }
  });

  it('new: glob-only workflowsDir without --dir is a usage error naming the folders; with --dir, identifiers are checked project-wide', async () => {
    const cwd = monorepo();
    const refused = await runCli(['new', 'invoice paid'], { cwd });
    expect(refused.stderr).toBe(
      'wfsync: workflowsDir (services/*/workflows) in wfsync.config.yaml lists only patterns, so new does not know ' +
        'where the definition goes: choose one with --dir: services/a/workflows, services/b/workflows, ' +
        'services/c/workflows\n',
    );
    expect(refused.status).toBe(64);
    expect(existsSync(join(cwd, 'services/invoice-paid.yaml'))).toBe(false);
    expect(readdirSync(join(cwd, 'services'))).toEqual(['a', 'b', 'c']);

    // services/a holds order-shipped-1: a new definition in services/b may not take it.
    const duplicate = await runCli(['new', 'order shipped 1', '--dir', 'services/b/workflows'], { cwd });
    expect(duplicate.stderr).toBe(
      'wfsync: the identifier "order-shipped-1" is already used by services/a/workflows/one.yaml: choose another name\n',
    );
    expect(duplicate.status).toBe(64);
    expect(existsSync(join(cwd, 'services/b/workflows/order-shipped-1.yaml'))).toBe(false);

    const created = await runCli(['new', 'invoice paid', '--dir', 'services/b/workflows'], { cwd });
    expect(created.stdout).toBe(
      'created services/b/workflows/invoice-paid.yaml (identifier invoice-paid, one in_app step)\n',
    );
    expect(await runCli(['validate'], { cwd })).toMatchObject({ status: 0, stdout: '✔ 5 files valid\n' });
  });

  it('new: a list of folders writes to the first and checks identifiers in every one', async () => {
    const cwd = monorepo('workflowsDir: [services/a/workflows, services/c/workflows]\n');
    const duplicate = await runCli(['new', 'order shipped 4'], { cwd });
    expect(duplicate.stderr).toBe(
      'wfsync: the identifier "order-shipped-4" is already used by services/c/workflows/four.yaml: choose another name\n',
    );
    expect(duplicate.status).toBe(64);
    const created = await runCli(['new', 'order shipped 5'], { cwd });
    expect(created.stdout).toBe(
      'created services/a/workflows/order-shipped-5.yaml (identifier order-shipped-5, one in_app step)\n',
    );
  });
});

describe('preview in a monorepo', () => {
  it('renders the workflows of every listed folder, by identifier too, and never the excluded or unrelated YAML', async () => {
    const cwd = monorepo();
    const all = await runCli(['preview', '--format', 'json'], { cwd });
    expect(all.status).toBe(0);
    const files = JSON.parse(all.stdout).workflows.map((w: { file: string }) => w.file);
    expect(files).toEqual([
      'services/a/workflows/one.yaml',
      'services/a/workflows/two.yaml',
      'services/b/workflows/three.yaml',
      'services/c/workflows/four.yaml',
    ]);
    // An identifier found in the third folder; the first folder alone would not have it.
    const identifier = JSON.parse(all.stdout).workflows[3].identifier as string;
    const one = await runCli(['preview', identifier, '--format', 'json'], { cwd });
    expect(one.status).toBe(0);
    expect(JSON.parse(one.stdout).workflows.map((w: { file: string }) => w.file)).toEqual([
      'services/c/workflows/four.yaml',
    ]);
  });
});

describe('no folder to search', () => {
  it('validate and preview say which folder is missing and how to fix it (exit 64)', async () => {
    const plain = makeProject({ 'README.md': 'nothing here\n' });
    for (const command of [['validate'], ['preview']]) {
      const result = await runCli(command, { cwd: plain });
      expect(result.status).toBe(64);
      expect(result.stderr).toContain(
        'no workflow definitions: the workflows directory workflows/ does not exist (create it, set workflowsDir in wfsync.config.yaml, or pass paths)',
      );
    }
    const listed = makeProject({ 'wfsync.config.yaml': 'workflowsDir: [services/a, services/b]\n' });
    const result = await runCli(['validate'], { cwd: listed });
    expect(result.status).toBe(64);
    expect(result.stderr).toContain('no workflow definitions: no folder of workflowsDir');
  });
});
