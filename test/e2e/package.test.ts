import { execFile } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { promisify } from 'node:util';
import { parseSync } from 'rolldown/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { aWorkflowNamed, aWorkflowYaml } from '../helpers/workflow.js';
import { ROOT } from './helpers.js';
import { extractBlocks } from './readme-blocks.js';

/**
 * The package as users get it. A copy of the repository (its files, not dist/, node_modules linked) is packed with
 * `npm pack` as a release would be: the prepack script builds the bundle and the type declarations there, and stdout
 * must hold the tarball's name alone (pre-commit reads it). Then: what the tarball holds, its manifest, `npm publish
 * --dry-run` without a warning, and the tarball installed into fresh projects with npm (which fetches the
 * dependencies from the registry, or its cache): the CLI through npx, the API imported, type-checked and run.
 * Packing a copy leaves this tree's dist/, which the other e2e tests run, alone.
 */

const run = promisify(execFile);
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  license: string;
  dependencies: Record<string, string>;
};

/** npm and npx with the user's environment minus what `npm test` sets for its own run (npm_*), no colours. */
function npm(
  command: 'npm' | 'npx' | 'node',
  args: string[],
  cwd: string,
  extra: Record<string, string> = {},
) {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('npm_')));
  return run(command, args, {
    cwd,
    env: { ...env, NO_COLOR: '1', TZ: 'UTC', CI: 'true', npm_config_update_notifier: 'false', ...extra },
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** The repository's files (tracked, and new ones not ignored) copied to `dir`, node_modules linked: a fresh clone. */
async function copyRepository(dir: string): Promise<void> {
  const { stdout } = await run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
  });
  for (const file of stdout.split('\0')) {
    if (file === '' || file === 'node_modules' || file.startsWith('dist/') || !existsSync(join(ROOT, file)))
      continue;
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(ROOT, file), join(dir, file));
  }
  symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(dir, 'node_modules'));
}

let work: string;
/** The copy of the repository packed, and its tarball. */
let release: { dir: string; tarball: string; stdout: string };

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'wfsync-package-'));
  const dir = join(work, 'wfsync');
  await copyRepository(dir);
  // The real thing: no --ignore-scripts; prepack builds dist/ (bundle and declarations) in the copy.
  const { stdout } = await npm('npm', ['pack', '--pack-destination', work], dir);
  release = { dir, tarball: join(work, `wfsync-${pkg.version}.tgz`), stdout };
}, 600_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
}, 300_000); // three installed projects' node_modules: past the default minute on a loaded machine

/** A fresh project in `work` with the packed tarball installed: npm's output, with not one warning. */
async function installInto(name: string, manifest: object): Promise<string> {
  const project = join(work, name);
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    `${JSON.stringify({ name, private: true, ...manifest }, null, 2)}\n`,
  );
  const { stdout, stderr } = await npm(
    'npm',
    ['install', '--no-audit', '--no-fund', '--prefer-offline', release.tarball],
    project,
  );
  expect(`${stdout}${stderr}`).not.toMatch(/npm warn/i);
  return project;
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

