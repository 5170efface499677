import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { git } from '../helpers/git.js';
import { tempProject, writeFiles } from '../helpers/temp-project.js';
import { BIN, runCli } from './helpers.js';

/**
 * A repository as a team adopting wfsync on GitLab has it: `wfsync init --ci gitlab` run by the built CLI, the
 * `development` target pointing at a loopback emulator, and wfsync a devDependency that `npm ci` installs offline
 * (a local package whose bin starts the built CLI: the registry is not reachable from the tests). Committed on
 * `main`; returns the directory.
 */
export async function makeGitlabProject(emulator: RunningEmulator): Promise<string> {
  const cwd = tempProject({}, 'wfsync-gitlab-');
  git(cwd, 'init', '-q', '-b', 'main');
  const init = await runCli(['init', '--ci', 'gitlab'], { cwd });
  if (init.status !== 0) throw new Error(`init failed: ${init.stderr}`);
  writeFiles(cwd, {
    'vendor/wfsync/package.json': JSON.stringify({
      name: 'wfsync',
      version: '0.0.0-local',
      bin: { wfsync: 'cli.mjs' },
    }),
    'vendor/wfsync/cli.mjs': `#!/usr/bin/env node\nawait import(${JSON.stringify(pathToFileURL(BIN).href)});\n`,
    'package.json': JSON.stringify({
      name: 'acme',
      private: true,
      devDependencies: { wfsync: 'file:./vendor/wfsync' },
    }),
  });
  chmodSync(join(cwd, 'vendor/wfsync/cli.mjs'), 0o755);
  execFileSync('npm', ['install', '--package-lock-only', '--offline', '--no-audit', '--no-fund'], {
    cwd,
    stdio: 'ignore',
  });
  writeFileSync(
    join(cwd, 'wfsync.config.yaml'),
    [
      'workflowsDir: workflows',
      'targets:',
      '  development:',
      `    baseUrl: ${emulator.url}`,
      '    apiKeyEnv: WFSYNC_DEVELOPMENT_API_KEY',
      `    notificationGroupId: ${emulator.notificationGroupId}`,
      '',
    ].join('\n'),
  );
  git(cwd, 'add', '-A');
  git(cwd, 'commit', '-qm', 'wfsync on GitLab');
  return cwd;
}

export interface Note {
  id: number;
  body: string;
  system: boolean;
  author: { id: number; username: string };
}

export interface NotesApi {
  /** `http://127.0.0.1:<port>/api/v4`, as CI_API_V4_URL. */
  url: string;
  token: string;
  notes: Note[];
  /** `METHOD path` of every request, oldest first. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * A loopback stand-in for the part of GitLab's REST API `wfsync ci-relay` uses (facts from GitLab's API docs):
 * `GET /user`, and a merge request's notes (`GET` paged by `per_page`/`page` with `X-Next-Page`, `POST`, `PUT`), all
 * behind `PRIVATE-TOKEN`. Holds notes by someone else (one of them quoting wfsync's marker) and enough of them that
 * the token's own note is on a later page.
 */
export async function startNotesApi(options: {
  project: string;
  mergeRequest: string;
  others: Note[];
}): Promise<NotesApi> {
  const token = 'glpat-test-token';
  const me = { id: 42, username: 'project_7_bot' };
  const notes = [...options.others];
  const requests: string[] = [];
  const base = `/api/v4/projects/${encodeURIComponent(options.project)}/merge_requests/${options.mergeRequest}/notes`;
  const send = (
    res: ServerResponse,
    status: number,
    value: unknown,
    headers: Record<string, string> = {},
  ) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(value));
  };
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push(`${req.method} ${url.pathname}${url.search}`);
    if (req.headers['private-token'] !== token) return send(res, 401, { message: '401 Unauthorized' });
    if (req.method === 'GET' && url.pathname === '/api/v4/user') return send(res, 200, me);
    if (req.method === 'GET' && url.pathname === base) {
      const perPage = Number(url.searchParams.get('per_page') ?? 20);
      const page = Number(url.searchParams.get('page') ?? 1);
      const slice = notes.slice((page - 1) * perPage, page * perPage);
      const next = page * perPage < notes.length ? String(page + 1) : '';
      return send(res, 200, slice, { 'x-next-page': next });
    }
    if (req.method === 'POST' && url.pathname === base) {
      const note: Note = { id: 1000 + notes.length, body: JSON.parse(text).body, system: false, author: me };
      notes.push(note);
      return send(res, 201, note);
    }
    const put = url.pathname.startsWith(`${base}/`)
      ? notes.find((n) => `${base}/${n.id}` === url.pathname)
      : undefined;
    if (req.method === 'PUT' && put) {
      if (put.author.id !== me.id) return send(res, 403, { message: '403 Forbidden' });
      put.body = JSON.parse(text).body;
      return send(res, 200, put);
    }
    return send(res, 404, { message: '404 Not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return {
    url: `http://127.0.0.1:${address.port}/api/v4`,
    token,
    notes,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Notes by other people: `count` of them, the first quoting wfsync's marker (anyone can). */
export function otherNotes(count: number, marker: string): Note[] {
  return Array.from({ length: count }, (_, i) => ({
    id: i + 1,
    body: i === 0 ? `${marker}\nI quoted the bot` : `LGTM ${i}`,
    system: i % 10 === 5,
    author: { id: 7, username: 'reviewer' },
  }));
}

export interface ShellRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A job's script run by `sh -e` (as the runner runs it) in `cwd`, with `env` on top of PATH and HOME; `args` become
 * the script's `$0 $1 …`. Asynchronous: the emulator and the notes API answer from the test's own process.
 */
export function runJobScript(
  script: string,
  cwd: string,
  env: Record<string, string>,
  args: string[] = [],
): Promise<ShellRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-e', '-c', script, ...args], {
      cwd,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1', TZ: 'UTC', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}
