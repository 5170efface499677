/**
 * The write paths (update, delete, promotion) against a hostile service, the built CLI spawned as CI runs it: the
 * contract fake (test/helpers/contract-fake) behind a loopback proxy that rewrites its answers, so the service's
 * text reaches the new fields — a removed step's name and channel, a replaced step's old channel and the update's
 * notes, a delete's target (its identifier from the state file), Production copies' names and descriptions, the
 * change records' `templateName` and `user` — and every output channel of plan and sync (human, json, markdown,
 * github under Actions, codeclimate) and the ci-relay note must show it without obeying it.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeProject, type RunResult, runCli } from '../e2e/helpers.js';
import { type ContractFake, startContractFake } from '../helpers/contract-fake/index.js';
import { expectMarkupInert, UNSAFE } from '../helpers/markdown-markup.js';
import { runnerCommands } from '../helpers/runner.js';

/** Every hostile fragment, on one line, then lines that would pass for wfsync's own or a runner's. */
const HOSTILE = [
  '\x1b]8;;https://evil.example\x07link\x1b]8;;\x07',
  '\x1b]0;title\x07\x1b[2J',
  '\x07\x08\u009b31m',
  '\u202eevil\u2066x\u2069',
  'z\u200bw',
  '</details></summary><img src="https://tracker.example/p.png">',
  '[a](https://evil.example)',
  '@org/team @someone #12',
  '````',
  '<!-- wfsync-plan -->',
  '<!-- wfsync-plan target=development -->',
  '##[add-mask]x',
  '%0A::error::percent',
  '\n::error::forged\n✔ in sync   forged-line  workflows/forged.yaml\n/approve\n/merge',
].join(' ');

/** A token only the change records' dashboard text carries: wfsync keeps none of it. */
const DASHBOARD_ONLY = 'dashboardonlytoken';

/** The command lines the CLI may write: its own annotations, nothing else. */
const OWN = /^::(error|warning|notice)( [^\n]*)?::/;

/**
 * Text on stdout and stderr: no escape, no control, no forged line; under Actions no command but our own
 * annotations (`annotations`: the format writes some).
 */
function expectTerminalSafe(run: RunResult, actions: boolean, annotations = false) {
  for (const text of [run.stdout, run.stderr]) {
    expect(text).not.toContain('\x1b');
    expect(text).not.toMatch(UNSAFE);
    expect(text).not.toContain(DASHBOARD_ONLY);
    for (const line of text.split('\n')) {
      expect(line).not.toMatch(/^::error::forged|^✔ in sync {3}forged-line/);
      expect(line).not.toMatch(/^\s*::error::(forged|percent)/);
    }
    if (!actions) continue;
    const commands = runnerCommands(text);
    if (annotations) for (const line of commands) expect(line).toMatch(OWN);
    else expect(commands).toEqual([]);
  }
}

/** The comment: our `markers` marker lines once each, nothing that acts, and none of the dashboard's text. */
function expectMarkdownInert(markdown: string, markers: number) {
  expectMarkupInert(markdown, markers);
  expect(markdown).not.toContain(DASHBOARD_ONLY);
}

/**
 * A loopback proxy in front of the fake: while `rewrite` is set, each JSON answer is rewritten (method, path and the
 * key's environment given) before wfsync reads it.
 */
interface Proxy {
  url: string;
  rewrite?: (text: string, request: { method: string; path: string; production: boolean }) => string;
  close(): Promise<void>;
}

async function startProxy(fake: ContractFake): Promise<Proxy> {
  const proxy: Proxy = { url: '', close: async () => undefined };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) {
        if (typeof value === 'string' && !['host', 'connection', 'content-length'].includes(name))
          headers[name] = value;
      }
      const method = req.method ?? 'GET';
      const answer = await fetch(`${fake.url}${req.url}`, {
        method,
        headers,
        ...(chunks.length === 0 ? {} : { body: Buffer.concat(chunks) }),
      });
      let text = await answer.text();
      const production = (req.headers.authorization ?? '').includes(fake.prodKey);
      if (proxy.rewrite !== undefined)
        text = proxy.rewrite(text, { method, path: req.url ?? '', production });
      res.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8' });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}

