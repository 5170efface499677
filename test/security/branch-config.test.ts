import { writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, runCli } from '../e2e/helpers.js';
import { validNumbered } from '../fixtures/workflow-texts.js';
import { git } from '../helpers/git.js';

/**
 * A pull request's branch carries its own wfsync.config.yaml. CI plans it with the repository's key in the
 * environment, so a branch that points the target at another host, or at another secret, must not get a request
 * out of wfsync: the plan reads the config at the base and refuses (exit 3) before anything is sent.
 */

const KEY = 'wfsync-test-key-0123456789abcdef';
let server: Server;
let url: string;
const seen: Array<{ path: string; authorization?: string }> = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', authorization: req.headers.authorization });
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end('{"statusCode":401,"message":"nope"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const config = (baseUrl: string, apiKeyEnv = 'WFSYNC_DEVELOPMENT_API_KEY') =>
  `targets:\n  development:\n    baseUrl: ${baseUrl}\n    apiKeyEnv: ${apiKeyEnv}\n    notificationGroupId: 0123456789abcdef01234567\n`;

/** A repository whose main has `base` as its config (none when undefined), and a branch that has `branch`. */
function repository(base: string | undefined, branch: string): string {
  const cwd = makeProject({ 'workflows/one.yaml': validNumbered(1) });
  git(cwd, 'init', '-q', '-b', 'main');
  if (base !== undefined) writeFileSync(join(cwd, 'wfsync.config.yaml'), base);
  git(cwd, 'add', '.');
  git(cwd, 'commit', '-q', '-m', 'base');
  git(cwd, 'checkout', '-q', '-b', 'change');
  writeFileSync(join(cwd, 'wfsync.config.yaml'), branch);
  git(cwd, 'add', '.');
  git(cwd, 'commit', '-q', '-m', 'the branch');
  return cwd;
}

async function plan(cwd: string, extra: string[] = [], env: Record<string, string> = {}) {
  seen.length = 0;
  return runCli(['plan', '--target', 'development', '--base', 'main', '--allow-insecure-http', ...extra], {
    cwd,
    env: { WFSYNC_DEVELOPMENT_API_KEY: KEY, OTHER_SECRET: KEY, ...env },
  });
}

describe('a branch that changes where the key goes', () => {
  it('another baseUrl: refused at exit 3 before any request, naming the base and what to do', async () => {
    const cwd = repository(config('http://127.0.0.1:9'), config(url));
    const result = await plan(cwd);
    expect(result.status).toBe(3);
    expect(result.stderr).toContain(
      'refusing to plan target "development" with this branch\'s wfsync.config.yaml',
    );
    expect(result.stderr).toContain('its baseUrl is "http://127.0.0.1:9" at the base (main, ');
    expect(result.stderr).toContain('merge the config change on its own first');
    expect(seen).toEqual([]);
    expect(result.stdout + result.stderr).not.toContain(KEY);
  });

  it('another apiKeyEnv: refused too', async () => {
    const cwd = repository(config(url), config(url, 'OTHER_SECRET'));
    const result = await plan(cwd);
    expect(result.status).toBe(3);
    expect(result.stderr).toContain('its apiKeyEnv is "WFSYNC_DEVELOPMENT_API_KEY" at the base');
    expect(seen).toEqual([]);
  });

  it('a target, or a config, the base does not have: refused', async () => {
    const added = repository('targets: {}\n', config(url));
    expect((await plan(added)).stderr).toContain('target "development" does not exist at the base');
    const fresh = repository(undefined, config(url));
    const result = await plan(fresh);
    expect(result.stderr).toContain('the config does not exist at the base');
    expect(result.status).toBe(3);
    expect(seen).toEqual([]);
  });

  it('the same route as the base: the plan goes out (to the host the base names)', async () => {
    const cwd = repository(config(url), `${config(url)}# a comment the branch added\n`);
    const result = await plan(cwd);
    expect(result.stderr).not.toContain('refusing');
    expect(seen.length).toBeGreaterThan(0);
  });

  it("the job's own --base-url is not the branch's: only apiKeyEnv is compared", async () => {
    const cwd = repository(config('http://127.0.0.1:9'), config('http://127.0.0.1:8'));
    const result = await plan(cwd, ['--base-url', url]);
    expect(result.stderr).not.toContain('refusing');
    expect(seen.length).toBeGreaterThan(0);
  });
});