/** What a built module imports, statically, re-exported, through `import('…')` (oxc's module record) or onFirstUse, as written. */
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
    // What derive/first-use.ts's onFirstUse loads when first called: a require all the same.
    ...[...code.matchAll(/\bonFirstUse\(\s*(['"])([^'"]+)\1\s*\)/g)].map((m) => m[2]!),
  ];
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split('\\').join('/'));
}

describe('the npm package', () => {
  it("npm pack: stdout is the tarball's name alone, though prepack built the package", () => {
    expect(release.stdout).toBe(`wfsync-${pkg.version}.tgz\n`);
    expect(existsSync(release.tarball)).toBe(true);
    expect(existsSync(join(release.dir, 'dist/index.d.ts'))).toBe(true);
  });

  it('npm pack: only what users need — the built code, its types, schemas, README, changelog, licence; no sources, tests or maps', async () => {
    const { stdout } = await npm('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], release.dir);
    const [packed] = JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>;
    const files = packed!.files.map((f) => f.path).sort();

    const outside = files.filter(
      (f) =>
        !/^(action|bin|dist|schemas)\//.test(f) &&
        !/^(README\.md|CHANGELOG\.md|LICENSE|package\.json)$/.test(f),
    );
    expect(outside).toEqual([]);
    expect(files.filter((f) => f.endsWith('.map') || (f.endsWith('.ts') && f !== 'dist/index.d.ts'))).toEqual(
      [],
    );
    for (const needed of [
      'LICENSE',
      'README.md',
      'CHANGELOG.md',
      'bin/wfsync.cjs',
      'dist/boot.cjs',
      'dist/cli.cjs',
      'dist/THIRD-PARTY-NOTICES.md',
      'action/run.mjs',
      'dist/index.js',
      'dist/index.d.ts',
      'schemas/workflow.schema.json',
      'schemas/config.schema.json',
    ])
      expect(files).toContain(needed);
    // dist/ is a bundle (scripts/build.mjs): every chunk a packed file imports is packed too. A stale or partial
    // dist/ would ship a broken CLI.
    const unresolved: string[] = [];
    for (const file of files.filter((f) => f.startsWith('dist/') && /\.c?js$/.test(f))) {
      const code = readFileSync(join(release.dir, file), 'utf8');
      // The CLI's CommonJS chunks require each other (`require("./trigger-HASH.cjs")`); the API's modules import.
      const specifiers = file.endsWith('.cjs')
        ? [...code.matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]!)
        : importedSpecifiers(file, code);
      for (const specifier of specifiers) {
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
    for (const file of filesUnder(join(release.dir, 'dist')).filter((f) => f.endsWith('.js'))) {
      for (const specifier of importedSpecifiers(
        file,
        readFileSync(join(release.dir, 'dist', file), 'utf8'),
      )) {
        if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
        const parts = specifier.split('/');
        imported.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!);
      }
    }
    expect(imported.size).toBeGreaterThan(5);
    expect([...imported].filter((name) => !(name in pkg.dependencies)).sort()).toEqual([]);
  });

  it('every package the built code loads by a path inside it (not by its name) is pinned to one release', () => {
    // A later release may close its files with an exports map (undici, handlebars 5 do): a range would let npm
    // install one where that path no longer loads, in every user's project. Pinned, the path is the one built against.
    const deep = new Set<string>();
    for (const file of filesUnder(join(release.dir, 'dist')).filter((f) => /\.c?js$/.test(f))) {
      const code = readFileSync(join(release.dir, 'dist', file), 'utf8');
      const required = [...code.matchAll(/\brequire\(\s*(['"])([^'"]+)\1\s*\)/g)].map((m) => m[2]!);
      for (const specifier of [...importedSpecifiers(file, code), ...required]) {
        if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
        const parts = specifier.split('/');
        const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
        if (specifier !== name) deep.add(name);
      }
    }
    expect([...deep].sort()).toEqual(expect.arrayContaining(['ajv', 'handlebars']));
    const ranges = [...deep].sort().map((name) => [name, pkg.dependencies[name]]);
    expect(ranges.filter(([, range]) => !/^\d+\.\d+\.\d+$/.test(range ?? ''))).toEqual([]);
  });

  it('installed from the tarball into a fresh project: npx wfsync --version, help, init, validate, sync, plan', async () => {
    const project = await installInto('acme-app', { version: '1.0.0' });
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

  it('the manifest: exports (types first), bin, engines, repository; no script that runs on install', async () => {
    const { stdout } = await run('tar', ['-xzOf', release.tarball, 'package/package.json']);
    const manifest = JSON.parse(stdout) as Record<string, unknown> & { scripts: Record<string, string> };
    expect(manifest.exports).toEqual({
      '.': { types: './dist/index.d.ts', default: './dist/index.js' },
      './package.json': './package.json',
    });
    expect(Object.keys((manifest.exports as Record<string, object>)['.']!)[0]).toBe('types');
    expect(manifest).toMatchObject({
      type: 'module',
      bin: { wfsync: 'bin/wfsync.cjs' },
      engines: { node: '>=20.19' },
      repository: { type: 'git' },
    });
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare'])
      expect(manifest.scripts[hook], hook).toBeUndefined();
    expect(manifest.scripts.prepack).toBeDefined();
  });

  it('the type declarations: one file, nothing imported from a path the tarball lacks', () => {
    const text = readFileSync(join(release.dir, 'dist/index.d.ts'), 'utf8');
    const specifiers = importedSpecifiers('index.d.ts', text);
    expect(specifiers.filter((s) => s.startsWith('.') || s.startsWith('/'))).toEqual([]);
    expect(text).not.toMatch(/<reference path=|\bsrc\/|node_modules\//);
    expect(text).toMatch(/^export declare function plan\(/m);
  });

  it('npm publish --dry-run: not one warning', async () => {
    // A placeholder token: the dry run then does not warn that nobody is logged in (it never sends it).
    const userconfig = join(work, 'publish.npmrc');
    writeFileSync(userconfig, '//registry.npmjs.org/:_authToken=dry-run-placeholder\n');
    const { stdout, stderr } = await npm(
      'npm',
      ['publish', '--dry-run', '--ignore-scripts', '--userconfig', userconfig],
      release.dir,
    );
    expect(`${stdout}${stderr}`).not.toMatch(/npm warn/i);
    expect(stdout).toBe(`+ wfsync@${pkg.version}\n`);
  }, 120_000);

  describe('the API from a consumer project (ESM, tsc --strict)', () => {
    let emulator: RunningEmulator;
    beforeAll(async () => {
      emulator = await startEmulator();
    });
    afterAll(() => emulator?.close());

    it('installs with no warning, type-checks, validates and plans against the service; npx wfsync --version', async () => {
      const consumer = await installInto('consumer', { type: 'module' });
      writeFileSync(
        join(consumer, 'wfsync.config.yaml'),
        stringify({
          defaultTarget: 'dev',
          targets: {
            dev: { baseUrl: emulator.url, notificationGroupId: emulator.notificationGroupId },
          },
        }),
      );
      mkdirSync(join(consumer, 'workflows'));
      for (const name of ['order shipped', 'welcome'])
        writeFileSync(
          join(consumer, `workflows/${name.replace(' ', '-')}.yaml`),
          aWorkflowYaml(aWorkflowNamed(name)),
        );

      // The types: a program that uses the options, the results and the errors, held to tsc --strict.
      writeFileSync(
        join(consumer, 'consumer.ts'),
        [
          "import { AbortError, ExitCode, plan, validate, WfsyncError } from 'wfsync';",
          "import type { PlanDocument, PlanOptions, PlanResult, ValidateResult, WfsyncErrorCode } from 'wfsync';",
          '',
          'export async function check(env: Record<string, string | undefined>): Promise<string> {',
          "  const validated: ValidateResult = await validate({ paths: ['workflows'] });",
          '  if (!validated.valid) return String(validated.document.summary.errors) + " errors";',
          "  const options: PlanOptions = { env, target: 'dev', only: ['order-*'], signal: AbortSignal.timeout(60_000) };",
          '  try {',
          '    const result: PlanResult = await plan(options);',
          '    const document: PlanDocument = result.document;',
          '    const creates: number = document.summary.create;',
          '    const first: string | undefined = document.items[0]?.identifier;',
          '    return result.exitCode === ExitCode.Changes ? creates + " to create, first " + first : "nothing";',
          '  } catch (error) {',
          '    if (error instanceof AbortError) return "aborted";',
          '    if (error instanceof WfsyncError) {',
          '      const code: WfsyncErrorCode = error.code;',
          '      return code + " (exit " + error.exitCode + "): " + error.diagnostics.length + " findings";',
          '    }',
          '    throw error;',
          '  }',
          '}',
          '',
          '// @ts-expect-error: an option the API does not have',
          "plan({ format: 'json' });",
          '',
        ].join('\n'),
      );
      // And the example of docs/reference/api.md, as written there.
      const page = 'docs/reference/api.md';
      const example = extractBlocks(readFileSync(join(ROOT, page), 'utf8'), page).find((b) =>
        b.directives.some((d) => d.kind === 'write' && d.file === 'api-example.ts'),
      );
      expect(example?.body).toContain("from 'wfsync'");
      writeFileSync(join(consumer, 'api-example.ts'), example!.body);
      const tsc = join(ROOT, 'node_modules/typescript/bin/tsc');
      const typecheck = await npm(
        'node',
        [
          tsc,
          '--strict',
          '--noEmit',
          '--module',
          'nodenext',
          '--moduleResolution',
          'nodenext',
          'consumer.ts',
          'api-example.ts',
        ],
        consumer,
      ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? String(error) }));
      expect(typecheck.stdout).toBe('');

      // The code: an ES module run by node, as a script around wfsync would be.
      writeFileSync(
        join(consumer, 'consumer.mjs'),
        [
          "import { plan, validate, WfsyncError } from 'wfsync';",
          'const validated = await validate();',
          'const planned = await plan({ env: { WFSYNC_API_KEY: process.env.DEV_KEY } });',
          'const refused = await plan({ env: { WFSYNC_API_KEY: "wfs_local_wrong" } }).catch((e) => e);',
          'process.stdout.write(JSON.stringify({',
          '  valid: validated.valid, files: validated.document.summary.files,',
          '  exitCode: planned.exitCode, summary: planned.document.summary, schemaVersion: planned.document.schemaVersion,',
          '  refused: refused instanceof WfsyncError && { code: refused.code, exitCode: refused.exitCode },',
          '}));',
          '',
        ].join('\n'),
      );
      const { stdout } = await npm('node', ['consumer.mjs'], consumer, { DEV_KEY: emulator.apiKey });
      expect(JSON.parse(stdout)).toEqual({
        valid: true,
        files: 2,
        exitCode: 2,
        summary: expect.objectContaining({ create: 2, inSync: 0, error: 0 }),
        schemaVersion: 4,
        refused: { code: 'auth', exitCode: 4 },
      });

      const version = await wfsync(['--version'], consumer);
      expect(version.status).toBe(0);
      expect(version.stdout).toMatch(new RegExp(`^${pkg.version.replaceAll('.', '\\.')} \\(node v`));
    }, 300_000);

    it('runs when the installed undici closes its files with an exports map, as a later release may: the API imports undici by name', async () => {
      const consumer = await installInto('closed-undici', { type: 'module' });
      const manifestPath = join(consumer, 'node_modules/undici/package.json');
      const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { main: string };
      const exportsMap = { '.': `./${manifest.main}`, './package.json': './package.json' };
      writeFileSync(manifestPath, JSON.stringify({ ...manifest, exports: exportsMap }));
      writeFileSync(
        join(consumer, 'wfsync.config.yaml'),
        stringify({
          targets: { dev: { baseUrl: emulator.url, notificationGroupId: emulator.notificationGroupId } },
        }),
      );
      mkdirSync(join(consumer, 'workflows'));
      writeFileSync(join(consumer, 'workflows/welcome.yaml'), aWorkflowYaml(aWorkflowNamed('welcome')));
      writeFileSync(
        join(consumer, 'consumer.mjs'),
        [
          "import { plan } from 'wfsync';",
          "const planned = await plan({ target: 'dev', env: { WFSYNC_API_KEY: process.env.DEV_KEY } });",
          'process.stdout.write(JSON.stringify(planned.document.summary));',
          '',
        ].join('\n'),
      );
      // The map closes the files: the deep path the CLI's bundle was built from cannot be imported there.
      const deep =
        "import('undici/lib/dispatcher/pool.js').then(() => 'open', (e) => e.code).then(console.log)";
      const closed = await npm('node', ['--input-type=module', '-e', deep], consumer);
      expect(closed.stdout).toBe('ERR_PACKAGE_PATH_NOT_EXPORTED\n');
      const { stdout } = await npm('node', ['consumer.mjs'], consumer, { DEV_KEY: emulator.apiKey });
      expect(JSON.parse(stdout)).toMatchObject({ create: 1, error: 0 });
    }, 300_000);
  });
});
