/**
 * Report files named on the command line (`validate --output`, `plan --out`, `sync --out`, `preview --out`,
 * `plan --previews`, `plan --codequality`, `validate --codequality`, `validate --cache-location`), in a CI job on a
 * contributor's branch: the branch may commit the file, or a folder on the way to it, as a symbolic link to
 * `~/.bashrc`, a git hook or another job's file. Nothing is written through one, a dangling one included; a plain
 * path, in the project or outside it, still works.
 */
import {
  existsSync,
  lstatSync,
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
import { ROOT, runCli } from '../e2e/helpers.js';
import { startTarget } from '../e2e/plan-sync-target.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function temp(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** A folder outside every project, holding a victim file (like ~/.bashrc) that must stay byte for byte. */
function outside(): { dir: string; victim: string } {
  const dir = temp('wfsync-outside-');
  const victim = join(dir, 'bashrc');
  writeFileSync(victim, 'export PATH=/usr/bin\n');
  return { dir, victim };
}

function expectUnchanged(place: { dir: string; victim: string }): void {
  expect(readFileSync(place.victim, 'utf8')).toBe('export PATH=/usr/bin\n');
  expect(readdirSync(place.dir)).toEqual(['bashrc']);
}

function link(target: string, at: string): void {
  mkdirSync(dirname(at), { recursive: true });
  symlinkSync(target, at);
}

/** A git project with the example definitions (for validate and preview). */
function exampleProject(): string {
  const cwd = temp('wfsync-out-');
  mkdirSync(join(cwd, '.git'));
  mkdirSync(join(cwd, 'workflows'));
  writeFileSync(
    join(cwd, 'workflows/order-shipped.yaml'),
    readFileSync(join(ROOT, 'workflows/order-shipped.yaml'), 'utf8'),
  );
  return cwd;
}

/** Each flag as a user gives it, with the path under test; the exit code of a successful run. */
const LOCAL: Array<{ name: string; args: (file: string) => string[]; ok: number }> = [
  { name: 'validate --output', args: (file) => ['validate', '--format', 'sarif', '--output', file], ok: 0 },
  { name: 'validate -o', args: (file) => ['validate', '-o', file], ok: 0 },
  { name: 'validate --codequality', args: (file) => ['validate', '--codequality', file], ok: 0 },
  { name: 'preview --out', args: (file) => ['preview', '--format', 'html', '--out', file], ok: 0 },
];

const REMOTE: Array<{ name: string; args: (file: string) => string[]; ok: number }> = [
  { name: 'plan --out', args: (file) => ['plan', '--out', file], ok: 2 },
  { name: 'sync --out', args: (file) => ['sync', '--out', file], ok: 0 },
  { name: 'sync --dry-run --out', args: (file) => ['sync', '--dry-run', '--out', file], ok: 2 },
];

const REFUSED = 'it is a symbolic link';

describe.each(LOCAL)('$name', ({ name, args, ok }) => {
  it('refuses the file planted as a link to a file outside: exit 1, the link named, the file unchanged', async () => {
    const place = outside();
    const cwd = exampleProject();
    link(place.victim, join(cwd, 'report.out'));
    const run = await runCli(args('report.out'), { cwd });
    expect(run.status, name).toBe(1);
    expect(run.stderr).toContain(
      'refusing to write through report.out: it is a symbolic link (the file itself)',
    );
    expectUnchanged(place);
  });

  it('refuses a dangling link: nothing is created where it points', async () => {
    const place = outside();
    const cwd = exampleProject();
    link(join(place.dir, 'authorized_keys'), join(cwd, 'report.out'));
    const run = await runCli(args('report.out'), { cwd });
    expect(run.status, name).toBe(1);
    expect(run.stderr).toContain(REFUSED);
    expectUnchanged(place);
    expect(lstatSync(join(cwd, 'report.out')).isSymbolicLink()).toBe(true);
  });

  it('refuses a folder on the way that is a link out of the project', async () => {
    const place = outside();
    const cwd = exampleProject();
    link(place.dir, join(cwd, 'reports'));
    const run = await runCli(args('reports/report.out'), { cwd });
    expect(run.status, name).toBe(1);
    expect(run.stderr).toContain(
      'refusing to write through reports: it is a symbolic link (a folder on the way',
    );
    expectUnchanged(place);
  });

  it('writes a plain path in the project (its folders created, an old file replaced) and one outside it', async () => {
    const cwd = exampleProject();
    mkdirSync(join(cwd, 'reports'));
    writeFileSync(join(cwd, 'reports/report.out'), 'old and longer than nothing\n'.repeat(1000));
    const replaced = await runCli(args('reports/report.out'), { cwd });
    expect(replaced.status, name).toBe(ok);
    const text = readFileSync(join(cwd, 'reports/report.out'), 'utf8');
    expect(text).not.toContain('old and longer');
    expect(text.length).toBeGreaterThan(0);
    const created = await runCli(args('new/deeper/report.out'), { cwd });
    expect(created.status, name).toBe(ok);
    expect(readFileSync(join(cwd, 'new/deeper/report.out'), 'utf8')).toBe(text);
    const elsewhere = join(temp('wfsync-elsewhere-'), 'report.out');
    const absolute = await runCli(args(elsewhere), { cwd });
    expect(absolute.status, name).toBe(ok);
    expect(readFileSync(elsewhere, 'utf8')).toBe(text);
    // No temp file left beside any of them.
    expect(readdirSync(join(cwd, 'reports'))).toEqual(['report.out']);
    expect(readdirSync(dirname(elsewhere))).toEqual(['report.out']);
  });

  it('refuses a link outside the project too, when the path named is the link itself', async () => {
    const place = outside();
    const elsewhere = temp('wfsync-elsewhere-');
    link(place.victim, join(elsewhere, 'report.out'));
    const run = await runCli(args(join(elsewhere, 'report.out')), { cwd: exampleProject() });
    expect(run.status, name).toBe(1);
    expect(run.stderr).toContain(REFUSED);
    expectUnchanged(place);
  });
});

describe.each(REMOTE)('$name', ({ name, args, ok }) => {
  it('refuses a link (to a file, dangling, or a folder on the way) before asking the service; a plain path works', async () => {
    const target = await startTarget();
    const place = outside();
    link(place.victim, join(target.cwd, 'plan.json'));
    link(join(place.dir, 'pre-push'), join(target.cwd, 'dangling.json'));
    link(place.dir, join(target.cwd, 'reports'));
    for (const [file, shown] of [
      ['plan.json', 'plan.json: it is a symbolic link (the file itself)'],
      ['dangling.json', 'dangling.json: it is a symbolic link (the file itself)'],
      ['reports/plan.json', 'reports: it is a symbolic link (a folder on the way to it)'],
    ] as const) {
      const run = await target.run(args(file));
      expect(run.status, `${name} ${file}`).toBe(1);
      expect(run.stderr).toContain(`--out ${file}: refusing to write through ${shown}`);
      expect(run.requests, `${name} ${file}: the service is not asked`).toEqual([]);
      expectUnchanged(place);
    }
    expect(target.emulator.workflows()).toEqual([]);
    const plain = await target.run(args('out/plan.json'));
    expect(plain.status, name).toBe(ok);
    const written = JSON.parse(readFileSync(join(target.cwd, 'out/plan.json'), 'utf8')) as {
      schemaVersion: number;
    };
    expect(written.schemaVersion).toBe(4);
  });
});

describe('plan --codequality <file>', () => {
  it('refuses a report file planted as a link (to a file, dangling, or a folder on the way) before asking the service, and says so once', async () => {
    const target = await startTarget();
    const place = outside();
    link(place.victim, join(target.cwd, 'gl-code-quality-plan.json'));
    link(join(place.dir, 'pre-push'), join(target.cwd, 'dangling.json'));
    link(place.dir, join(target.cwd, 'reports'));
    for (const [file, shown] of [
      ['gl-code-quality-plan.json', 'gl-code-quality-plan.json: it is a symbolic link (the file itself)'],
      ['dangling.json', 'dangling.json: it is a symbolic link (the file itself)'],
      ['reports/gl.json', 'reports: it is a symbolic link (a folder on the way to it)'],
    ] as const) {
      const run = await target.run(['plan', '--format', 'markdown', '--codequality', file]);
      expect(run.status, file).toBe(1);
      expect(run.stderr).toContain(`--codequality ${file}: refusing to write through ${shown}`);
      // The failure's own Code Quality report is not written through it either, and the refusal is not repeated.
      expect(run.stderr.split('refusing to write through')).toHaveLength(2);
      expect(run.requests, `${file}: the service is not asked`).toEqual([]);
      expectUnchanged(place);
    }
    expect(lstatSync(join(target.cwd, 'dangling.json')).isSymbolicLink()).toBe(true);
    // A link at --out fails the run too; the failure's report still goes to the plain --codequality file.
    const outLinked = await target.run([
      'plan',
      '--out',
      'gl-code-quality-plan.json',
      '--codequality',
      'gl.json',
    ]);
    expect(outLinked.status).toBe(1);
    expect(JSON.parse(readFileSync(join(target.cwd, 'gl.json'), 'utf8'))).toMatchObject([
      { check_name: 'wfsync-plan/failed', severity: 'blocker' },
    ]);
    expectUnchanged(place);
    const plain = await target.run(['plan', '--codequality', 'out/gl.json']);
    expect(plain.status).toBe(2);
    expect(JSON.parse(readFileSync(join(target.cwd, 'out/gl.json'), 'utf8'))).toEqual([]);
  });
});

describe('validate --codequality <file>', () => {
  it('is refused before the run: nothing checked, no other report written, the refusal said once', async () => {
    const place = outside();
    const cwd = exampleProject();
    link(place.victim, join(cwd, 'gl-code-quality-validate.json'));
    const run = await runCli(
      [
        'validate',
        '--output',
        'report.sarif',
        '--format',
        'sarif',
        '--codequality',
        'gl-code-quality-validate.json',
      ],
      { cwd },
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(
      '--codequality gl-code-quality-validate.json: refusing to write through gl-code-quality-validate.json: it is a symbolic link (the file itself)',
    );
    // The failure's own Code Quality report is not written through it either, and the refusal is not repeated.
    expect(run.stderr.split('refusing to write through')).toHaveLength(2);
    expect(existsSync(join(cwd, 'report.sarif'))).toBe(false);
    expect(run.stdout).toBe('');
    expectUnchanged(place);
  });
});

describe('plan --previews <dir>', () => {
  it('refuses a previews folder planted as a link (to a folder outside, or dangling) before asking the service', async () => {
    const target = await startTarget();
    const place = outside();
    link(place.dir, join(target.cwd, 'previews'));
    link(join(place.dir, 'gone'), join(target.cwd, 'dangling'));
    for (const dir of ['previews', 'previews/', 'dangling']) {
      const run = await target.run(['plan', '--previews', dir]);
      expect(run.status, dir).toBe(1);
      expect(run.stderr).toContain(`--previews ${dir.replace(/\/$/, '')}: refusing to write through`);
      expect(run.requests).toEqual([]);
      expectUnchanged(place);
    }
    expect(existsSync(join(place.dir, 'gone'))).toBe(false);
    rmSync(join(target.cwd, 'previews'));
    const plain = await target.run(['plan', '--previews', 'previews']);
    expect(plain.status).toBe(2);
    expect(readdirSync(join(target.cwd, 'previews'))).toContain('index.html');
  });
});

describe('validate --cache --cache-location <file>', () => {
  it('neither writes through a planted link (to a file, or dangling) nor fails the run: a warning, exit 0', async () => {
    const place = outside();
    const cwd = exampleProject();
    link(place.victim, join(cwd, 'cache.json'));
    link(join(place.dir, 'gone.json'), join(cwd, 'dangling.json'));
    for (const file of ['cache.json', 'dangling.json']) {
      const run = await runCli(['validate', '--cache', '--cache-location', file], { cwd });
      expect(run.status, file).toBe(0);
      expect(run.stderr).toContain(`could not write the validate cache ${file}: refusing to write through`);
      expectUnchanged(place);
    }
    const plain = await runCli(['validate', '--cache', '--cache-location', 'cache/v.json'], { cwd });
    expect(plain.status).toBe(0);
    expect(plain.stderr).toBe('');
    expect(existsSync(join(cwd, 'cache/v.json'))).toBe(true);
  });
});
