import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { ROOT } from './helpers.js';

/**
 * A runner for the composite action at the repository root, as GitHub's runner runs it: the inputs with their
 * defaults, each step's `env:` evaluated, each `run:` executed in order by `bash --noprofile --norc -eo pipefail`
 * with GITHUB_OUTPUT (a file per step), GITHUB_STEP_SUMMARY, GITHUB_EVENT_PATH and GITHUB_ACTION_PATH set, a failing
 * step ending the action; then the action's outputs. The `${{ }}` evaluator knows only the whole-value expressions
 * action.yml uses (`inputs.x`, `steps.id.outputs.x`, `github.token`): anything else throws, so a new kind of
 * expression in action.yml fails the tests until this runner (and a reviewer) knows it.
 */

export interface ActionYaml {
  name: string;
  description: string;
  inputs: Record<string, { description: string; required?: boolean; default?: string }>;
  outputs: Record<string, { description: string; value: string }>;
  runs: {
    using: string;
    steps: Array<{ id?: string; name?: string; shell?: string; run?: string; env?: Record<string, string> }>;
  };
}

export const ACTION_TEXT = readFileSync(join(ROOT, 'action.yml'), 'utf8');

export function readAction(text = ACTION_TEXT): ActionYaml {
  const document = parseDocument(text, { uniqueKeys: true });
  if (document.errors.length > 0) throw new Error(document.errors.map((e) => e.message).join('\n'));
  return document.toJS() as ActionYaml;
}

export const GITHUB_TOKEN = 'ghs_test_token_value';

export interface ActionRun {
  status: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
}

export interface ActionRunOptions {
  inputs: Record<string, string>;
  /** The job's env (the API key, say) and the runner's GITHUB_* variables to add or override. */
  env?: Record<string, string>;
  workspace: string;
  event?: { name: string; payload: unknown };
  apiUrl?: string;
  /** Extra PATH entries, first (a fake `npm`). */
  path?: string[];
}

function evaluate(
  value: string,
  scope: { inputs: Record<string, string>; steps: Record<string, Record<string, string>> },
) {
  const found = /^\$\{\{\s*([^}]*?)\s*\}\}$/.exec(value);
  if (!found) {
    if (value.includes('${{')) throw new Error(`the runner evaluates whole-value expressions only: ${value}`);
    return value;
  }
  const expression = found[1]!;
  if (expression === 'github.token') return GITHUB_TOKEN;
  const input = /^inputs\.([\w-]+)$/.exec(expression);
  if (input) {
    if (!(input[1]! in scope.inputs)) throw new Error(`undefined input ${input[1]}`);
    return scope.inputs[input[1]!]!;
  }
  const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expression);
  if (output) return scope.steps[output[1]!]?.[output[2]!] ?? '';
  throw new Error(`an expression this runner does not know: ${expression}`);
}

/** GITHUB_OUTPUT as the runner reads it: `name=value` lines and `name<<DELIMITER` blocks. */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heredoc = /^([^=<]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, i + 1);
      if (end < 0) throw new Error(`unterminated output ${heredoc[1]}`);
      outputs[heredoc[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (line.includes('=')) {
      outputs[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    }
  }
  return outputs;
}

function spawnStep(file: string, cwd: string, env: NodeJS.ProcessEnv) {
  return new Promise<{ status: number; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', file], { cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ status: code ?? 1, stdout, stderr }));
  });
}