/** `"text"` as it appears inside a JSON string. */
const inJson = (text: string) => JSON.stringify(text).slice(1, -1);

const UPDATED = [
  'name: upd flow',
  'steps:',
  '  - name: alpha',
  '    template: { type: in_app, content: hello again }',
  '  - name: qqbeta',
  '    template: { type: chat, content: beta text }',
  'triggers:',
  '  - identifier: upd-flow',
  '    type: event',
  '',
].join('\n');

const ORIGINAL = UPDATED.replace('hello again', 'hello')
  .replace('type: chat, content: beta', 'type: sms, content: beta')
  .replace('triggers:', '  - name: qqgamma\n    template: { type: in_app, content: gamma text }\ntriggers:');

const DELETED = [
  'name: del flow',
  'steps:',
  '  - name: only',
  '    template: { type: in_app, content: bye }',
  'triggers:',
  '  - identifier: del-flow',
  '    type: event',
  '',
].join('\n');

const ACTIONS = [
  { name: 'under GitHub Actions', env: { GITHUB_ACTIONS: 'true' }, actions: true },
  { name: 'in a terminal', env: {}, actions: false },
];

let fake: ContractFake;
let proxy: Proxy;
let cwd: string;
const env = () => ({ DEV_KEY: fake.devKey, PROD_KEY: fake.prodKey, NO_COLOR: '1' });

beforeAll(async () => {
  fake = await startContractFake();
  proxy = await startProxy(fake);
  cwd = makeProject({
    'wfsync.config.yaml': [
      'workflowsDir: workflows',
      'targets:',
      '  development:',
      `    baseUrl: ${proxy.url}`,
      '    apiKeyEnv: DEV_KEY',
      `    notificationGroupId: ${fake.groupId}`,
      '    allow: [create, update, delete]',
      '  production:',
      `    baseUrl: ${proxy.url}`,
      '    apiKeyEnv: PROD_KEY',
      '    promoteFrom: development',
      '',
    ].join('\n'),
    'workflows/upd.yaml': ORIGINAL,
    'workflows/del.yaml': DELETED,
  });
  const created = await runCli(['sync', '-t', 'development', '--quiet'], { cwd, env: env() });
  expect(created.status, created.stdout + created.stderr).toBe(0);
  // The pull request: an update (a step's channel changed, one removed, content edited) and a delete, whose
  // identifier in the state file is hostile (state is read like a definition: anyone's branch may hold it).
  writeFileSync(join(cwd, 'workflows/upd.yaml'), UPDATED);
  rmSync(join(cwd, 'workflows/del.yaml'));
  const statePath = join(cwd, '.wfsync/state/development.json');
  const state = JSON.parse(readFileSync(statePath, 'utf8'));
  state.workflows[HOSTILE] = state.workflows['del-flow'];
  delete state.workflows['del-flow'];
  writeFileSync(`${statePath}.tmp`, JSON.stringify(state));
  renameSync(`${statePath}.tmp`, statePath);
  // The service's text: the removed step's name, the old channel of the replaced one.
  proxy.rewrite = (text, request) =>
    request.method === 'GET' && request.path.startsWith('/v1/workflows')
      ? text
          .replaceAll('qqgamma', inJson(HOSTILE))
          .replaceAll('"type":"sms"', `"type":${JSON.stringify(HOSTILE)}`)
      : text;
});

afterAll(async () => {
  await proxy?.close();
  await fake?.close();
  if (cwd !== undefined) rmSync(cwd, { recursive: true, force: true });
});

