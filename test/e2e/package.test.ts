import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { parseSync } from 'rolldown/utils';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ROOT } from './helpers.js';

/**
 * The package as users get it: what `npm pack` puts in the tarball, and the tarball installed into a fresh
 * project with npm (which fetches the dependencies from the registry, or its cache), then run through npx.
 * `npm test` builds dist/ first; packing here uses --ignore-scripts so that it does not rebuild dist/ under the
 * other e2e tests (a real `npm pack`/`npm publish` builds it through the `prepare` script).
 */

const run = promisify(execFile);
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  license: string;
  dependencies: Record<string, string>;
};

/** npm and npx with the user's environment minus what `npm test` sets for its own run (npm_*), no colours. */
function npm(command: 'npm' | 'npx', args: string[], cwd: string) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('npm_')));
  return run(command, args, {
    cwd,
    env: { ...env, NO_COLOR: '1', TZ: 'UTC', CI: 'true', npm_config_update_notifier: 'false' },
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** npx wfsync …, resolving with the exit status instead of rejecting on a non-zero one. */
async function wfsync(
  args: string[],
  cwd: string,
): Promise<{ status: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await npm('npx', ['wfsync', ...args], cwd);
    return { status: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { status: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

/** What a built module imports, statically, re-exported or through `import('…')`, as written (oxc's module record). */
function importedSpecifiers(file: string, code: string): string[] {
  const { module, errors } = parseSync(file, code);
  expect(errors, file).toEqual([]);
  const fromDynamic = module.dynamicImports.flatMap(({ moduleRequest: { start, end } }) => {
    const literal = /^(['"`])([^'"`$\\]*)\1$/.exec(code.slice(start, end));
    return literal ? [literal[2]!] : [];
  });
  return [
    ...module.staticImports.map((i) => i.moduleRequest.value),
    ...module.staticExports.flatMap((e) =>
      e.entries.flatMap((x) => (x.moduleRequest ? [x.moduleRequest.value] : [])),
    ),
    ...fromDynamic,
  ];
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split('\\').join('/'));
}

describe('the npm package', () => {
  it('npm pack: only what users need — the built code, schemas, README, licence; no sources, tests or maps', async () => {
    const { stdout } = await npm('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], ROOT);
    const [packed] = JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>;
    const files = packed!.files.map((f) => f.path).sort();

    const outside = files.filter(
      (f) => !/^(action|bin|dist|schemas)\//.test(f) && !/^(README\.md|LICENSE|package\.json)$/.test(f),
    );
    expect(outside).toEqual([]);
    expect(files.filter((f) => f.endsWith('.map') || f.endsWith('.ts'))).toEqual([]);
    for (const needed of [
      'LICENSE',
      'README.md',
      'bin/wfsync.js',
      'dist/cli.js',
      'action/run.mjs',
      'schemas/workflow.schema.json',
      'schemas/config.schema.json',
    ])
      expect(files).toContain(needed);
    // dist/ is a bundle (scripts/build.mjs): every chunk a packed file imports is packed too. A stale or partial
    // dist/ would ship a broken CLI.
    const unresolved: string[] = [];
    for (const file of files.filter((f) => f.startsWith('dist/') && f.endsWith('.js'))) {
      for (const specifier of importedSpecifiers(file, readFileSync(join(ROOT, file), 'utf8'))) {
        if (!specifier.startsWith('.')) continue;
        const target = join('dist', specifier).split('\\').join('/');
        if (!files.includes(target)) unresolved.push(`${file} → ${specifier}`);
      }
    }
    expect(unresolved).toEqual([]);

    expect(pkg.license).toBe('MIT');
    expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n\nCopyright \(c\) \d{4} /);
  });

  it('every package the built code imports is a runtime dependency (devDependencies are not installed for users)', () => {
    const imported = new Set<string>();
    for (const file of filesUnder(join(ROOT, 'dist')).filter((f) => f.endsWith('.js'))) {
      for (const specifier of importedSpecifiers(file, readFileSync(join(ROOT, 'dist', file), 'utf8'))) {
        if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
        const parts = specifier.split('/');
        imported.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
      }
    }
    expect(imported.size).toBeGreaterThan(5);
    expect([...imported].filter((name) => !(name in pkg.dependencies)).sort()).toEqual([]);
  });

  it('installed from the tarball into a fresh project: npx wfsync --version, help, init, validate, sync, plan', async () => {
    const work = mkdtempSync(join(tmpdir(), 'wfsync-package-'));
    onTestFinished(() => rmSync(work, { recursive: true, force: true }));
    const { stdout: packJson } = await npm(
      'npm',
      ['pack', '--json', '--ignore-scripts', '--pack-destination', work],
      ROOT,
    );
    const [{ filename }] = JSON.parse(packJson) as [{ filename: string }];
    const project = join(work, 'acme-app');
    mkdirSync(project);
    await npm('npm', ['init', '-y'], project);
    await npm(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', join(work, filename)],
      project,
    );
    expect(existsSync(join(project, 'node_modules/wfsync/src'))).toBe(false);

    const version = await wfsync(['--version'], project);
    // (stderr may hold npm's own warnings about the user's npm config)
    expect(version.status).toBe(0);
    expect(version.stdout).toMatch(new RegExp(`^${pkg.version.replaceAll('.', '\\.')} \\(node v`));
    const help = await wfsync(['help', 'validate'], project);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('wfsync validate --watch');

    const init = await wfsync(['init', '--ci', 'none'], project);
    expect(init.stdout).toMatch(/^created {4}wfsync\.config\.yaml$/m);
    expect(init.status).toBe(0);
    // Editors are pointed at the schema inside the installed package: it must be there.
    const settings = readFileSync(join(project, '.vscode/settings.json'), 'utf8');
    expect(settings).toContain('node_modules/wfsync/schemas/workflow.schema.json');
    expect(existsSync(join(project, 'node_modules/wfsync/schemas/workflow.schema.json'))).toBe(true);
    // Beside init's example, one of this repository's.
    cpSync(join(ROOT, 'workflows/password-reset.yaml'), join(project, 'workflows/password-reset.yaml'));

    const validate = await wfsync(['validate'], project);
    expect(validate).toMatchObject({ status: 0, stdout: '✔ 2 files valid\n' });

    const sync = await wfsync(['sync'], project);
    expect(sync.stdout).toContain('Sync: 2 created, 0 in sync, 0 drifted, 0 failed, 0 skipped.');
    expect(sync.status).toBe(0);
    const again = await wfsync(['sync'], project);
    expect(again.stdout).toContain('Sync: 0 created, 2 in sync, 0 drifted, 0 failed, 0 skipped.');
    expect(again.status).toBe(0);
    const plan = await wfsync(['plan'], project);
    expect(plan.stdout).toContain('No changes. 2 workflows in sync.');
    expect(plan.status).toBe(0);
  }, 120_000);
});