export async function runAction(options: ActionRunOptions): Promise<ActionRun> {
  const action = readAction();
  const inputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.inputs)) {
    inputs[name] = options.inputs[name] ?? evaluate(spec.default ?? '', { inputs: {}, steps: {} });
  }
  for (const name of Object.keys(options.inputs)) {
    if (!(name in action.inputs)) throw new Error(`the action has no input ${name}`);
  }
  const temp = mkdtempSync(join(tmpdir(), 'wfsync-runner-'));
  const eventPath = join(temp, 'event.json');
  writeFileSync(eventPath, JSON.stringify(options.event?.payload ?? {}));
  const summaryPath = join(temp, 'step-summary.md');
  writeFileSync(summaryPath, '');
  const steps: Record<string, Record<string, string>> = {};
  let stdout = '';
  let stderr = '';
  let status = 0;
  for (const [index, step] of action.runs.steps.entries()) {
    if (step.shell !== 'bash' || step.run === undefined)
      throw new Error(`step ${index}: bash run steps only`);
    const outputPath = join(temp, `output-${index}`);
    writeFileSync(outputPath, '');
    const script = join(temp, `step-${index}.sh`);
    writeFileSync(script, step.run);
    const stepEnv: Record<string, string> = {};
    for (const [name, value] of Object.entries(step.env ?? {}))
      stepEnv[name] = evaluate(value, { inputs, steps });
    const result = await spawnStep(script, options.workspace, {
      PATH: [...(options.path ?? []), process.env.PATH].join(':'),
      HOME: process.env.HOME,
      NO_COLOR: '1',
      TZ: 'UTC',
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_ACTION_PATH: ROOT,
      GITHUB_WORKSPACE: options.workspace,
      GITHUB_OUTPUT: outputPath,
      GITHUB_STEP_SUMMARY: summaryPath,
      GITHUB_EVENT_PATH: eventPath,
      GITHUB_EVENT_NAME: options.event?.name ?? 'push',
      GITHUB_REPOSITORY: 'acme/notifications',
      GITHUB_SERVER_URL: 'https://github.example',
      GITHUB_API_URL: options.apiUrl ?? 'http://127.0.0.1:9',
      GITHUB_RUN_ID: '42',
      RUNNER_TEMP: temp,
      ...options.env,
      ...stepEnv,
    });
    stdout += result.stdout;
    stderr += result.stderr;
    if (step.id !== undefined) steps[step.id] = parseOutputFile(readFileSync(outputPath, 'utf8'));
    if (result.status !== 0) {
      status = result.status;
      break;
    }
  }
  const outputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(action.outputs))
    outputs[name] = evaluate(spec.value, { inputs, steps });
  return { status, stdout, stderr, outputs, summary: readFileSync(summaryPath, 'utf8') };
}

export interface FakeComment {
  id: number;
  body: string;
  user: { login: string };
  html_url: string;
}

export interface FakeGithub {
  url: string;
  comments: FakeComment[];
  requests: Array<{ method: string; path: string; authorization: string | undefined }>;
  close(): Promise<void>;
}

/**
 * GitHub's issue-comments API on loopback, for pull request 7 of acme/notifications: `GET /user` refused as it is for
 * an installation token, the list paged by `per_page` with a Link header, create and update; `readOnly` answers
 * writes with 403 as GitHub does for a fork's read-only token.
 */
export async function startFakeGithub(
  options: { comments?: FakeComment[]; readOnly?: boolean } = {},
): Promise<FakeGithub> {
  const comments = [...(options.comments ?? [])];
  const requests: FakeGithub['requests'] = [];
  let nextId = 1000;
  let url = '';
  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
  const readBody = async (req: IncomingMessage) => {
    let text = '';
    for await (const chunk of req) text += chunk;
    return JSON.parse(text) as { body: string };
  };
  const server = createServer(async (req, res) => {
    const address = new URL(req.url ?? '/', url);
    requests.push({
      method: req.method ?? '',
      path: `${address.pathname}${address.search}`,
      authorization: req.headers.authorization,
    });
    if (req.headers.authorization !== `Bearer ${GITHUB_TOKEN}`)
      return send(res, 401, { message: 'Bad credentials' });
    const list = '/repos/acme/notifications/issues/7/comments';
    const one = /^\/repos\/acme\/notifications\/issues\/comments\/(\d+)$/.exec(address.pathname);
    if (req.method === 'GET' && address.pathname === '/user') {
      return send(res, 403, { message: 'Resource not accessible by integration' });
    }
    if (req.method === 'GET' && address.pathname === list) {
      const perPage = Number(address.searchParams.get('per_page') ?? 30);
      const page = Number(address.searchParams.get('page') ?? 1);
      const slice = comments.slice((page - 1) * perPage, page * perPage);
      const headers: Record<string, string> = {};
      if (page * perPage < comments.length)
        headers.link = `<${url}${list}?per_page=${perPage}&page=${page + 1}>; rel="next"`;
      return send(res, 200, slice, headers);
    }
    if ((req.method === 'POST' && address.pathname === list) || (req.method === 'PATCH' && one)) {
      if (options.readOnly) return send(res, 403, { message: 'Resource not accessible by integration' });
      const { body } = await readBody(req);
      if (one) {
        const found = comments.find((c) => c.id === Number(one[1]));
        if (!found) return send(res, 404, { message: 'Not Found' });
        found.body = body;
        return send(res, 200, found);
      }
      const id = nextId++;
      const created = {
        id,
        body,
        user: { login: 'github-actions[bot]' },
        html_url: `https://github.example/acme/notifications/pull/7#issuecomment-${id}`,
      };
      comments.push(created);
      return send(res, 201, created);
    }
    return send(res, 404, { message: 'Not Found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  url = `http://127.0.0.1:${address.port}`;
  return {
    url,
    comments,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export const PULL_REQUEST_EVENT = {
  name: 'pull_request',
  payload: {
    number: 7,
    pull_request: { number: 7, head: { repo: { full_name: 'acme/notifications' } } },
  },
};
