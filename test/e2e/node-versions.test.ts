import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, makeExampleProject, ROOT } from './helpers.js';

// The package works on every Node line users run (`engines`: >=20.19; the tests themselves run on this machine's
// 20): the built CLI and the API, run by official builds of Node 22 and 24 that .ci/run fetches from the npm registry
// and names in WFSYNC_TEST_NODES (colon-separated paths).
const NODES = (process.env.WFSYNC_TEST_NODES ?? '').split(':').filter(Boolean);
if (NODES.length === 0) {
  if (process.env.CI) throw new Error('WFSYNC_TEST_NODES is empty under CI: .ci/run fetches Node 22 and 24');
  console.log('skipped: WFSYNC_TEST_NODES names no Node binaries (bash .ci/run fetches Node 22 and 24)');
}

function run(node: string, args: string[], cwd: string, env: Record<string, string> = {}) {
  const result = spawnSync(node, args, {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', TZ: 'UTC', ...env },
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe.skipIf(NODES.length === 0)('on other Node versions', () => {
  for (const node of NODES) {
    const version = spawnSync(node, ['-p', 'process.version'], { encoding: 'utf8' }).stdout.trim();

    it(`${version}: the CLI validates, syncs to the local service, then plans nothing, with its compile cache`, () => {
      const cwd = makeExampleProject();
      const cache = mkdtempSync(join(tmpdir(), 'wfsync-node-versions-cache-'));
      const env = { WFSYNC_COMPILE_CACHE: cache };
      const versionLine = run(node, [BIN, '--version'], cwd);
      expect(versionLine.stdout).toMatch(
        new RegExp(`^\\d+\\.\\d+\\.\\d+ \\(node ${version.replaceAll('.', '\\.')};`),
      );
      for (const attempt of [1, 2]) {
        const validate = run(node, [BIN, 'validate'], cwd, env);
        expect(validate.status, `${attempt}: ${validate.stderr}`).toBe(0);
        expect(validate.stdout).toMatch(/files valid/);
      }
      const [build] = readdirSync(cache);
      expect(build).toMatch(new RegExp(`^${version.replaceAll('.', '\\.')}-`));
      expect(readdirSync(join(cache, build!, 'validate')).length).toBeGreaterThan(3);
      const sync = run(node, [BIN, 'sync'], cwd, env);
      expect(sync.status, sync.stderr).toBe(0);
      expect(sync.stdout).toMatch(/Sync: \d+ created, 0 in sync, 0 drifted, 0 failed, 0 skipped\./);
      const plan = run(node, [BIN, 'plan', '--format', 'json'], cwd, env);
      expect(plan.status, plan.stderr).toBe(0);
      expect(JSON.parse(plan.stdout)).toMatchObject({ schemaVersion: 4 });
    });

    it(`${version}: the API (ES modules) loads and validates`, () => {
      const cwd = makeExampleProject();
      const api = pathToFileURL(join(ROOT, 'dist/index.js')).href;
      const script = `const { validate } = await import(${JSON.stringify(api)});
        const result = await validate({ cwd: process.cwd() });
        console.log(JSON.stringify({ exitCode: result.exitCode, files: result.document.summary.files }));`;
      const out = run(node, ['--input-type=module', '-e', script], cwd);
      expect(out.status, out.stderr).toBe(0);
      const { exitCode, files } = JSON.parse(out.stdout) as { exitCode: number; files: number };
      expect(exitCode).toBe(0);
      expect(files).toBe(readdirSync(join(cwd, 'workflows')).filter((f) => f.endsWith('.yaml')).length);
    });
  }
});