describe('update and delete: the service names the steps, the state names the target', () => {
  for (const { name, env: extra, actions } of ACTIONS) {
    for (const format of ['human', 'json', 'github', 'markdown', 'codeclimate']) {
      it(`plan --format ${format}, ${name}`, async () => {
        const run = await runCli(['plan', '-t', 'development', '--format', format], {
          cwd,
          env: { ...env(), ...extra },
        });
        expect(run.status, run.stderr).toBe(2);
        expectTerminalSafe(run, actions, format === 'github');
        if (format === 'human' || format === 'github') {
          expect(run.stdout).toMatch(/↑ update\s+upd-flow/);
          expect(run.stdout).toMatch(/- delete\s+␛\]8;;https:\/\/evil\.example␇link/);
          expect(run.stdout).toMatch(/removed\s+in_app {2}"\\u001b\]8;;https:\/\/evil/);
          expect(run.stdout).toMatch(/replaced\s+chat {2}"qqbeta" \(was ␛\]8;;https:\/\/evil/);
          expect(run.stdout).toMatch(
            /note: step "qqbeta": replaced, channel ␛\]8;;https:\/\/evil[^\n]*␊::error::forged␊/,
          );
        }
        if (format === 'markdown') expectMarkdownInert(run.stdout, 2);
        if (format === 'json') expect(JSON.stringify(JSON.parse(run.stdout))).toContain(inJson(HOSTILE));
        if (format === 'codeclimate') {
          const issues = JSON.parse(run.stdout) as Array<{ description: string }>;
          const deleted = issues.find((i) => i.description.includes('delete on development'));
          expect(deleted?.description).toMatch(
            /^␛\]8;;https:\/\/evil\.example␇link.* ::error::forged ✔ in sync/,
          );
        }
      });
    }
  }

  it('the plan comment through ci-relay: one marker each, the hostile text inert in the note', async () => {
    const plan = await runCli(['plan', '-t', 'development', '--format', 'markdown'], { cwd, env: env() });
    expect(plan.status).toBe(2);
    writeFileSync(join(cwd, 'plan.md'), plan.stdout);
    const posted: string[] = [];
    const gitlab = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' });
        if (req.url === '/api/v4/user') return res.end(JSON.stringify({ id: 42 }));
        if (req.method === 'GET') return res.end('[]');
        posted.push(JSON.parse(Buffer.concat(chunks).toString('utf8')).body);
        res.end(JSON.stringify({ id: 5 }));
      });
    });
    await new Promise<void>((resolve) => gitlab.listen(0, '127.0.0.1', resolve));
    try {
      const api = `http://127.0.0.1:${(gitlab.address() as AddressInfo).port}`;
      const relayed = await runCli(
        [
          'ci-relay',
          '--command',
          'plan',
          '--exit-code',
          '2',
          '--target',
          'development',
          '--markdown',
          'plan.md',
        ],
        {
          cwd,
          env: {
            GITLAB_CI: 'true',
            WFSYNC_GITLAB_TOKEN: 'glpat-secret-token-value',
            CI_API_V4_URL: `${api}/api/v4`,
            CI_PROJECT_ID: '17',
            CI_MERGE_REQUEST_IID: '7',
          },
        },
      );
      expect(relayed.status, relayed.stdout + relayed.stderr).toBe(0);
      expectTerminalSafe(relayed, false);
    } finally {
      await new Promise<void>((resolve) => {
        gitlab.closeAllConnections();
        gitlab.close(() => resolve());
      });
    }
    expect(posted).toHaveLength(1);
    expectMarkdownInert(posted[0]!, 2);
    expect(posted[0]).toContain('&#60;/details&#62;&#60;/summary&#62;&#60;img');
  });

  for (const { name, env: extra, actions } of ACTIONS) {
    it(`sync --dry-run --format github, ${name}`, async () => {
      const run = await runCli(['sync', '-t', 'development', '--format', 'github', '--dry-run'], {
        cwd,
        env: { ...env(), ...extra },
      });
      expectTerminalSafe(run, actions, true);
    });
  }
});

describe('sync writes: the update read back from a hostile service, the delete of a hostile identifier', () => {
  it('sync --format github with a step summary and --out: the update and the delete reported inert', async () => {
    const summary = join(cwd, 'summary.md');
    writeFileSync(summary, '');
    const run = await runCli(['sync', '-t', 'development', '--format', 'github', '--out', 'sync.json'], {
      cwd,
      env: { ...env(), GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summary },
    });
    // The update lands (what it reads back no longer holds what the rewrite replaces) and the delete is done.
    expect(run.status, run.stderr).toBe(0);
    expectTerminalSafe(run, true, true);
    expect(run.stdout).toMatch(/^- deleted {2}␛\]8;;https:\/\/evil\.example␇link/m);
    const markdown = readFileSync(summary, 'utf8');
    expect(markdown).toMatch(/- deleted · <code>␛&#93;8;;https:\/\/evil\.example/);
    expect(markdown).toMatch(/`qqbeta` chat \*\*replaced\*\* \(was ␛\\\]8;;https:\/\/evil/);
    expectMarkdownInert(markdown, 0);
    const document = readFileSync(join(cwd, 'sync.json'), 'utf8');
    expect(document).not.toMatch(UNSAFE);
    expect(JSON.stringify(JSON.parse(document))).toContain(inJson(HOSTILE));
  });
});

