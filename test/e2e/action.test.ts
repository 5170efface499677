import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { prCommentMarker } from '../../src/report/plan/markdown.js';
import { useTempProjects } from '../helpers/temp-project.js';
import {
  type FakeComment,
  type FakeGithub,
  PULL_REQUEST_EVENT,
  runAction,
  startFakeGithub,
} from './action-runner.js';
import { BIN, ROOT } from './helpers.js';
import { startTarget, type Target } from './plan-sync-target.js';

/**
 * The composite action run step by step as the runner runs it (test/e2e/action-runner.ts), against the emulator and
 * a loopback fake of GitHub's comments API, with the built CLI installed in the project (`version: project`).
 */

const tempDir = useTempProjects('wfsync-action-');
const servers: FakeGithub[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function fakeGithub(options: Parameters<typeof startFakeGithub>[0] = {}) {
  const github = await startFakeGithub(options);
  servers.push(github);
  return github;
}

/** The emulator target with the built wfsync installed as the project's own (node_modules/.bin/wfsync). */
async function project(): Promise<Target> {
  const target = await startTarget();
  mkdirSync(join(target.cwd, 'node_modules/.bin'), { recursive: true });
  symlinkSync(BIN, join(target.cwd, 'node_modules/.bin/wfsync'));
  return target;
}

function planOnPullRequest(target: Target, github: FakeGithub, inputs: Record<string, string> = {}) {
  return runAction({
    inputs: { command: 'plan', target: 'dev', version: 'project', ...inputs },
    env: { DEV_KEY: target.emulator.apiKey },
    workspace: target.cwd,
    event: PULL_REQUEST_EVENT,
    apiUrl: github.url,
  });
}

const ours = (github: FakeGithub) => github.comments.filter((c) => c.body.includes(prCommentMarker('dev')));
const writes = (github: FakeGithub) =>
  github.requests.filter((r) => r.method === 'POST' || r.method === 'PATCH').map((r) => r.method);

describe('the GitHub Action on a pull request', () => {
  it('first run creates the sticky comment, the second updates it: one comment, the outputs written', async () => {
    const target = await project();
    // 120 comments first, so the plan comment lands on the list's second page; one quotes the marker.
    const others: FakeComment[] = Array.from({ length: 120 }, (_, i) => ({
      id: i + 1,
      body: i === 5 ? `quoting ${prCommentMarker('dev')}` : `comment ${i}`,
      user: { login: i === 5 ? 'mallory' : 'reviewer' },
      html_url: '',
    }));
    const github = await fakeGithub({ comments: others });

    const first = await planOnPullRequest(target, github);
    expect(first.stderr).not.toContain('Error');
    expect(first.status).toBe(0);
    expect(first.outputs).toMatchObject({
      'exit-code': '2',
      'needs-person': 'false',
      create: '9',
      'in-sync': '0',
      drifted: '0',
      'changed-locally': '0',
      conflict: '0',
      error: '0',
    });
    expect(first.stdout).toContain(
      'wfsync plan: merging creates what the plan lists; the sync after the merge applies it.',
    );
    expect(ours(github)).toHaveLength(2); // mallory's quote and ours
    const created = github.comments.at(-1)!;
    expect(created.user.login).toBe('github-actions[bot]');
    expect(created.body.startsWith('<!-- wfsync-plan -->\n<!-- wfsync-plan target=dev -->')).toBe(true);
    expect(first.outputs['comment-url']).toBe(created.html_url);
    expect(first.summary).toBe(created.body); // the plan is the job summary too
    const plan = JSON.parse(readFileSync(first.outputs['plan-file']!, 'utf8'));
    expect(plan.summary.create).toBe(9);
    // The previews for the artifact: in RUNNER_TEMP/wfsync-previews, an index and a page per workflow to create.
    const previews = first.outputs['previews-dir']!;
    expect(previews).toMatch(/\/wfsync-previews$/);
    expect(readdirSync(previews).filter((f) => f.endsWith('.html'))).toHaveLength(10);
    expect(readFileSync(join(previews, 'index.html'), 'utf8')).toContain('order-shipped');
    expect(writes(github)).toEqual(['POST']);
    expect(github.requests.every((r) => r.authorization === 'Bearer ghs_test_token_value')).toBe(true);
    expect(github.requests.filter((r) => r.method === 'GET').map((r) => r.path)).toEqual([
      '/user',
      '/repos/acme/notifications/issues/7/comments?per_page=100',
      '/repos/acme/notifications/issues/7/comments?per_page=100&page=2',
    ]);

    const second = await planOnPullRequest(target, github);
    expect(second.status).toBe(0);
    expect(writes(github)).toEqual(['POST', 'PATCH']);
    expect(github.comments).toHaveLength(121);
    expect(github.comments[5]!.body).toBe(`quoting ${prCommentMarker('dev')}`); // never someone else's
    expect(second.outputs['comment-url']).toBe(created.html_url);
  });

  it('a workflow that needs a person: the step fails with 6 naming it, and the comment says so', async () => {
    const target = await project();
    const github = await fakeGithub();
    expect((await target.run(['sync'])).status).toBe(0);
    target.emulator.editWorkflow('order-shipped', (w) => {
      (w.steps[1]!.template as { content: string }).content = 'Edited in the dashboard.';
    });

    const run = await planOnPullRequest(target, github);
    expect(run.status).toBe(6);
    expect(run.outputs).toMatchObject({
      'exit-code': '6',
      'needs-person': 'true',
      drifted: '1',
      'in-sync': '8',
    });
    expect(run.stdout).toContain(
      '::error title=wfsync plan::a workflow needs a person: order-shipped (drifted). Sync will not apply this; ' +
        'the plan says what to do for each.\n',
    );
    expect(ours(github)).toHaveLength(1);
    expect(ours(github)[0]!.body).toContain('order-shipped');
  });

  it('nothing to change and no earlier comment: nothing is posted; the step passes', async () => {
    const target = await project();
    const github = await fakeGithub();
    await target.run(['sync']);
    const run = await planOnPullRequest(target, github);
    expect(run.status).toBe(0);
    expect(run.outputs).toMatchObject({ 'exit-code': '0', 'in-sync': '9', 'comment-url': '' });
    expect(run.stdout).toContain('no changes and no earlier plan comment: nothing to post.');
    expect(writes(github)).toEqual([]);
  });

  it('a fork (read-only token): says so, keeps the plan in the summary, and does not fail for it', async () => {
    const target = await project();
    const github = await fakeGithub({ readOnly: true });
    const run = await runAction({
      inputs: { command: 'plan', target: 'dev', version: 'project' },
      env: { DEV_KEY: target.emulator.apiKey },
      workspace: target.cwd,
      event: {
        name: 'pull_request',
        payload: { pull_request: { number: 7, head: { repo: { full_name: 'someone/notifications' } } } },
      },
      apiUrl: github.url,
    });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(
      "::warning title=wfsync plan::this run's token may not comment on the pull request (it comes from a fork, " +
        'whose runs get a read-only token); the plan is in the job summary instead.',
    );
    expect(run.summary).toContain(prCommentMarker('dev'));
    expect(github.comments).toEqual([]);
  });

  it('the plan fails (a refused key): the comment says so and the step fails naming the code', async () => {
    const target = await project();
    const github = await fakeGithub();
    const run = await runAction({
      inputs: { command: 'plan', target: 'dev', version: 'project' },
      env: { DEV_KEY: 'not-the-key' },
      workspace: target.cwd,
      event: PULL_REQUEST_EVENT,
      apiUrl: github.url,
    });
    expect(run.status).toBe(4);
    expect(run.outputs['exit-code']).toBe('4');
    expect(run.stdout).toContain(
      // No plan was written to say a meaning: the relay names the code and points at wfsync's own words.
      '::error title=wfsync plan::failed (exit 4); the output above says why.',
    );
    expect(ours(github)).toHaveLength(1);
    expect(run.stdout + run.stderr).not.toContain(target.emulator.apiKey);
  });
});

describe('the GitHub Action outside a pull request', () => {
  it('sync: creates, passes on 0; plan then has nothing to do; no comment asked, none posted', async () => {
    const target = await project();
    const sync = await runAction({
      inputs: { command: 'sync', target: 'dev', version: 'project' },
      env: { DEV_KEY: target.emulator.apiKey },
      workspace: target.cwd,
    });
    expect(sync.status).toBe(0);
    expect(sync.outputs).toMatchObject({
      'exit-code': '0',
      'needs-person': 'false',
      'plan-file': '',
      'previews-dir': '',
      // The counts, from sync --out: the plan it carried out, and what it did.
      create: '9',
      'in-sync': '0',
      drifted: '0',
      created: '9',
      failed: '0',
      skipped: '0',
    });
    const result = JSON.parse(readFileSync(sync.outputs['sync-file']!, 'utf8'));
    expect(result.summary.created).toBe(9);
    expect(target.stored()).toHaveLength(9);
    expect(sync.stdout).toContain('wfsync sync: dev matches the definitions.');
  });

  it('sync with a drifted workflow: the rest verified, 6 naming it, the counts set', async () => {
    const target = await project();
    expect((await target.run(['sync'])).status).toBe(0);
    target.emulator.editWorkflow('order-shipped', (w) => {
      (w.steps[1]!.template as { content: string }).content = 'Edited in the dashboard.';
    });
    const sync = await runAction({
      inputs: { command: 'sync', target: 'dev', version: 'project' },
      env: { DEV_KEY: target.emulator.apiKey },
      workspace: target.cwd,
    });
    expect(sync.status).toBe(6);
    expect(sync.outputs).toMatchObject({
      'exit-code': '6',
      'needs-person': 'true',
      create: '0',
      'in-sync': '8',
      drifted: '1',
      created: '0',
      failed: '0',
    });
    expect(sync.stdout).toContain(
      '::error title=wfsync sync::synced what sync may apply, but a workflow needs a person: order-shipped (drifted).',
    );
  });

  it('sync that fails before reporting (a refused key): exit 4, the counts empty', async () => {
    const target = await project();
    const sync = await runAction({
      inputs: { command: 'sync', target: 'dev', version: 'project' },
      env: { DEV_KEY: 'not-the-key' },
      workspace: target.cwd,
    });
    expect(sync.status).toBe(4);
    expect(sync.outputs).toMatchObject({ 'exit-code': '4', create: '', created: '', 'sync-file': '' });
  });

  it('plan exiting 2 outside a pull request is a warning (the target lags the definitions), not a failure', async () => {
    const target = await project();
    const plan = await runAction({
      inputs: { command: 'plan', target: 'dev', version: 'project' },
      env: { DEV_KEY: target.emulator.apiKey },
      workspace: target.cwd,
    });
    expect(plan.status).toBe(0);
    expect(plan.stdout).toContain(
      '::warning title=wfsync plan::workflows in the definitions are not on dev yet: the next sync of dev creates them',
    );
    expect(plan.summary).toContain('wfsync plan'); // --format github writes the summary itself
  });

  it('validate: an invalid definition fails the step with 3, the problem annotated on its line', async () => {
    const target = await project();
    writeFileSync(
      join(target.cwd, 'workflows/order-shipped.yaml'),
      readFileSync(join(target.cwd, 'workflows/order-shipped.yaml'), 'utf8').replace(
        '{{carrier}}',
        '{{carier}}',
      ),
    );
    const run = await runAction({
      inputs: { command: 'validate', version: 'project', 'max-warnings': '0' },
      workspace: target.cwd,
    });
    expect(run.status).toBe(3);
    expect(run.stdout).toMatch(
      /^::error file=workflows\/order-shipped\.yaml,line=\d+,.*title=wfsync \(variable-typo\)::/m,
    );
    // validate writes no plan or sync document: the code, and wfsync's own annotations above say why.
    expect(run.stdout).toContain(
      '::error title=wfsync validate::failed (exit 3); the output above says why.',
    );
  });
});

/**
 * A fake `npm` that records the argv of each call as JSON and exits with `code`; the relay step's call
 * (`wfsync ci-relay`) exits 0. `argv` is the first call's (wfsync's own run), `calls` all of them, `tokens` which
 * calls had the comment's token (WFSYNC_GITHUB_TOKEN or INPUT_GITHUB_TOKEN) in their environment.
 */
function fakeNpm(code = 0): {
  dir: string;
  argv: () => string[] | undefined;
  calls: () => string[][];
  tokens: () => string[];
} {
  const dir = tempDir();
  const record = join(dir, 'argv.jsonl');
  const tokens = join(dir, 'tokens.txt');
  writeFileSync(
    join(dir, 'npm'),
    `#!/usr/bin/env node\nconst fs = require('node:fs');\nconst argv = process.argv.slice(2);\nfs.appendFileSync(${JSON.stringify(record)}, JSON.stringify(argv) + '\\n');\nfor (const name of ['WFSYNC_GITHUB_TOKEN', 'INPUT_GITHUB_TOKEN']) if (process.env[name]) fs.appendFileSync(${JSON.stringify(tokens)}, (argv.includes('ci-relay') ? 'relay ' : 'run ') + name + '=' + process.env[name] + '\\n');\nprocess.exit(argv.includes('ci-relay') ? 0 : ${code});\n`,
  );
  chmodSync(join(dir, 'npm'), 0o755);
  const calls = (): string[][] =>
    existsSync(record)
      ? readFileSync(record, 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line) as string[])
      : [];
  const told = () => (existsSync(tokens) ? readFileSync(tokens, 'utf8').trim().split('\n') : []);
  return { dir, argv: () => calls()[0], calls, tokens: told };
}

