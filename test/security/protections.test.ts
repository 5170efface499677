import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeExampleProject, makeProject, runCli } from '../e2e/helpers.js';
import { startTarget } from '../e2e/plan-sync-target.js';
import { parseJsonOutput } from '../helpers/json-output.js';
import { LEAF_CERT, LEAF_KEY } from '../unit/remote/tls-fixtures.js';

/**
 * The protections wfsync had before the hardening of issue 12, tried again as an attacker would, through the built
 * CLI: an included file outside the project, a service that answers too much, redirects elsewhere, has a certificate
 * nobody trusts or echoes the key, a plan that must stay read-only, a validate that must stay offline, a reviewed plan
 * edited after review, a header smuggled through an argument, an emulator asked to listen on the network.
 */

const KEY = 'sk_canary_0c4f9e2d7b1a';
const FAST = 'retries: { maxAttempts: 2, budget: 4, rateLimitWaits: 1 }';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
}

interface Hostile {
  url: string;
  seen: Seen[];
}

const closers: Array<() => Promise<void>> = [];
const dirs: string[] = [];

afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A loopback server that records every request and answers with `handler`. */
async function hostile(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
  tls = false,
): Promise<Hostile> {
  const seen: Seen[] = [];
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    req.resume();
    handler(req, res);
  };
  const server = tls
    ? createHttpsServer({ key: LEAF_KEY, cert: LEAF_CERT }, listener)
    : createHttpServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  const { port } = server.address() as AddressInfo;
  return { url: `${tls ? 'https://localhost' : 'http://127.0.0.1'}:${port}`, seen };
}

/** The example project with target `evil` pointing at `baseUrl`, its key in EVIL_KEY. */
function projectFor(baseUrl: string): string {
  const cwd = makeExampleProject();
  dirs.push(cwd);
  writeFileSync(
    join(cwd, 'wfsync.config.yaml'),
    [
      'targets:',
      '  evil:',
      `    baseUrl: ${baseUrl}`,
      '    apiKeyEnv: EVIL_KEY',
      '    notificationGroupId: 6650f0c0ffee00000000a000',
      '    notificationGroups: { transactional: 6650f0c0ffee00000000a001 }',
      `    ${FAST}`,
      '',
    ].join('\n'),
  );
  return cwd;
}

function runEvil(cwd: string, args: string[]) {
  return runCli([...args, '--target', 'evil'], { cwd, env: { EVIL_KEY: KEY } });
}

function expectNoKey(...texts: string[]): void {
  for (const text of texts) expect(text).not.toContain(KEY);
}

