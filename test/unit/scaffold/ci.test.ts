import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { prCommentMarker } from '../../../src/report/plan/markdown.js';
import { buildGithubWorkflows } from '../../../src/scaffold/ci/index.js';
import { buildCommentScript } from '../../../src/scaffold/ci/pull-request.js';

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
}
interface Job {
  needs?: string | string[];
  if?: string;
  permissions?: Record<string, string>;
  env?: Record<string, string>;
  outputs?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  name: string;
  on: Record<string, unknown>;
  concurrency?: { group: string; 'cancel-in-progress': boolean };
  permissions: Record<string, string>;
  jobs: Record<string, Job>;
}

const FILES = new Map(buildGithubWorkflows().map((w) => [w.path, w.text]));

/** A workflow file as GitHub reads it: strict YAML (a duplicate key is an error). */
function workflow(name: string): Workflow {
  const text = FILES.get(`.github/workflows/${name}`);
  if (text === undefined) throw new Error(`no ${name}`);
  const document = parseDocument(text, { uniqueKeys: true, prettyErrors: true });
  expect(document.errors.map((e) => e.message)).toEqual([]);
  expect(document.warnings.map((e) => e.message)).toEqual([]);
  return document.toJS() as Workflow;
}

function step(job: Job, name: string): Step {
  const found = job.steps.find((s) => s.name === name || s.id === name);
  if (!found) throw new Error(`no step ${name}`);
  return found;
}

/** A GitHub expression as it appears in the files. */
const gh = (expression: string) => `\${{ ${expression} }}`;
const KEY = gh('secrets.WFSYNC_PRODUCTION_API_KEY');

/** Every job that runs wfsync checks out, installs Node 20 and the locked dependencies first. */
function expectSetUp(job: Job): void {
  expect(job.steps.slice(0, 3)).toEqual([
    { uses: 'actions/checkout@v4' },
    { uses: 'actions/setup-node@v4', with: { 'node-version': 20, cache: 'npm' } },
    { run: 'npm ci' },
  ]);
}

/** Runs a `run:` script as GitHub does on Linux (`bash -e`), with a fake `npx` that exits `code`. */
function runStep(script: string, options: { code?: number; env?: Record<string, string> } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'wfsync-ci-'));
  const npx = join(dir, 'npx');
  writeFileSync(npx, `#!/bin/sh\necho "npx $*"\nexit ${options.code ?? 0}\n`);
  chmodSync(npx, 0o755);
  const output = join(dir, 'github-output');
  writeFileSync(output, '');
  const result = spawnSync('bash', ['-e', '-c', script], {
    cwd: dir,
    env: { PATH: `${dir}:${process.env.PATH}`, GITHUB_OUTPUT: output, ...options.env },
    encoding: 'utf8',
  });
  return { status: result.status, stdout: result.stdout, output: readFileSync(output, 'utf8'), dir };
}

