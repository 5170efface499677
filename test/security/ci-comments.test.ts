/**
 * The PR comment and the MR note (`wfsync ci-relay`, which the GitLab jobs run) against a
 * hostile API: real HTTP over loopback, the built CLI spawned as the job runs it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { upsertGithubComment as upsertComment } from '../../src/ci/github-comment.js';
import { runCli } from '../e2e/helpers.js';

const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
}

async function serve(
  answer: (req: IncomingMessage, res: ServerResponse, seen: Seen[]) => void,
): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server: Server = createServer((req, res) => {
    req.resume();
    seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers });
    answer(req, res, seen);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise((resolve) => server.close(resolve)));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { url: `http://127.0.0.1:${address.port}`, seen };
}

function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(value));
}

const MARKER = '<!-- wfsync-plan target=development -->';

/** `wfsync ci-relay` as the plan job runs it, after a plan that exited `code`; resolves when it ends. */
async function runNoteRelay(api: string, code = '2') {
  const dir = mkdtempSync(join(tmpdir(), 'wfsync-note-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'plan.md'), `<!-- wfsync-plan -->\n${MARKER}\n### plan\n`);
  return runCli(
    [
      'ci-relay',
      '--command',
      'plan',
      '--exit-code',
      code,
      '--target',
      'development',
      '--markdown',
      'plan.md',
    ],
    {
      cwd: dir,
      env: {
        GITLAB_CI: 'true',
        WFSYNC_GITLAB_TOKEN: 'glpat-secret-token-value',
        CI_API_V4_URL: `${api}/api/v4`,
        CI_PROJECT_ID: '17',
        CI_MERGE_REQUEST_IID: '7',
      },
    },
  );
}

describe('the GitLab MR note (wfsync ci-relay) against a hostile API', () => {
  it('stops after a bounded number of pages when X-Next-Page never ends', async () => {
    const api = await serve((req, res) => {
      if (req.url === '/api/v4/user') return sendJson(res, 200, { id: 42 });
      if (req.method === 'GET') return sendJson(res, 200, [], { 'x-next-page': '2' });
      return sendJson(res, 201, { id: 5 });
    });
    const run = await runNoteRelay(api.url);
    const pages = api.seen.filter((s) => s.method === 'GET' && s.path.includes('/notes'));
    expect(pages.length).toBeLessThanOrEqual(100);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('pages');
  });

  it("does not take a note for the token's own when the API names no user id", async () => {
    const api = await serve((req, res) => {
      if (req.url === '/api/v4/user') return sendJson(res, 200, { username: 'someone' });
      if (req.method === 'GET')
        return sendJson(res, 200, [{ id: 3, body: `${MARKER} planted`, system: false, author: {} }]);
      return sendJson(res, 201, { id: 9 });
    });
    const run = await runNoteRelay(api.url);
    expect(api.seen.some((s) => s.method === 'PUT')).toBe(false);
    expect(run.status).toBe(1);
  });

  it("prints the API's error text without control characters and never the token", async () => {
    const api = await serve((_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('boom \x1b[2J\x1b]8;;https://evil.example\x07click\x1b]8;;\x07 section_start:1:x\r\x1b[0K');
    });
    const run = await runNoteRelay(api.url);
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('boom');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the point of the test
    expect(run.stdout + run.stderr).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f]/);
    expect(run.stdout + run.stderr).not.toContain('glpat-secret-token-value');
  });
});

describe('the GitHub PR comment against a hostile API', () => {
  it('never sends the token to another origin: a redirect to another host is not followed with it', async () => {
    const elsewhere = await serve((_req, res) => sendJson(res, 200, []));
    const api = await serve((req, res) => {
      if (req.url === '/user') return sendJson(res, 200, { login: 'bot' });
      res.writeHead(302, { location: `${elsewhere.url}/steal` });
      res.end();
    });
    await upsertComment({
      apiUrl: api.url,
      token: 'ghs_secret_token_value',
      repository: 'o/r',
      issueNumber: 1,
      marker: MARKER,
      body: `${MARKER}\nplan`,
      createWhenNew: true,
    }).catch(() => undefined);
    for (const request of elsewhere.seen) expect(JSON.stringify(request.headers)).not.toContain('ghs_secret');
  });

  it('refuses a next page on another origin', async () => {
    const elsewhere = await serve((_req, res) => sendJson(res, 200, []));
    const api = await serve((req, res) => {
      if (req.url === '/user') return sendJson(res, 200, { login: 'bot' });
      return sendJson(res, 200, [], { link: `<${elsewhere.url}/page2>; rel="next"` });
    });
    await expect(
      upsertComment({
        apiUrl: api.url,
        token: 'ghs_secret_token_value',
        repository: 'o/r',
        issueNumber: 1,
        marker: MARKER,
        body: `${MARKER}\nplan`,
        createWhenNew: true,
      }),
    ).rejects.toThrow(/another host/);
    expect(elsewhere.seen).toHaveLength(0);
  });

  it("does not update another user's comment that carries the marker", async () => {
    const api = await serve((req, res) => {
      if (req.url === '/user') return sendJson(res, 200, { login: 'bot' });
      if (req.method === 'GET')
        return sendJson(res, 200, [{ id: 1, body: `${MARKER} planted`, user: { login: 'mallory' } }]);
      return sendJson(res, 201, { html_url: 'https://example.test/c/2' });
    });
    const result = await upsertComment({
      apiUrl: api.url,
      token: 't',
      repository: 'o/r',
      issueNumber: 1,
      marker: MARKER,
      body: `${MARKER}\nplan`,
      createWhenNew: true,
    });
    expect(result.action).toBe('created');
    expect(api.seen.some((s) => s.method === 'PATCH')).toBe(false);
  });
});