describe('how the action starts wfsync', () => {
  const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;

  it("by default, the action's own version through npm exec, never an unpinned latest", async () => {
    const npm = fakeNpm();
    const workspace = tempDir();
    const run = await runAction({
      inputs: { command: 'validate', 'max-warnings': '0' },
      workspace,
      path: [npm.dir],
    });
    expect(run.status).toBe(0);
    expect(npm.argv()).toEqual([
      'exec',
      '--yes',
      `--package=wfsync@${version}`,
      '--',
      'wfsync',
      'validate',
      '--format',
      'github',
      '--max-warnings',
      '0',
    ]);
    expect(run.stdout).toContain(`wfsync ${version} (npm exec wfsync@${version})`);
    // The relay step asks the same wfsync's relay: the rule lives in wfsync, not in the action.
    expect(npm.calls()[1]).toEqual([
      'exec',
      '--yes',
      `--package=wfsync@${version}`,
      '--',
      'wfsync',
      'ci-relay',
      '--provider',
      'github',
      '--command',
      'validate',
      '--exit-code',
      '0',
    ]);
    expect(npm.calls()).toHaveLength(2);
  });

  it('args, base-ref and target reach wfsync as literal argv: no shell expands or runs them', async () => {
    const npm = fakeNpm(2);
    const workspace = tempDir();
    const args = `--only "order-*" '$(touch pwned-1)' \`touch pwned-2\`;touch pwned-3 \${{ github.token }} "a \\"b\\""`;
    const run = await runAction({
      inputs: {
        command: 'plan',
        version: '1.2.3',
        target: '$(touch pwned-4)',
        'base-ref': 'main;touch pwned-5',
        args,
      },
      workspace,
      path: [npm.dir],
    });
    expect(run.status).toBe(0);
    const argv = npm.argv()!;
    expect(argv.slice(0, 9)).toEqual([
      'exec',
      '--yes',
      '--package=wfsync@1.2.3',
      '--',
      'wfsync',
      'plan',
      '--target',
      '$(touch pwned-4)',
      '--format',
    ]);
    expect(argv.slice(9, 13)).toEqual(['github', '--base', 'main;touch pwned-5', '--out']);
    expect(argv.slice(14)).toEqual([
      '--only',
      'order-*',
      '$(touch pwned-1)',
      '`touch',
      'pwned-2`;touch',
      'pwned-3',
      '${{',
      'github.token',
      '}}',
      'a "b"',
    ]);
    for (const n of [1, 2, 3, 4, 5]) expect(existsSync(join(workspace, `pwned-${n}`))).toBe(false);
    // The token never reaches wfsync's environment.
    expect(run.stdout).not.toContain('ghs_test_token_value');
  });

  it('previews: on a pull request a plan writes them into RUNNER_TEMP/wfsync-previews; previews: false, none', async () => {
    const workspace = tempDir();
    const argv = async (inputs: Record<string, string>) => {
      const npm = fakeNpm();
      const run = await runAction({
        inputs: { command: 'plan', version: '1.2.3', comment: 'false', ...inputs },
        workspace,
        event: PULL_REQUEST_EVENT,
        path: [npm.dir],
      });
      expect(run.status).toBe(0);
      return { argv: npm.argv()!, run };
    };
    const byDefault = await argv({});
    const at = byDefault.argv.indexOf('--previews');
    expect(at).toBeGreaterThan(0);
    expect(byDefault.argv[at + 1]).toMatch(/\/wfsync-previews$/);
    // The fake npm wrote no index.html: the output stays empty rather than naming an empty folder.
    expect(byDefault.run.outputs['previews-dir']).toBe('');
    const off = await argv({ previews: 'false' });
    expect(off.argv).not.toContain('--previews');
  });

  it('a plan on a pull request: the relay gets the Markdown and, alone, the token; comment: false keeps it off the pull request', async () => {
    const workspace = tempDir();
    const relayArgs = async (inputs: Record<string, string>) => {
      const npm = fakeNpm(2);
      const run = await runAction({
        inputs: { command: 'plan', version: '1.2.3', previews: 'false', ...inputs },
        workspace,
        event: PULL_REQUEST_EVENT,
        path: [npm.dir],
      });
      expect(run.status).toBe(0);
      expect(npm.calls()).toHaveLength(2);
      return { relay: npm.calls()[1]!.slice(5), tokens: npm.tokens() };
    };
    const byDefault = await relayArgs({});
    expect(byDefault.relay.slice(0, 7)).toEqual([
      'ci-relay',
      '--provider',
      'github',
      '--command',
      'plan',
      '--exit-code',
      '2',
    ]);
    const markdown = byDefault.relay.indexOf('--markdown');
    expect(byDefault.relay[markdown + 1]).toMatch(/\/plan\.md$/);
    expect(byDefault.relay).not.toContain('--no-comment');
    // The token reaches the relay under its own variable, and never wfsync's own run.
    expect(byDefault.tokens).toEqual(['relay WFSYNC_GITHUB_TOKEN=ghs_test_token_value']);
    const off = await relayArgs({ comment: 'false', format: 'markdown' });
    expect(off.relay).toContain('--markdown');
    expect(off.relay.at(-1)).toBe('--no-comment');
    const github = await relayArgs({ comment: 'false' });
    expect(github.relay).not.toContain('--markdown');
  });

  it.each([
    [{ version: '1.0.0; touch pwned' }, 'version must be an npm version, range or tag, or "project"'],
    [{ version: 'file:../evil' }, 'version must be an npm version'],
    [{ command: 'destroy' }, 'command must be validate, plan or sync'],
    [{ command: 'sync', comment: 'true' }, 'comment is for the plan command'],
    [{ command: 'validate', previews: 'true' }, 'previews is for the plan command'],
    [{ command: 'plan', previews: 'yes' }, 'previews must be true or false'],
    [{ command: 'plan', 'max-warnings': '0' }, 'max-warnings is a whole number, for the validate command'],
    [{ command: 'validate', format: 'markdown' }, 'format must be one of human, json, github, junit, sarif'],
    [{ args: '--only "unclosed' }, 'args: a double quote is not closed'],
  ])('refuses %o before running anything, failing with 64', async (inputs, message) => {
    const npm = fakeNpm();
    const workspace = tempDir();
    const run = await runAction({ inputs, workspace, path: [npm.dir] });
    expect(run.status).toBe(64);
    expect(run.stdout).toContain(`::error title=wfsync action::${message}`);
    expect(npm.argv()).toBeUndefined();
  });
});