describe('the GitHub Actions recipes', () => {
  it('three files under .github/workflows', () => {
    expect([...FILES.keys()]).toEqual([
      '.github/workflows/wfsync-pr.yml',
      '.github/workflows/wfsync-sync.yml',
      '.github/workflows/wfsync-drift.yml',
    ]);
  });

  it('pull request: validate (no secret), then plan, an artifact and one sticky comment', () => {
    const pr = workflow('wfsync-pr.yml');
    expect(pr.on).toEqual({ pull_request: null });
    expect(pr.permissions).toEqual({ contents: 'read' });
    expect(Object.keys(pr.jobs)).toEqual(['validate', 'key', 'plan']);
    const { validate, plan } = pr.jobs as Record<string, Job>;
    expectSetUp(validate!);
    expect(validate!.steps[3]).toEqual({ run: 'npx wfsync validate --format github' });
    expect(validate!.env).toBeUndefined();
    expect(plan!.needs).toEqual(['validate', 'key']);
    expect(plan!.if).toBe("needs.key.outputs.present == 'true'");
    expect(plan!.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' });
    expect(plan!.env).toEqual({ WFSYNC_PRODUCTION_API_KEY: KEY });
    expectSetUp(plan!);
    expect(step(plan!, 'Plan').run).toContain(
      'npx wfsync plan --target production --format markdown --out plan.json > plan.md',
    );
    expect(step(plan!, 'Upload the plan')).toMatchObject({
      uses: 'actions/upload-artifact@v4',
      with: { name: 'wfsync-plan', path: 'plan.json\nplan.md\n' },
    });
    const comment = step(plan!, 'Comment on the pull request');
    expect(comment.uses).toBe('actions/github-script@v7');
    expect(comment.env).toEqual({ PLAN_EXIT_CODE: gh('steps.plan.outputs.exit-code') });
    expect(comment.with?.script).toBe(`${buildCommentScript(prCommentMarker('production'))}\n`);
  });

  it.each([
    [0, 0],
    [2, 0],
    [1, 1],
    [3, 3],
    [4, 4],
    [64, 64],
  ])(
    'the plan step: wfsync exiting %i ends the step with %i (2 means "changes", not a failure)',
    (code, expected) => {
      const run = step(workflow('wfsync-pr.yml').jobs.plan!, 'Plan').run!;
      const result = runStep(run, { code });
      expect(result.status).toBe(expected);
      expect(result.output).toBe(`exit-code=${code}\n`);
      expect(readFileSync(join(result.dir, 'plan.md'), 'utf8')).toBe(
        'npx wfsync plan --target production --format markdown --out plan.json\n',
      );
    },
  );

  it.each(['wfsync-pr.yml', 'wfsync-sync.yml', 'wfsync-drift.yml'])(
    '%s: the key job says whether the secret is set, never what it is, and explains a skip',
    (name) => {
      const job = workflow(name).jobs.key!;
      expect(job.outputs).toEqual({ present: gh('steps.look.outputs.present') });
      const look = step(job, 'look');
      expect(look.env).toEqual({ KEY });
      const missing = runStep(look.run!, { env: { KEY: '' } });
      expect(missing).toMatchObject({ status: 0, output: 'present=false\n' });
      expect(missing.stdout).toMatch(
        /^::(notice|warning) title=wfsync::wfsync .* skipped: no WFSYNC_PRODUCTION_API_KEY secret/,
      );
      const present = runStep(look.run!, { env: { KEY: 'sk-secret-value' } });
      expect(present).toMatchObject({ status: 0, output: 'present=true\n', stdout: '' });
    },
  );

  it('sync: on push to main, one run at a time, the key from secrets', () => {
    const sync = workflow('wfsync-sync.yml');
    expect(sync.on).toEqual({ push: { branches: ['main'] }, workflow_dispatch: null });
    expect(sync.concurrency).toEqual({ group: 'wfsync-sync-production', 'cancel-in-progress': false });
    expect(Object.keys(sync.jobs)).toEqual(['key', 'sync']);
    const job = sync.jobs.sync!;
    expect(job).toMatchObject({ needs: 'key', if: "needs.key.outputs.present == 'true'" });
    expect(job.env).toEqual({ WFSYNC_PRODUCTION_API_KEY: KEY });
    expectSetUp(job);
    expect(step(job, 'Sync').run).toBe('npx wfsync sync --target production --format github');
  });

  it('sync: the commented alternative that commits the state back is a valid step once uncommented', () => {
    const text = FILES.get('.github/workflows/wfsync-sync.yml')!;
    const start = text.indexOf('      # - name: Commit the state');
    expect(start).toBeGreaterThan(0);
    const uncommented = text.slice(0, start) + text.slice(start).replace(/^ {6}# /gm, '      ');
    const job = (parseDocument(uncommented).toJS() as Workflow).jobs.sync!;
    const commit = step(job, 'Commit the state');
    expect(commit.if).toBe("always() && steps.sync.outcome != 'skipped'");
    expect(commit.run).toContain('git add .wfsync/state/production.json\n');
    expect(commit.run).toContain('[skip ci]');
  });

  it('drift: daily and on demand, read-only, fails on exit 2 (nothing swallows it)', () => {
    const drift = workflow('wfsync-drift.yml');
    expect(drift.on).toEqual({ schedule: [{ cron: '23 6 * * *' }], workflow_dispatch: null });
    expect(drift.permissions).toEqual({ contents: 'read' });
    const job = drift.jobs.drift!;
    expectSetUp(job);
    const runs = job.steps.map((s) => s.run).filter((r) => r !== undefined);
    expect(runs).toEqual(['npm ci', 'npx wfsync plan --target production --format github']);
  });
});

describe('the sticky comment script', () => {
  const marker = prCommentMarker('production');
  const body = `${marker}\n## wfsync plan\n`;

  interface Comment {
    id: number;
    body: string;
    user: { login: string };
  }

  /** Runs the script as actions/github-script does (an async function body), against a fake GitHub API. */
  async function post(comments: Comment[], exitCode: string) {
    const calls: Array<[string, unknown]> = [];
    const listComments = () => undefined;
    const github = {
      paginate: async (method: unknown, params: unknown) => {
        expect(method).toBe(listComments);
        calls.push(['list', params]);
        return comments;
      },
      rest: {
        issues: {
          listComments,
          updateComment: async (params: unknown) => calls.push(['update', params]),
          createComment: async (params: unknown) => calls.push(['create', params]),
        },
      },
    };
    const context = { repo: { owner: 'acme', repo: 'notifications' }, issue: { number: 7 } };
    const core = { info: (message: string) => calls.push(['info', message]) };
    const require = (id: string) => {
      expect(id).toBe('node:fs');
      return { readFileSync: (path: string) => (path === 'plan.md' ? body : '') };
    };
    const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
      ...args: string[]
    ) => (...values: unknown[]) => Promise<void>;
    const script = new AsyncFunction(
      'require',
      'github',
      'context',
      'core',
      'process',
      buildCommentScript(marker),
    );
    await script(require, github, context, core, { env: { PLAN_EXIT_CODE: exitCode } });
    return calls;
  }

  const LIST = ['list', { owner: 'acme', repo: 'notifications', issue_number: 7, per_page: 100 }];

  it('updates the earlier plan comment in place, whatever the plan says', async () => {
    const comments = [
      { id: 1, body: `quoting: ${marker}`, user: { login: 'mallory' } },
      { id: 2, body: `${marker}\nold plan`, user: { login: 'github-actions[bot]' } },
    ];
    for (const code of ['0', '2']) {
      expect(await post(comments, code)).toEqual([
        LIST,
        ['update', { owner: 'acme', repo: 'notifications', comment_id: 2, body }],
      ]);
    }
  });

  it('no earlier comment: one is created when there are changes (exit 2)', async () => {
    const comments = [{ id: 1, body: 'LGTM', user: { login: 'github-actions[bot]' } }];
    expect(await post(comments, '2')).toEqual([
      LIST,
      ['create', { owner: 'acme', repo: 'notifications', issue_number: 7, body }],
    ]);
  });

  it('no earlier comment and nothing to change: nothing is posted', async () => {
    expect(await post([], '0')).toEqual([
      LIST,
      ['info', 'No changes and no earlier plan comment: nothing to post.'],
    ]);
  });

  it('another target has its own comment', async () => {
    const other = { id: 3, body: `${prCommentMarker('staging')}\n`, user: { login: 'github-actions[bot]' } };
    expect((await post([other], '2'))[1]?.[0]).toBe('create');
  });
});