describe('promotion: Production copies named by the service, change records with dashboard text', () => {
  beforeAll(async () => {
    proxy.rewrite = undefined;
    const synced = await runCli(['sync', '-t', 'development', '--quiet'], { cwd, env: env() });
    expect(synced.status, synced.stdout + synced.stderr).toBe(0);
    const promoted = await runCli(['sync', '-t', 'production', '--quiet'], { cwd, env: env() });
    expect(promoted.status, promoted.stdout + promoted.stderr).toBe(0);
    // From now on Production's copies are named and described by the service, and the changes list carries the
    // dashboard's text (a user, the workflow's name) that wfsync never keeps.
    proxy.rewrite = (text, request) => {
      if (request.path.startsWith('/v1/changes'))
        return text
          .replaceAll('"Fake"', JSON.stringify(`${DASHBOARD_ONLY} ${HOSTILE}`))
          .replaceAll('"upd flow"', JSON.stringify(`${DASHBOARD_ONLY} ${HOSTILE}`));
      if (!request.production || request.method !== 'GET' || !request.path.startsWith('/v1/workflows/'))
        return text;
      return text.replaceAll(
        '"name":"upd flow"',
        `"name":${JSON.stringify(HOSTILE)},"description":${JSON.stringify(HOSTILE)}`,
      );
    };
  });

  for (const { name, env: extra, actions } of ACTIONS) {
    for (const format of ['human', 'github', 'markdown', 'json']) {
      it(`plan -t production --format ${format}, ${name}`, async () => {
        const run = await runCli(['plan', '-t', 'production', '--format', format], {
          cwd,
          env: { ...env(), ...extra },
        });
        expect(run.status, run.stderr).toBe(2);
        expectTerminalSafe(run, actions, format === 'github');
        if (format === 'human') {
          expect(run.stdout).toMatch(/↑ promote\s+upd-flow/);
          expect(run.stdout).toContain('--- service: ␛]8;;https://evil.example␇link');
        }
        if (format === 'markdown') expectMarkdownInert(run.stdout, 2);
      });
    }
  }

  for (const format of ['human', 'markdown', 'json']) {
    it(`sync -t production --format ${format}, under GitHub Actions: the changes listed, none of their text shown`, async () => {
      const run = await runCli(['sync', '-t', 'production', '--format', format], {
        cwd,
        env: { ...env(), GITHUB_ACTIONS: 'true' },
      });
      // Production's copy differs (as rewritten) but Development has no pending change for it: it fails, safely.
      expect(run.status, run.stderr).not.toBe(0);
      expect(run.stdout).toContain('Development has no pending change for this workflow');
      expectTerminalSafe(run, true);
      if (format === 'markdown') expectMarkdownInert(run.stdout, 2);
    });
  }
});

describe("promotion refused: the environment's name is the service's text", () => {
  for (const { name, env: extra, actions } of ACTIONS) {
    for (const format of ['human', 'github', 'markdown', 'json', 'codeclimate']) {
      it(`plan -t production --format ${format}, ${name}: a Production key of a root environment`, async () => {
        proxy.rewrite = (text, request) => {
          if (!request.production || !request.path.startsWith('/v1/environments/me')) return text;
          const body = JSON.parse(text) as { data: Record<string, unknown> };
          delete body.data._parentId;
          body.data.name = HOSTILE;
          return JSON.stringify(body);
        };
        const run = await runCli(['plan', '-t', 'production', '--format', format], {
          cwd,
          env: { ...env(), ...extra },
        });
        expect(run.status, run.stdout + run.stderr).toBe(4);
        expect(run.stdout + run.stderr).toContain('which is not derived from another');
        expectTerminalSafe(run, actions, format === 'github');
        if (format === 'markdown') expectMarkdownInert(run.stdout, 2);
      });
    }
  }
});
