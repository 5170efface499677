import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BROKEN_DEFINITIONS, validNumbered as valid } from '../fixtures/workflow-texts.js';
import { makeProject, runCli } from './helpers.js';

/** An email whose subject and content live in files next to it. */
const withIncludes = (identifier: string, content: string) => `name: ${identifier}
steps:
  - name: email
    template:
      type: email
      subject: { file: ./emails/subject.txt }
      content: { file: ./emails/${content} }
triggers:
  - type: event
    identifier: ${identifier}
    variables:
      - { name: firstName, type: String }
`;

/** Broken files of every kind, includes (one that does not resolve) and identifiers shared across files. */
const broken: Record<string, string | Uint8Array> = {
  ...BROKEN_DEFINITIONS,
  'welcome.yaml': withIncludes('welcome', 'welcome.html'),
  'farewell.yaml': withIncludes('farewell', 'missing.html'),
  'emails/subject.txt': 'Hello {{firstName}}\n',
  'emails/welcome.html': '<p>Hi {{firstName}}, from {{sender}}</p>\n',
};

/** 30 valid files and 13 others: 43 definitions, one of which (farewell.yaml) can never be cached. */
function mixedProject(extra: Record<string, string> = {}): string {
  const files: Record<string, string | Uint8Array> = { 'wfsync.config.yaml': 'workflowsDir: workflows\n' };
  for (let i = 0; i < 30; i++) files[`workflows/ok-${String(i).padStart(2, '0')}.yaml`] = valid(i);
  for (const [name, content] of Object.entries(broken)) files[`workflows/${name}`] = content;
  return makeProject({ ...files, ...extra });
}

const FILES = 43;
const CACHE = '.wfsync/cache/validate.json';
const checked = (on: string) => `wfsync: checked ${FILES} files on ${on}\n`;
const cacheLine = (unchanged: number, note = CACHE) =>
  `wfsync: cache: ${unchanged} of ${FILES} files unchanged (${note})\n`;

/** `wfsync validate --cache --verbose`: its stderr's cache line, and the rest. */
async function cached(cwd: string, args: string[] = []) {
  return runCli(['validate', '--cache', '--verbose', ...args], { cwd });
}

