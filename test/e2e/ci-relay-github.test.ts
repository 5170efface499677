/**
 * `wfsync ci-relay`'s GitHub side, the built CLI spawned as the Action's relay step runs it: the pull request comment
 * and the job summary, against a loopback fake of GitHub's issue-comments API (action-runner.ts), with the files and
 * variables the runner gives a step.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PR_COMMENT_MARKER, prCommentMarker } from '../../src/report/plan/markdown.js';
import { useTempProjects } from '../helpers/temp-project.js';
import {
  type FakeComment,
  type FakeGithub,
  GITHUB_TOKEN,
  PULL_REQUEST_EVENT,
  parseOutputFile,
  startFakeGithub,
} from './action-runner.js';
import { runCli } from './helpers.js';
import { relayedPlan } from './relay-document.js';

const MARKER = prCommentMarker('development');
const tempProject = useTempProjects('wfsync-ghrelay-');
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function fakeGithub(options: Parameters<typeof startFakeGithub>[0] = {}): Promise<FakeGithub> {
  const github = await startFakeGithub(options);
  cleanups.push(() => github.close());
  return github;
}

interface Step {
  cwd: string;
  env: Record<string, string>;
  outputs(): Record<string, string>;
  summary(): string;
  write(name: string, text: string): void;
}

/** A relay step's directory and variables: the event, GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, the token. */
function step(apiUrl: string, event: { name: string; payload: unknown } = PULL_REQUEST_EVENT): Step {
  const cwd = tempProject({ 'event.json': JSON.stringify(event.payload), output: '', 'summary.md': '' });
  const write = (name: string, text: string) => writeFileSync(join(cwd, name), text);
  return {
    cwd,
    env: {
      GITHUB_ACTIONS: 'true',
      GITHUB_EVENT_NAME: event.name,
      GITHUB_EVENT_PATH: join(cwd, 'event.json'),
      GITHUB_REPOSITORY: 'acme/notifications',
      GITHUB_SERVER_URL: 'https://github.example',
      GITHUB_RUN_ID: '42',
      GITHUB_API_URL: apiUrl,
      GITHUB_OUTPUT: join(cwd, 'output'),
      GITHUB_STEP_SUMMARY: join(cwd, 'summary.md'),
      WFSYNC_GITHUB_TOKEN: GITHUB_TOKEN,
    },
    outputs: () => parseOutputFile(readFileSync(join(cwd, 'output'), 'utf8')),
    summary: () => readFileSync(join(cwd, 'summary.md'), 'utf8'),
    write,
  };
}

const relay = (at: Step, code: number, ...args: string[]) =>
  runCli(['ci-relay', '--command', 'plan', '--exit-code', String(code), '--target', 'development', ...args], {
    cwd: at.cwd,
    env: at.env,
  });

const planDocument = (exitCode: number, needsPerson: string[] = []) =>
  relayedPlan(exitCode, needsPerson, 'drifted');