describe('protections that held before issue 12 still hold', () => {
  it('an included file outside the project is refused and never shown', async () => {
    const cwd = makeProject({
      'project/wfsync.config.yaml': 'workflowsDir: workflows\n',
      'outside.txt': `CANARY-${KEY}\n`,
      'project/workflows/leak.yaml': [
        'name: Leak',
        'steps:',
        '  - name: sms',
        '    template:',
        '      type: sms',
        '      content: { file: ../../outside.txt }',
        '',
      ].join('\n'),
    });
    dirs.push(cwd);
    for (const format of ['human', 'json', 'github', 'sarif']) {
      const run = await runCli(['validate', '--format', format], { cwd: join(cwd, 'project') });
      expect(run.status).toBe(3);
      expect(`${run.stdout}${run.stderr}`).toContain('include-outside-project');
      expectNoKey(run.stdout, run.stderr);
    }
  });

  it('a response over the size cap is cut off with a clear error, not read to the end', async () => {
    const chunk = Buffer.alloc(1 << 20, 0x20);
    const evil = await hostile((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":"');
      let sent = 0;
      const pump = () => {
        while (sent < 200 && res.write(chunk)) sent++;
        if (sent < 200 && !res.destroyed) res.once('drain', pump);
        else res.end('"}');
      };
      pump();
    });
    const run = await runEvil(projectFor(evil.url), ['plan']);
    expect(run.status).toBe(1);
    expect(run.stderr + run.stdout).toMatch(/too large|larger than|over .*(MB|MiB|bytes)/i);
    expect(run.stderr).not.toMatch(/this is a bug|at .*\.js:\d+/);
    expectNoKey(run.stdout, run.stderr);
  });

  it('a redirect is not followed, so the key never reaches the place it points to', async () => {
    const elsewhere = await hostile((_req, res) => res.end('{}'));
    const evil = await hostile((_req, res) => {
      res.writeHead(302, { location: `${elsewhere.url}/collect?k=1` });
      res.end();
    });
    const run = await runEvil(projectFor(evil.url), ['plan']);
    expect(run.status).toBe(1);
    expect(run.stdout + run.stderr).toContain('redirect');
    expect(run.stdout + run.stderr).toContain('not followed');
    expect(elsewhere.seen).toEqual([]);
    expect(evil.seen.length).toBeGreaterThan(0);
  });

  it('a certificate nobody trusts stops the run before any request carries the key', async () => {
    const evil = await hostile((_req, res) => res.end('{}'), true);
    const run = await runEvil(projectFor(evil.url), ['plan']);
    expect(run.status).toBe(1);
    expect(run.stdout + run.stderr).toMatch(/certificate/i);
    expect(evil.seen).toEqual([]);
    expectNoKey(run.stdout, run.stderr);
  });

  it('a service that echoes the key back in its errors has it redacted, in every format and with --verbose', async () => {
    const evil = await hostile((req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ statusCode: 400, message: `bad key ${req.headers.authorization}`, error: KEY }),
      );
    });
    const cwd = projectFor(evil.url);
    for (const args of [
      ['plan'],
      ['plan', '--format', 'json'],
      ['plan', '--verbose'],
      ['sync', '--format', 'json'],
    ]) {
      const run = await runEvil(cwd, args);
      expect(run.status, args.join(' ')).not.toBe(0);
      expectNoKey(run.stdout, run.stderr);
    }
    expect(evil.seen.some((s) => s.headers.authorization === `ApiKey ${KEY}`)).toBe(true);
  });

  it('plan only reads: no POST, even when every workflow is missing', async () => {
    const target = await startTarget();
    const run = await target.run(['plan']);
    expect(run.status).toBe(2);
    expect(run.requests.length).toBeGreaterThan(0);
    expect(run.requests.every((r) => r.method === 'GET')).toBe(true);
  });

  it('validate stays offline even with a target configured and its key set', async () => {
    const evil = await hostile((_req, res) => res.end('{}'));
    const cwd = projectFor(evil.url);
    const run = await runCli(['validate'], { cwd, env: { EVIL_KEY: KEY, WFSYNC_TARGET: 'evil' } });
    expect(run.status).toBe(0);
    expect(evil.seen).toEqual([]);
  });

  it('a reviewed plan edited after review is refused and nothing is sent', async () => {
    const target = await startTarget();
    const planFile = join(target.cwd, 'plan.json');
    expect((await target.run(['plan', '--out', planFile])).status).toBe(2);
    const plan = parseJsonOutput('plan', readFileSync(planFile, 'utf8')) as {
      items: Array<Record<string, unknown>>;
    };
    // The reviewer approved 9 creates; someone drops one from the file to hide it, and renames another.
    plan.items = plan.items.slice(1);
    plan.items[0] = { ...plan.items[0], name: 'Looks harmless' };
    writeFileSync(planFile, JSON.stringify(plan));
    const run = await target.run(['sync', '--plan', planFile]);
    expect(run.status).not.toBe(0);
    expect(run.posts).toBe(0);
    expect(run.stderr).toContain('nothing was sent');
    // A plan file stripped of the fields the check reads is refused by name, not a crash.
    writeFileSync(planFile, JSON.stringify({ version: 1, items: [{ identifier: 'x' }] }));
    const stripped = await target.run(['sync', '--plan', planFile]);
    expect(stripped.status).toBe(3);
    expect(stripped.stderr).toContain('"target.name" is missing or not a string');
    expect(stripped.stderr).not.toContain('this is a bug');
    expect(stripped.posts).toBe(0);
  });

  it('a header cannot be smuggled through an identifier on the command line', async () => {
    const evil = await hostile((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"statusCode":404,"message":"not found"}');
    });
    const cwd = projectFor(evil.url);
    const smuggled = await runEvil(cwd, ['pull', 'welcome\r\nX-Injected: yes']);
    // That workflow fails (exit 1), named on one line; nothing is sent.
    expect(smuggled.status).toBe(1);
    expect(smuggled.stderr).toContain(
      'wfsync: "welcome\\r\\nX-Injected: yes": GET /v1/workflows/{workflowId}: the workflow id or identifier "welcome\\r\\nX-Injected: yes" contains control characters',
    );
    expect(evil.seen).toEqual([]);
    const traversal = await runEvil(cwd, ['pull', 'a b/../../v2/admin']);
    expect(traversal.status).not.toBe(0);
    expect(evil.seen.length).toBeGreaterThan(0);
    for (const request of evil.seen) {
      expect(request.url).not.toContain('/v2/admin');
      expect(request.url.startsWith('/v1/workflows/')).toBe(true);
    }
  });

  it('the emulator refuses to listen anywhere but loopback', async () => {
    const cwd = makeProject({});
    dirs.push(cwd);
    mkdirSync(join(cwd, 'workflows'));
    const run = await runCli(['emulate', '--host', '0.0.0.0', '--port', '0'], { cwd, timeoutMs: 20_000 });
    expect(run.status).toBe(64);
    expect(run.stderr).toContain('only listens on a loopback address');
  });
});
