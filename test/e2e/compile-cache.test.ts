import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BROKEN_DEFINITIONS, validNumbered } from '../fixtures/workflow-texts.js';
import { makeProject, type RunResult, runCli } from './helpers.js';

// The CLI's compile cache (src/cli/compile-cache.ts, src/cli/boot.ts), each test in a cache folder of its own.
const POSIX = process.platform !== 'win32';

function project(): string {
  return makeProject({
    'workflows/a.yaml': validNumbered(1),
    'workflows/b.yaml': validNumbered(2),
    'workflows/broken.yaml': BROKEN_DEFINITIONS['syntax.yaml'] as string,
  });
}

function cacheRoot(): string {
  return mkdtempSync(join(tmpdir(), 'wfsync-compile-cache-'));
}

function validate(cwd: string, cache: string, args: string[] = []): Promise<RunResult> {
  return runCli(['validate', ...args], { cwd, env: { WFSYNC_COMPILE_CACHE: cache } });
}

/** Every file under `dir`, relative, with its bytes. */
function snapshot(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) {
      const path = join(entry.parentPath, entry.name);
      files.set(path.slice(dir.length + 1), readFileSync(path));
    }
  }
  return files;
}

/** The one build folder of a cache root (the CLI under test is one build). */
function buildFolder(root: string): string {
  const builds = readdirSync(root);
  expect(builds).toHaveLength(1);
  expect(builds[0]).toMatch(
    new RegExp(`^${process.version.replaceAll('.', '\\.')}-${process.arch}-[\\w-]+$`),
  );
  return join(root, builds[0]!);
}

function cacheFiles(root: string): string[] {
  return [...snapshot(root).keys()].filter((f) => f.endsWith('.v8'));
}

