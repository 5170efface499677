import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startConnectProxy } from '../helpers/connect-proxy.js';
import { parseJsonOutput } from '../helpers/json-output.js';
import { runCli } from './helpers.js';
import { closedPort, startTarget, type TargetRun } from './plan-sync-target.js';

/**
 * `wfsync doctor`: the built CLI against the emulator on loopback, one scenario per way a setup goes wrong. Each
 * asserts the whole report (the emulator's URL put in), the exit code, and that the key never appears.
 */

const PROD_KEY = 'wfs_9f3c1a7e5b2d4c6e8a0b1c2d3e4f5a6b';
const WRONG_KEY = 'wfs_0d1e2f3a4b5c6d7e8f90a1b2c3d4e5f6';

/** Neither the key nor any long piece of it anywhere in the output. */
function expectNoSecret(run: TargetRun, key: string): void {
  for (const text of [run.stdout, run.stderr]) {
    for (let i = 0; i + 8 <= key.length; i++) expect(text).not.toContain(key.slice(i, i + 8));
  }
}

const HEAD = (url: string) => [
  'wfsync doctor: target "dev"',
  `  ok    Node.js              v${process.versions.node} (wfsync needs >=20.19)`,
  `  ok    config               wfsync.config.yaml is valid; target "dev" (${url})`,
  '  ok    workflows            9 definitions in workflows, valid',
];