const ours = (github: FakeGithub) => github.comments.filter((c) => c.user.login === 'github-actions[bot]');
const writes = (github: FakeGithub) =>
  github.requests.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`);

describe('wfsync ci-relay on GitHub: the pull request comment and the job summary', () => {
  it('creates the comment past the first page, then updates the same one: never a second, never another’s', async () => {
    // 120 comments first, so ours lands on the second page; one by someone else quotes the marker.
    const others: FakeComment[] = Array.from({ length: 120 }, (_, i) => ({
      id: i + 1,
      body: i === 5 ? `quoting ${MARKER}` : `comment ${i}`,
      user: { login: i === 5 ? 'mallory' : 'reviewer' },
      html_url: '',
    }));
    const github = await fakeGithub({ comments: others });
    const at = step(github.url);
    const hostile = `ping @everyone about #12 ${MARKER} here`;
    at.write('plan.md', `${PR_COMMENT_MARKER}\n${MARKER}\n### wfsync plan\n\n${hostile}\n`);
    at.write('plan.json', planDocument(2));

    const first = await relay(at, 2, '--document', 'plan.json', '--markdown', 'plan.md');
    expect(first.status).toBe(0);
    expect(ours(github)).toHaveLength(1);
    const comment = ours(github)[0]!;
    expect(first.stdout).toBe(
      `wfsync: plan comment created: ${comment.html_url}\n` +
        'wfsync plan: merging creates what the plan lists; the sync after the merge applies it.\n',
    );
    // Through the Markdown channel: our markers only, the quoted one broken, as are the mention and the reference.
    expect(comment.body.startsWith(`${PR_COMMENT_MARKER}\n${MARKER}\n### wfsync plan\n`)).toBe(true);
    expect(comment.body.split(MARKER)).toHaveLength(2);
    expect(comment.body).toContain('@\u200beveryone');
    expect(comment.body).toContain('#\u200b12');
    expect(at.summary()).toBe(comment.body);
    expect(at.outputs()).toEqual({ 'comment-url': comment.html_url });
    expect(github.requests.filter((r) => r.method === 'GET').map((r) => r.path)).toEqual([
      '/user',
      '/repos/acme/notifications/issues/7/comments?per_page=100',
      '/repos/acme/notifications/issues/7/comments?per_page=100&page=2',
    ]);

    at.write('plan.md', `${PR_COMMENT_MARKER}\n${MARKER}\n### wfsync plan\n\nsecond\n`);
    at.write('plan.json', planDocument(6, ['welcome']));
    at.write('output', '');
    const second = await relay(at, 6, '--document', 'plan.json', '--markdown', 'plan.md');
    expect(second.status).toBe(6);
    expect(second.stdout).toContain(`wfsync: plan comment updated: ${comment.html_url}\n`);
    expect(second.stdout).toContain(
      '::error title=wfsync plan::a workflow needs a person: welcome (drifted).',
    );
    expect(ours(github)).toHaveLength(1);
    expect(ours(github)[0]!.body).toContain('second');
    expect(github.comments).toHaveLength(121);
    expect(github.comments[5]!.body).toBe(`quoting ${MARKER}`);
    expect(writes(github)).toEqual([
      'POST /repos/acme/notifications/issues/7/comments',
      `PATCH /repos/acme/notifications/issues/comments/${comment.id}`,
    ]);
    expect(at.outputs()).toEqual({ 'comment-url': comment.html_url });
    for (const run of [first, second]) expect(run.stdout + run.stderr).not.toContain(GITHUB_TOKEN);
  });

  it('nothing to change and no earlier comment: nothing posted; --no-comment: the summary alone, no request', async () => {
    const github = await fakeGithub();
    const at = step(github.url);
    at.write('plan.md', `${PR_COMMENT_MARKER}\n${MARKER}\nnothing to change\n`);
    const quiet = await relay(at, 0, '--markdown', 'plan.md');
    expect(quiet.status).toBe(0);
    expect(quiet.stdout).toContain('wfsync: no changes and no earlier plan comment: nothing to post.\n');
    expect(writes(github)).toEqual([]);
    expect(at.summary()).toContain('nothing to change');

    github.requests.length = 0;
    const alone = step(github.url);
    alone.write('plan.md', `${PR_COMMENT_MARKER}\n${MARKER}\ncreates two\n`);
    const summaryOnly = await relay(alone, 2, '--markdown', 'plan.md', '--no-comment');
    expect(summaryOnly.status).toBe(0);
    expect(alone.summary()).toBe(`${PR_COMMENT_MARKER}\n${MARKER}\ncreates two\n`);
    expect(github.requests).toEqual([]);
    expect(alone.outputs()).toEqual({});
  });

  it("a fork's read-only token (403): a warning, the plan in the summary, the job not failed for it", async () => {
    const github = await fakeGithub({ readOnly: true });
    const fork = {
      name: 'pull_request',
      payload: { pull_request: { number: 7, head: { repo: { full_name: 'someone/notifications' } } } },
    };
    const at = step(github.url, fork);
    at.write('plan.md', `${PR_COMMENT_MARKER}\n${MARKER}\ncreates two\n`);
    const run = await relay(at, 2, '--markdown', 'plan.md');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(
      "::warning title=wfsync plan::this run's token may not comment on the pull request (it comes from a fork, " +
        'whose runs get a read-only token); the plan is in the job summary instead.\n',
    );
    expect(at.summary()).toContain(MARKER);
    expect(at.outputs()).toEqual({ 'comment-url': '' });
    expect(github.comments).toEqual([]);

    // The same refusal on the repository's own branch: the job lacks the permission.
    const own = step(github.url);
    own.write('plan.md', `${PR_COMMENT_MARKER}\n${MARKER}\ncreates two\n`);
    expect((await relay(own, 2, '--markdown', 'plan.md')).stdout).toContain(
      'may not comment on the pull request (give the job pull-requests: write)',
    );
  });

  it('a comment that cannot be written fails a plan that would pass; the token is never printed', async () => {
    // An API that answers 500 and echoes the token back in its body and headers.
    const server = createServer((req, res) => {
      req.resume();
      res.writeHead(500, { 'content-type': 'text/plain', 'x-echo': String(req.headers.authorization) });
      res.end(`boom ${req.headers.authorization}`);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    const at = step(`http://127.0.0.1:${address.port}`);
    at.write('plan.md', `${PR_COMMENT_MARKER}\n${MARKER}\ncreates two\n`);
    const run = await relay(at, 2, '--markdown', 'plan.md');
    expect(run.status).toBe(1);
    expect(run.stdout).toContain(
      '::error title=wfsync plan::the plan comment could not be posted: list comments: GitHub answered 500\n',
    );
    expect(run.stdout).toContain('the pull request comment could not be written (above)');
    expect(run.stdout + run.stderr).not.toContain(GITHUB_TOKEN);

    // No token at all: said, nothing sent, the job fails rather than leave an older plan looking current.
    const github = await fakeGithub();
    const bare = step(github.url);
    bare.write('plan.md', `${PR_COMMENT_MARKER}\n${MARKER}\ncreates two\n`);
    const { WFSYNC_GITHUB_TOKEN: _, ...noToken } = bare.env;
    const untold = await runCli(
      ['ci-relay', '--command', 'plan', '--exit-code', '2', '--markdown', 'plan.md'],
      { cwd: bare.cwd, env: noToken },
    );
    expect(untold.status).toBe(1);
    expect(untold.stdout).toContain('the plan comment could not be posted: no token (WFSYNC_GITHUB_TOKEN');
    expect(github.requests).toEqual([]);
  });

  it('a plan that printed nothing: a comment pointing at the run, the summary left alone, the code kept', async () => {
    const github = await fakeGithub();
    const at = step(github.url);
    at.write('plan.md', '');
    at.write(
      'plan.json',
      JSON.stringify({ exitCode: 4, needsPerson: [], meaning: 'the API key was refused' }),
    );
    const run = await relay(at, 4, '--document', 'plan.json', '--markdown', 'plan.md');
    expect(run.status).toBe(4);
    expect(run.stdout).toContain('::error title=wfsync plan::failed (exit 4: the API key was refused)');
    expect(ours(github).map((c) => c.body)).toEqual([
      `${PR_COMMENT_MARKER}\n${MARKER}\n### wfsync plan failed\n\n\`wfsync plan\` exited 4 without printing a plan: ` +
        'see [the job log](https://github.example/acme/notifications/actions/runs/42).\n',
    ]);
    expect(at.summary()).toBe('');
  });

  it('outside a pull request: no comment, no request; the summary still written', async () => {
    const github = await fakeGithub();
    const at = step(github.url, { name: 'push', payload: {} });
    at.write('plan.md', `${PR_COMMENT_MARKER}\n${MARKER}\ncreates two\n`);
    const run = await relay(at, 2, '--markdown', 'plan.md');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('wfsync: not a pull request: no comment to post.\n');
    expect(github.requests).toEqual([]);
    expect(at.summary()).toContain('creates two');
  });
});