describe('the compile cache', () => {
  it('is written by the first run of a command, read by the next, and never changes what a run prints', async () => {
    const cwd = project();
    const root = cacheRoot();
    const off = await runCli(['validate'], { cwd, env: { WFSYNC_COMPILE_CACHE: 'off' } });
    expect(off.status).toBe(3);

    const first = await validate(cwd, root);
    const files = snapshot(root);
    const written = [...files.keys()].filter((f) => !f.endsWith('outcomes'));
    expect(written.every((f) => /^[^/\\]+[/\\]validate[/\\][\w.-]+\.cjs\.v8$/.test(f))).toBe(true);
    // The entry, and the one chunk of all it loads at start (scripts/build.mjs).
    expect(written.some((f) => /[/\\]cli\.cjs\.v8$/.test(f))).toBe(true);
    expect(written.some((f) => /[/\\]initial-[\w-]+\.cjs\.v8$/.test(f))).toBe(true);

    const warm = await validate(cwd, root);
    // Nothing rewritten: V8 took every file (a file it turns down is written again, as the next test shows).
    expect(snapshot(root)).toEqual(files);
    for (const run of [first, warm]) {
      expect(run.status).toBe(off.status);
      expect(run.stdout).toBe(off.stdout);
      expect(run.stderr).toBe(off.stderr);
    }
  });

  it('saves every chunk again on the first run of a new outcome, and only then', async () => {
    const cwd = makeProject({ 'workflows/a.yaml': validNumbered(1), 'workflows/b.yaml': validNumbered(2) });
    const root = cacheRoot();
    expect((await validate(cwd, root)).status).toBe(0);
    const folder = join(buildFolder(root), 'validate');
    const valid = snapshot(folder);
    expect(readFileSync(join(folder, 'outcomes'), 'utf8')).toBe('0');
    expect((await validate(cwd, root)).status).toBe(0);
    expect(snapshot(folder)).toEqual(valid);
    // Errors found: code the valid runs never ran (diagnostics, code frames) joins the cache, once.
    writeFileSync(join(cwd, 'workflows/broken.yaml'), BROKEN_DEFINITIONS['syntax.yaml'] as string);
    const broken = await validate(cwd, root);
    expect(broken.status).toBe(3);
    const afterErrors = snapshot(folder);
    const size = (files: Map<string, Buffer>) =>
      [...files].filter(([f]) => f.endsWith('.v8')).reduce((sum, [, bytes]) => sum + bytes.length, 0);
    expect(size(afterErrors)).toBeGreaterThan(size(valid));
    // Saved again, not only added to: chunks the valid runs had cached now hold more.
    const grown = [...valid].filter(
      ([file, bytes]) => file.endsWith('.v8') && afterErrors.get(file)!.length > bytes.length,
    );
    expect(grown.length).toBeGreaterThan(0);
    expect(readFileSync(join(folder, 'outcomes'), 'utf8')).toBe('0,3');
    const again = await validate(cwd, root);
    expect(again).toEqual(broken);
    expect(snapshot(folder)).toEqual(afterErrors);
  });

  it('keeps folders and files private to the user', async () => {
    if (!POSIX) return;
    const root = cacheRoot();
    await validate(project(), root);
    const build = buildFolder(root);
    for (const folder of [build, join(build, 'validate')]) expect(statSync(folder).mode & 0o777).toBe(0o700);
    for (const file of readdirSync(join(build, 'validate')))
      expect(statSync(join(build, 'validate', file)).mode & 0o777).toBe(0o600);
  });

  it('compiles afresh, and writes the file again, when a cache file is damaged', async () => {
    const cwd = project();
    const root = cacheRoot();
    const clean = await validate(cwd, root);
    const folder = join(buildFolder(root), 'validate');
    const victim = readdirSync(folder).find((f) => f.startsWith('initial-'))!;
    const damaged = Buffer.from('not a code cache, but the same name');
    writeFileSync(join(folder, victim), damaged);

    const run = await validate(cwd, root);
    expect(run).toEqual(clean);
    const rewritten = readFileSync(join(folder, victim));
    expect(rewritten.equals(damaged)).toBe(false);
    expect(rewritten.length).toBeGreaterThan(1000);
  });

  it('never hands V8 a file damaged in the middle (which would crash it): a miss, written again', async () => {
    const cwd = project();
    const root = cacheRoot();
    const clean = await validate(cwd, root);
    const folder = join(buildFolder(root), 'validate');
    for (const file of readdirSync(folder)) {
      const bytes = readFileSync(join(folder, file));
      for (const at of [64, Math.floor(bytes.length / 2), bytes.length - 8]) bytes[at] = bytes[at]! ^ 0x55;
      writeFileSync(join(folder, file), bytes);
    }
    const damaged = snapshot(root);
    const run = await validate(cwd, root);
    expect(run).toEqual(clean);
    for (const [file, bytes] of snapshot(root)) expect(bytes.equals(damaged.get(file)!), file).toBe(false);
  });

  it('reads no cache file that is a link or open to others (as a checkout or an archive leaves it)', async () => {
    if (!POSIX) return;
    const cwd = project();
    const root = cacheRoot();
    const clean = await validate(cwd, root);
    const folder = join(buildFolder(root), 'validate');
    const good = readFileSync(join(folder, 'cli.cjs.v8'));
    // 0644, as git or tar would leave it: ignored, and replaced by a file of the user's own.
    chmodSync(join(folder, 'cli.cjs.v8'), 0o644);
    expect(await validate(cwd, root)).toEqual(clean);
    expect(statSync(join(folder, 'cli.cjs.v8')).mode & 0o777).toBe(0o600);
    // A link to a file elsewhere: ignored, and the file it points to left as it was.
    const elsewhere = join(cacheRoot(), 'elsewhere.v8');
    writeFileSync(elsewhere, good, { mode: 0o600 });
    rmSync(join(folder, 'cli.cjs.v8'));
    symlinkSync(elsewhere, join(folder, 'cli.cjs.v8'));
    expect(await validate(cwd, root)).toEqual(clean);
    expect(readFileSync(elsewhere).equals(good)).toBe(true);
    expect(lstatSync(join(folder, 'cli.cjs.v8')).isSymbolicLink()).toBe(false);
  });

  it('is off in CI unless WFSYNC_COMPILE_CACHE names a folder', async () => {
    const home = cacheRoot();
    const run = await runCli(['validate'], {
      cwd: project(),
      env: { HOME: home, XDG_CACHE_HOME: undefined, CI: 'true', WFSYNC_COMPILE_CACHE: undefined },
    });
    expect(run.status).toBe(3);
    expect(readdirSync(home)).toEqual([]);
    const without = await runCli(['validate'], {
      cwd: project(),
      env: { HOME: home, XDG_CACHE_HOME: undefined, WFSYNC_COMPILE_CACHE: undefined },
    });
    expect(without.stdout).toBe(run.stdout);
    expect(cacheFiles(join(home, '.cache', 'wfsync', 'compile')).length).toBeGreaterThanOrEqual(2);
  });

  it('keeps one folder per command, and nothing from help or a usage error', async () => {
    const cwd = project();
    const root = cacheRoot();
    expect((await validate(cwd, root, ['--help'])).status).toBe(0);
    expect((await validate(cwd, root, ['--no-such-option'])).status).toBe(64);
    expect(cacheFiles(root)).toEqual([]);

    await runCli(['plan', '--help'], { cwd, env: { WFSYNC_COMPILE_CACHE: root } });
    await validate(cwd, root, ['--format', 'json']);
    await runCli(['new', 'order placed', '--channel', 'email'], { cwd, env: { WFSYNC_COMPILE_CACHE: root } });
    const commands = new Set(cacheFiles(root).map((f) => f.split(/[/\\]/)[1]));
    expect([...commands].sort()).toEqual(['new', 'validate']);
  });

  it.each([
    ['WFSYNC_COMPILE_CACHE=off', { WFSYNC_COMPILE_CACHE: 'off' }],
    ['NODE_DISABLE_COMPILE_CACHE', { NODE_DISABLE_COMPILE_CACHE: '1' }],
  ])('is off with %s', async (_name, env) => {
    const root = cacheRoot();
    const run = await runCli(['validate'], {
      cwd: project(),
      env: { WFSYNC_COMPILE_CACHE: root, ...env },
    });
    expect(run.status).toBe(3);
    expect(readdirSync(root)).toEqual([]);
  });

  it('is not used with --verbose, whose stack traces go through the source maps', async () => {
    const root = cacheRoot();
    const run = await validate(project(), root, ['--verbose']);
    expect(run.status).toBe(3);
    expect(cacheFiles(root)).toEqual([]);
  });

  it('is never read from, nor written to, a folder others may write to', async () => {
    if (!POSIX) return;
    const cwd = project();
    const root = cacheRoot();
    const clean = await validate(cwd, root);
    const folder = join(buildFolder(root), 'validate');
    const before = snapshot(root);
    // Another user could have put code there: the run must not trust it, and must not add to it.
    chmodSync(folder, 0o777);
    for (const file of readdirSync(folder)) writeFileSync(join(folder, file), 'planted');
    const run = await validate(cwd, root);
    expect(run).toEqual(clean);
    const after = snapshot(root);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    expect([...after.values()].every((bytes) => bytes.toString() === 'planted')).toBe(true);
  });

  it('is never read through a symbolic link to a folder elsewhere', async () => {
    if (!POSIX) return;
    const cwd = project();
    const first = cacheRoot();
    const clean = await validate(cwd, first);
    // The same build's folder, linked from a second root: a link is refused like a foreign folder.
    const second = cacheRoot();
    const build = buildFolder(first);
    symlinkSync(build, join(second, build.slice(first.length + 1)));
    const before = snapshot(first);
    for (const file of readdirSync(join(build, 'validate')))
      writeFileSync(join(build, 'validate', file), 'x');
    const run = await validate(cwd, second);
    expect(run).toEqual(clean);
    expect([...snapshot(first).keys()].sort()).toEqual([...before.keys()].sort());
  });

  it("removes all but the two newest of other builds' folders when a new build starts one, and nothing else", async () => {
    const root = cacheRoot();
    const now = Date.now() / 1000;
    const builds = [1, 2, 3, 4].map((i) => `v18.0.${i}-x64-0000000${i}-aaaa-4bbb-8ccc-dddddddddddd`);
    for (const [i, name] of builds.entries()) {
      mkdirSync(join(root, name, 'validate'), { recursive: true, mode: 0o700 });
      utimesSync(join(root, name), now - 1000 * (i + 1), now - 1000 * (i + 1));
    }
    // What else a folder given as WFSYNC_COMPILE_CACHE may hold is not wfsync's to remove, however old.
    const unrelated = ['notes', 'v18-looks-close', `${builds[3]}.bak`];
    for (const name of unrelated) {
      mkdirSync(join(root, name), { mode: 0o700 });
      utimesSync(join(root, name), now - 9000, now - 9000);
    }
    writeFileSync(join(root, 'README.txt'), 'mine');
    await validate(project(), root);
    const left = readdirSync(root).sort();
    expect(left.filter((name) => builds.includes(name))).toEqual([builds[0], builds[1]]);
    for (const name of [...unrelated, 'README.txt']) expect(left).toContain(name);
    expect(left).toHaveLength(2 + unrelated.length + 1 + 1);
  });

  it('serves many first runs at once: each whole, none reading half a file', async () => {
    const cwd = project();
    const root = cacheRoot();
    const runs = await Promise.all(Array.from({ length: 6 }, () => validate(cwd, root)));
    const again = await validate(cwd, root);
    for (const run of [...runs, again]) {
      expect(run.status).toBe(3);
      expect(run.stdout).toBe(runs[0]!.stdout);
    }
    // Nothing but cache files and the outcomes seen: no temporary file left behind.
    expect([...snapshot(root).keys()].filter((f) => !f.endsWith('.v8') && !f.endsWith('outcomes'))).toEqual(
      [],
    );
    expect(existsSync(root)).toBe(true);
  });
});