describe('wfsync doctor', () => {
  it('passes every check against the emulator: exit 0, the report line by line', async () => {
    const target = await startTarget();
    const run = await target.run(['doctor']);
    const url = target.emulator.url;
    expect(run.stdout).toBe(
      [
        ...HEAD(url),
        '  ok    API key variable     $DEV_KEY is set (its value is never shown)',
        `  ok    service reachable    ${url} directly: no proxy is set (HTTP_PROXY)`,
        '  ok    key accepted         the service accepted the key in $DEV_KEY',
        '  ok    key\'s environment    "Development": may create workflows (plan, sync and pull all work)',
        "  ok    notification groups  the 1 group the definitions use exists in the key's environment",
        '  ok    state file           .wfsync/state/dev.json: none yet (the first sync writes it)',
        '  ok    state lock           free',
        '  ok    CI recipes           none written ("wfsync init --ci github|gitlab" writes them)',
        '',
        '11 ok: exit 0',
        '',
      ].join('\n'),
    );
    expect(run.status).toBe(0);
    expect(run.stderr).toBe('');
    // Read-only: reads, and no state written.
    expect(run.requests.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /v1/environments/me',
      'GET /v1/notification-groups',
    ]);
    expect(target.state()).toBeUndefined();
    expectNoSecret(run, target.emulator.apiKey);
  });

  it('--format json: the same checks as one document of its schema', async () => {
    const target = await startTarget();
    await target.run(['sync']);
    const run = await target.run(['doctor', '--format', 'json']);
    expect(run.status).toBe(0);
    const document = parseJsonOutput('doctor', run.stdout);
    expect(document.target).toBe('dev');
    expect(document.exitCode).toBe(0);
    expect(document.summary).toEqual({ ok: 11, warn: 0, fail: 0, skipped: 0 });
    expect(document.checks.map((c: { id: string }) => c.id)).toEqual([
      'node',
      'config',
      'workflows',
      'api-key',
      'reachable',
      'key-accepted',
      'environment',
      'notification-groups',
      'state',
      'lock',
      'ci-recipes',
    ]);
    expect(document.checks[8].message).toBe('.wfsync/state/dev.json: 9 workflows recorded');
    expectNoSecret(run, target.emulator.apiKey);
  });

  it('the key variable unset: fails there (exit 4), the service checks skipped, state still checked', async () => {
    const target = await startTarget();
    const run = await target.run(['doctor'], { DEV_KEY: undefined });
    const skipped = 'no API key to ask the service with (see "API key variable")';
    expect(run.stdout).toBe(
      [
        ...HEAD(target.emulator.url),
        '  FAIL  API key variable     no API key for target "dev": set the environment variable DEV_KEY (or WFSYNC_API_KEY)',
        "                             → set DEV_KEY to the API key of the service's Development environment (Settings > API Keys)",
        `  skip  service reachable    ${skipped}`,
        `  skip  key accepted         ${skipped}`,
        `  skip  key's environment    ${skipped}`,
        `  skip  notification groups  ${skipped}`,
        '  ok    state file           .wfsync/state/dev.json: none yet (the first sync writes it)',
        '  ok    state lock           free',
        '  ok    CI recipes           none written ("wfsync init --ci github|gitlab" writes them)',
        '',
        '6 ok, 1 failed, 4 skipped: exit 4, from the first failure ("API key variable")',
        '',
      ].join('\n'),
    );
    expect(run.status).toBe(4);
    expect(run.requests).toEqual([]);
  });

  it('a wrong key: reachable, then fails at "key accepted" (exit 4) without showing the key', async () => {
    const target = await startTarget();
    const run = await target.run(['doctor', '--format', 'json'], { DEV_KEY: WRONG_KEY });
    expect(run.status).toBe(4);
    const checks = parseJsonOutput('doctor', run.stdout).checks as Array<Record<string, unknown>>;
    const byId = Object.fromEntries(checks.map((c) => [c.id, c]));
    expect(byId.reachable?.status).toBe('ok');
    expect(byId['key-accepted']).toMatchObject({ status: 'fail', exitCode: 4 });
    expect(byId['key-accepted']?.message).toContain('401');
    expect(byId['key-accepted']?.hint).toBe(
      "put the API key of the service's Development environment in DEV_KEY (Settings > API Keys)",
    );
    expect(byId.environment).toEqual({
      id: 'environment',
      title: "key's environment",
      status: 'skipped',
      message: 'the service did not accept the key',
    });
    expectNoSecret(run, WRONG_KEY);
    const human = await target.run(['doctor'], { DEV_KEY: WRONG_KEY });
    expect(human.stdout).toContain('  FAIL  key accepted         GET /v1/environments/me: ');
    expect(human.stdout).toContain('exit 4, from the first failure ("key accepted")\n');
    expectNoSecret(human, WRONG_KEY);
  });

  it('no service at the base URL: fails at "service reachable" (exit 1) and says where it tried', async () => {
    const port = await closedPort();
    const target = await startTarget({ baseUrl: `http://127.0.0.1:${port}` });
    const run = await target.run(['doctor']);
    expect(run.status).toBe(1);
    const lines = run.stdout.split('\n');
    const reachable = lines.find((line) => line.includes('service reachable'))!;
    expect(reachable).toMatch(/^ {2}FAIL {2}service reachable {4}GET \/v1\/environments\/me: /);
    expect(reachable).toContain(`(http://127.0.0.1:${port} directly: no proxy is set (HTTP_PROXY))`);
    expect(lines[lines.indexOf(reachable) + 1]).toBe(
      '                             → behind a proxy, check HTTPS_PROXY/HTTP_PROXY and NO_PROXY (either case): the line above says the route taken',
    );
    expect(run.stdout).toContain('  skip  key accepted         the service could not be reached\n');
    expect(run.stdout).toContain('exit 1, from the first failure ("service reachable")\n');
    expectNoSecret(run, target.emulator.apiKey);
  });

  it('a Production key: says what that key may not do (a warning: plan and pull still work)', async () => {
    const target = await startTarget({ emulator: { productionKeys: [PROD_KEY] } });
    const run = await target.run(['doctor'], { DEV_KEY: PROD_KEY });
    expect(run.stdout).toContain(
      `  warn  key's environment    "Production" (derived from another one): workflows are view-only there; plan, pull and state show work, but sync to target "dev" would be refused (401) for every workflow to create\n` +
        '                             → to sync, give DEV_KEY the Development environment\'s key; to bring workflows here, give this key to a target with promoteFrom: "dev" (it only reads)\n',
    );
    expect(run.stdout).toContain('\n9 ok, 1 warning, 1 skipped: exit 0\n');
    expect(run.status).toBe(0);
    expectNoSecret(run, PROD_KEY);
  });

  it('a stale lock: names its holder, says the next run removes it', async () => {
    const target = await startTarget();
    mkdirSync(join(target.cwd, '.wfsync/state'), { recursive: true });
    // A pid far above any this host hands out: the holder is gone.
    const holder = {
      pid: 2_147_483_000,
      hostname: hostname(),
      startedAt: '2026-01-02T03:04:05.000Z',
      command: 'wfsync sync',
    };
    writeFileSync(`${target.statePath}.lock`, `${JSON.stringify(holder)}\n`);
    const run = await target.run(['doctor']);
    expect(run.stdout).toContain(
      `  warn  state lock           stale: .wfsync/state/dev.json.lock: "wfsync sync", pid 2147483000 on ${hostname()}, since 2026-01-02T03:04:05.000Z, which is no longer running\n` +
        '                             → the next run that takes the lock removes it by itself; or delete .wfsync/state/dev.json.lock\n',
    );
    expect(run.status).toBe(0);
    // A live holder (this test's own process): a run in progress, not stale.
    writeFileSync(`${target.statePath}.lock`, `${JSON.stringify({ ...holder, pid: process.pid })}\n`);
    const held = await target.run(['doctor']);
    expect(held.stdout).toContain(
      `  warn  state lock           held by .wfsync/state/dev.json.lock: "wfsync sync", pid ${process.pid} on ${hostname()}, since 2026-01-02T03:04:05.000Z\n` +
        '                             → a run is in progress: sync, pull and state rebuild wait for it to finish\n',
    );
  });

  it('an invalid config: fails at "config" (exit 3) with the position, every later check skipped', async () => {
    const target = await startTarget();
    writeFileSync(
      join(target.cwd, 'wfsync.config.yaml'),
      'workflowsDir: workflows\ntargets:\n  dev:\n    baseUrl: 42\n',
    );
    const run = await target.run(['doctor']);
    expect(run.status).toBe(3);
    const lines = run.stdout.split('\n');
    expect(lines[0]).toBe('wfsync doctor');
    expect(lines[2]).toMatch(/^ {2}FAIL {2}config {15}.*wfsync\.config\.yaml:4:\d+ /);
    expect(lines.filter((line) => line.startsWith('  skip  '))).toHaveLength(9);
    expect(run.stdout).toContain('exit 3, from the first failure ("config")\n');
  });

  it('a CI recipe edited by hand: a warning naming it, and how to rewrite it', async () => {
    const target = await startTarget();
    const init = await runCli(['init', '--ci', 'github'], { cwd: target.cwd });
    expect(init.status).toBe(0);
    const unchanged = await target.run(['doctor']);
    expect(unchanged.stdout).toContain('  ok    CI recipes           3 files, as this wfsync writes them\n');
    const path = join(target.cwd, '.github/workflows/wfsync-sync.yml');
    writeFileSync(path, `${readFileSync(path, 'utf8')}# edited\n`);
    const run = await target.run(['doctor']);
    expect(run.stdout).toContain(
      '  warn  CI recipes           .github/workflows/wfsync-sync.yml differs from what this wfsync writes (edited by hand, or written by another version)\n' +
        '                             → "wfsync init --ci github --force" rewrites it (edits by hand are lost: compare first)\n',
    );
    expect(run.status).toBe(0);
  });

  it('behind a proxy: reachable through it (credentials never shown); a proxy that refuses fails "reachable"', async () => {
    const token = `Basic ${Buffer.from('doctor:pr0xy-s3cret-pass').toString('base64')}`;
    const proxy = await startConnectProxy({ requireAuthorization: token });
    const refusing = await startConnectProxy({ refuseWith: 502 });
    try {
      const target = await startTarget();
      const url = target.emulator.url;
      const proxied = `http://doctor:pr0xy-s3cret-pass@127.0.0.1:${proxy.port}`;
      const run = await target.run(['doctor'], { HTTP_PROXY: proxied });
      expect(run.stdout).toContain(
        `  ok    service reachable    ${url} through the proxy http://127.0.0.1:${proxy.port} (HTTP_PROXY)\n`,
      );
      expect(run.status).toBe(0);
      expect(proxy.seen.map((s) => s.method)).toContain('CONNECT');
      for (const secret of ['pr0xy-s3cret-pass', token.slice(6)]) {
        expect(run.stdout + run.stderr).not.toContain(secret);
      }
      const refused = await target.run(['doctor'], { HTTP_PROXY: refusing.url });
      expect(refused.status).toBe(1);
      expect(refused.stdout).toMatch(
        new RegExp(
          `FAIL {2}service reachable {4}GET /v1/environments/me: .*through the proxy ${refusing.url} \\(HTTP_PROXY\\)`,
        ),
      );
    } finally {
      await proxy.close();
      await refusing.close();
    }
  });
});