describe('wfsync validate --cache (the built CLI)', () => {
  it('gives byte-identical output cold and warm, in every format', async () => {
    const cwd = mixedProject();
    for (const format of ['human', 'json', 'github', 'junit', 'sarif']) {
      const args = ['--format', format];
      const reference = await runCli(['validate', ...args], { cwd });
      expect(reference.status).toBe(3);
      rmSync(join(cwd, '.wfsync'), { recursive: true, force: true });
      const cold = await cached(cwd, args);
      const warm = await cached(cwd, args);
      for (const run of [cold, warm]) {
        expect(run.stdout, format).toBe(reference.stdout);
        expect(run.status).toBe(3);
      }
      expect(cold.stderr).toBe(checked('the main thread') + cacheLine(0));
      // Warm, one file is left to check (its reference does not resolve).
      expect(warm.stderr).toBe(checked('the main thread') + cacheLine(FILES - 1));
    }
  });

  it('checks again exactly what an edit invalidates: a file, an included file, the rules', async () => {
    const cwd = mixedProject();
    const first = await cached(cwd);
    expect(first.stderr).toBe(checked('the main thread') + cacheLine(0));

    writeFileSync(join(cwd, 'workflows/ok-00.yaml'), valid(0).replace('type: chat', 'type: chatt'));
    const edited = await cached(cwd);
    expect(edited.stderr).toBe(checked('the main thread') + cacheLine(FILES - 2));
    expect(edited.stdout).toContain('workflows/ok-00.yaml:5:13 error');
    expect(edited.stdout).toBe((await runCli(['validate'], { cwd })).stdout);

    writeFileSync(join(cwd, 'workflows/emails/welcome.html'), '<p>Hi {{firstName}}</p>\n');
    const included = await cached(cwd);
    expect(included.stderr).toBe(checked('the main thread') + cacheLine(FILES - 2));
    expect(included.stdout).not.toContain('workflows/welcome.yaml');
    expect(included.stdout).toBe((await runCli(['validate'], { cwd })).stdout);

    // Shared by both email definitions: each is checked again.
    writeFileSync(join(cwd, 'workflows/emails/subject.txt'), 'Hello again {{firstName}}\n');
    expect((await cached(cwd)).stderr).toBe(checked('the main thread') + cacheLine(FILES - 2));

    writeFileSync(
      join(cwd, 'wfsync.config.yaml'),
      'workflowsDir: workflows\nrules:\n  variable-undeclared: error\n',
    );
    const rules = await cached(cwd);
    expect(rules.stderr).toBe(
      checked('the main thread') +
        cacheLine(0, `${CACHE} was written by another wfsync build, Node.js or rule settings: rebuilt`),
    );
    expect(rules.stdout).toMatch(/workflows\/warnings\.yaml:\d+:\d+ error .*\[variable-undeclared\]/);
    expect(rules.stdout).toBe((await runCli(['validate'], { cwd })).stdout);
    expect((await cached(cwd)).stderr).toBe(checked('the main thread') + cacheLine(FILES - 1));

    // Run from a subdirectory, the project's cache is found, and its files are named as seen from there.
    const sub = await runCli(['validate', '--cache', '--verbose', '.'], { cwd: join(cwd, 'workflows') });
    expect(sub.stderr).toBe(checked('the main thread') + cacheLine(0, `../${CACHE}`));
    expect(existsSync(join(cwd, 'workflows/.wfsync'))).toBe(false);
  });

  it('ignores and rebuilds a damaged or foreign cache file', async () => {
    const cwd = mixedProject();
    const reference = await runCli(['validate'], { cwd });
    mkdirSync(join(cwd, '.wfsync/cache'), { recursive: true });
    for (const [content, why] of [
      ['{"wfsync": "validate-cache", "format": 1, "key": "x", "entr', 'not valid JSON'],
      ['{"targets": {}}', 'not a wfsync validate cache'],
    ]) {
      writeFileSync(join(cwd, CACHE), content!);
      const damaged = await cached(cwd);
      expect(damaged.status).toBe(3);
      expect(damaged.stdout).toBe(reference.stdout);
      expect(damaged.stderr).toBe(checked('the main thread') + cacheLine(0, `${CACHE} was ${why}: rebuilt`));
      expect((await cached(cwd)).stderr).toBe(checked('the main thread') + cacheLine(FILES - 1));
    }
  });

  it('a cache that cannot be written costs one warning line, never the result', async () => {
    const cwd = mixedProject({ blocker: 'a file, not a directory\n' });
    const reference = await runCli(['validate'], { cwd });
    const result = await runCli(['validate', '--cache', '--cache-location', 'blocker/validate.json'], {
      cwd,
    });
    expect(result.status).toBe(3);
    expect(result.stdout).toBe(reference.stdout);
    expect(result.stderr).toMatch(
      /^wfsync: could not write the validate cache blocker\/validate\.json: [^\n]+\n$/,
    );
    expect(result.stderr).toMatch(/(EEXIST|ENOTDIR)/);

    const clean = makeProject({ 'workflows/a.yaml': valid(1), blocker: '' });
    const ok = await runCli(['validate', '--cache', '--cache-location', 'blocker/x.json'], { cwd: clean });
    expect(ok.status).toBe(0);
    expect(ok.stderr).toMatch(/^wfsync: could not write the validate cache blocker\/x\.json: /);
  });

  it('--cache-location puts the cache where it says (relative to the working directory)', async () => {
    const cwd = mixedProject();
    const first = await cached(cwd, ['--cache-location', 'tmp/wf.json']);
    expect(first.stderr).toBe(checked('the main thread') + cacheLine(0, 'tmp/wf.json'));
    expect(existsSync(join(cwd, 'tmp/wf.json'))).toBe(true);
    expect(existsSync(join(cwd, '.wfsync'))).toBe(false);
    const again = await cached(cwd, ['--cache-location', 'tmp/wf.json']);
    expect(again.stderr).toBe(checked('the main thread') + cacheLine(FILES - 1, 'tmp/wf.json'));
    expect(again.stdout).toBe(first.stdout);
  });

  it('rejects --cache with --watch, and --cache-location without --cache (exit 64)', async () => {
    const cwd = mixedProject();
    const watch = await runCli(['validate', '--cache', '--watch'], { cwd });
    expect(watch.status).toBe(64);
    expect(watch.stderr).toContain('--cache cannot be combined with --watch');
    const location = await runCli(['validate', '--cache-location', 'x.json'], { cwd });
    expect(location.status).toBe(64);
    expect(location.stderr).toContain('--cache-location needs --cache');
    expect(existsSync(join(cwd, 'x.json'))).toBe(false);
  });

  it('the .gitignore `wfsync init` writes keeps the cache out of git', async () => {
    const cwd = makeProject({ 'package.json': JSON.stringify({ name: 'acme-app' }) });
    expect(spawnSync('git', ['init', '-q'], { cwd }).status).toBe(0);
    expect((await runCli(['init', '--ci', 'none'], { cwd })).status).toBe(0);
    const run = await runCli(['validate', '--cache'], { cwd });
    expect(run.status).toBe(0);
    expect(JSON.parse(readFileSync(join(cwd, CACHE), 'utf8'))).toMatchObject({ wfsync: 'validate-cache' });
    const status = spawnSync('git', ['status', '--porcelain', '--untracked-files=all'], {
      cwd,
      encoding: 'utf8',
    });
    expect(status.stdout.split('\n').filter((line) => line.includes('.wfsync'))).toEqual([]);
  });
});
