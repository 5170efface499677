import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { prCommentMarker } from '../../src/report/plan/markdown.js';
import { PINNED_ACTIONS } from '../../src/scaffold/ci/common.js';
import { buildGithubWorkflows } from '../../src/scaffold/ci/index.js';
import { buildCommentScript } from '../../src/scaffold/ci/pull-request.js';

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
const KEY = gh('secrets.WFSYNC_DEVELOPMENT_API_KEY');

/** The full-SHA pins, as the files spell them (without the trailing `# vX.Y.Z` comment, which YAML drops). */
const CHECKOUT = `actions/checkout@${PINNED_ACTIONS.checkout.sha}`;
const SETUP_NODE = `actions/setup-node@${PINNED_ACTIONS.setupNode.sha}`;

/**
 * Every job that runs wfsync checks out, installs Node 24 (the current LTS) and the locked dependencies first;
 * `fullHistory` for the plan, which needs the base branch's commits.
 */
function expectSetUp(job: Job, fullHistory = false): void {
  expect(job.steps.slice(0, 3)).toEqual([
    fullHistory ? { uses: CHECKOUT, with: { 'fetch-depth': 0 } } : { uses: CHECKOUT },
    { uses: SETUP_NODE, with: { 'node-version': 24, cache: 'npm' } },
    { run: 'npm ci' },
  ]);
}

/** A plan JSON with one workflow of each action (the shape `wfsync plan --out` writes). */
const PLAN_JSON = JSON.stringify({
  items: [
    { identifier: 'billing', action: 'conflict' },
    { identifier: 'invoice', action: 'create' },
    { identifier: 'welcome', action: 'drifted' },
    { identifier: 'evil\n::warning::x%0A', action: 'orphaned' },
    { identifier: 'receipt', action: 'in-sync' },
  ],
});

/**
 * Runs a `run:` script as GitHub does on Linux (`bash -e`), with a fake `npx` that exits `code`, in a directory
 * holding `files`.
 */
function runStep(
  script: string,
  options: { code?: number; env?: Record<string, string>; files?: Record<string, string> } = {},
) {
  const dir = mkdtempSync(join(tmpdir(), 'wfsync-ci-'));
  for (const [name, text] of Object.entries(options.files ?? {})) writeFileSync(join(dir, name), text);
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

  it.each([...FILES.keys()])(
    '%s: every action pinned by full commit SHA to a release of its current major, the release named',
    (path) => {
      const text = FILES.get(path)!;
      const used = [...text.matchAll(/^\s*(?:- )?uses: (\S+)(.*)$/gm)].map((m) => `${m[1]}${m[2]}`);
      expect(used.length).toBeGreaterThan(0);
      const allowed = Object.values(PINNED_ACTIONS).map((p) => `${p.action}@${p.sha} # ${p.release}`);
      for (const line of used) expect(allowed).toContain(line);
      for (const pinned of Object.values(PINNED_ACTIONS)) {
        expect(pinned.sha).toMatch(/^[0-9a-f]{40}$/);
        expect(pinned.release).toMatch(/^v\d+\.\d+\.\d+$/);
      }
    },
  );

  it('pull request: validate (no secret, no warning let through), then plan, an artifact, one sticky comment, a verdict', () => {
    const pr = workflow('wfsync-pr.yml');
    expect(pr.on).toEqual({ pull_request: null });
    expect(pr.permissions).toEqual({ contents: 'read' });
    expect(Object.keys(pr.jobs)).toEqual(['validate', 'key', 'plan']);
    const { validate, plan } = pr.jobs as Record<string, Job>;
    expectSetUp(validate!);
    expect(validate!.steps[3]).toEqual({ run: 'npx wfsync validate --format github --max-warnings 0' });
    expect(validate!.env).toBeUndefined();
    expect(plan!.needs).toEqual(['validate', 'key']);
    expect(plan!.if).toBe("needs.key.outputs.present == 'true'");
    expect(plan!.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' });
    expect(plan!.env).toEqual({ WFSYNC_DEVELOPMENT_API_KEY: KEY });
    expectSetUp(plan!, true);
    expect(plan!.steps.slice(3).map((s) => s.name)).toEqual([
      'Plan',
      'Upload the plan',
      'Comment on the pull request',
      'Verdict',
    ]);
    // No --base: wfsync reads GITHUB_BASE_REF itself.
    expect(step(plan!, 'Plan').run).toContain(
      'npx wfsync plan --target development --format markdown --out plan.json > plan.md || code=$?\n',
    );
    expect(step(plan!, 'Upload the plan')).toMatchObject({
      uses: `actions/upload-artifact@${PINNED_ACTIONS.uploadArtifact.sha}`,
      with: { name: 'wfsync-plan', path: 'plan.json\nplan.md\n' },
    });
    const comment = step(plan!, 'Comment on the pull request');
    expect(comment.uses).toBe(`actions/github-script@${PINNED_ACTIONS.githubScript.sha}`);
    expect(comment.if).toBeUndefined(); // the plan step never fails: the comment is posted whatever the plan said
    expect(comment.env).toEqual({ PLAN_EXIT_CODE: gh('steps.plan.outputs.exit-code') });
    expect(comment.with?.script).toBe(`${buildCommentScript(prCommentMarker('development'))}\n`);
    expect(step(plan!, 'Verdict').env).toEqual({ PLAN_EXIT_CODE: gh('steps.plan.outputs.exit-code') });
  });

  it.each([0, 1, 2, 3, 4, 6, 64, 127])(
    'the plan step: wfsync exiting %i ends the step with 0 and records the code (the verdict comes after the comment)',
    (code) => {
      const run = step(workflow('wfsync-pr.yml').jobs.plan!, 'Plan').run!;
      const result = runStep(run, { code });
      expect(result.status).toBe(0);
      expect(result.output).toBe(`exit-code=${code}\n`);
      expect(readFileSync(join(result.dir, 'plan.md'), 'utf8')).toBe(
        'npx wfsync plan --target development --format markdown --out plan.json\n',
      );
    },
  );

  describe('the verdict step', () => {
    const verdict = () => step(workflow('wfsync-pr.yml').jobs.plan!, 'Verdict').run!;
    const run = (code: string, files: Record<string, string> = { 'plan.json': PLAN_JSON }) =>
      runStep(verdict(), { env: { PLAN_EXIT_CODE: code }, files });

    it('passes on 0 (nothing to do) and 2 (merging creates what the comment lists)', () => {
      expect(run('0')).toMatchObject({
        status: 0,
        stdout: 'wfsync plan: merging changes nothing on development.\n',
      });
      expect(run('2')).toMatchObject({
        status: 0,
        stdout: 'wfsync plan: merging creates what the plan comment lists; the sync on main applies it.\n',
      });
    });

    it('fails on 6 naming the workflows that need a person, their identifiers made safe for the annotation', () => {
      expect(run('6')).toMatchObject({
        status: 6,
        stdout:
          '::error title=wfsync plan::a workflow needs a person: billing (conflict), welcome (drifted), ' +
          'evil???warning??x?0A (orphaned). Sync will not apply this; the plan comment says what to do for each.\n',
      });
      // No readable plan.json: the annotation points at the comment.
      expect(run('6', {}).stdout).toBe(
        '::error title=wfsync plan::a workflow needs a person: see the plan comment. Sync will not apply this; ' +
          'the plan comment says what to do for each.\n',
      );
    });

    it.each([
      ['1', 'an unexpected failure: the service unreachable or failing, an I/O error, or a bug'],
      ['3', 'invalid definitions or config'],
      ['4', 'the API key was refused, or it is not a Development-environment key'],
      ['5', 'rate limited: the retry budget ran out'],
      ['64', "a usage error in this job's wfsync command"],
      ['127', 'an exit code wfsync does not use: wfsync did not run, or crashed'],
    ])('fails on %s with what the code means', (code, meaning) => {
      expect(run(code)).toMatchObject({
        status: Number(code),
        stdout:
          `::error title=wfsync plan::wfsync plan failed (exit ${code}: ${meaning}); the plan comment and this ` +
          "job's log say why.\n",
      });
    });
  });

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
        /^::(notice|warning) title=wfsync::wfsync .* skipped: no WFSYNC_DEVELOPMENT_API_KEY secret/,
      );
      const present = runStep(look.run!, { env: { KEY: 'sk-secret-value' } });
      expect(present).toMatchObject({ status: 0, output: 'present=true\n', stdout: '' });
    },
  );

  it('sync: on push to main, one run at a time, the Development key from secrets', () => {
    const text = FILES.get('.github/workflows/wfsync-sync.yml')!;
    expect(text).toContain(
      "the API key of the service's Development environment, the only\n# one that may create",
    );
    expect(text).toContain("the dashboard's promotion\n# (publish) step");
    const sync = workflow('wfsync-sync.yml');
    expect(sync.on).toEqual({ push: { branches: ['main'] }, workflow_dispatch: null });
    expect(sync.concurrency).toEqual({ group: 'wfsync-sync-development', 'cancel-in-progress': false });
    expect(Object.keys(sync.jobs)).toEqual(['key', 'sync']);
    const job = sync.jobs.sync!;
    expect(job).toMatchObject({ needs: 'key', if: "needs.key.outputs.present == 'true'" });
    expect(job.env).toEqual({ WFSYNC_DEVELOPMENT_API_KEY: KEY });
    expectSetUp(job);
    expect(step(job, 'Sync').run).toContain(
      'npx wfsync sync --target development --format github || code=$?\n',
    );
  });

  it.each([
    [0, 0, ''],
    [
      6,
      6,
      "::error title=wfsync sync::synced what sync may apply, but a workflow needs a person (drifted, changed locally, conflict, missing remotely or orphaned): the run's summary says which and what to do.\n",
    ],
    [
      1,
      1,
      "::error title=wfsync sync::wfsync sync failed (exit 1: an unexpected failure: the service unreachable or failing, an I/O error, or a bug); the run's summary and this job's log say what was done.\n",
    ],
    [
      4,
      4,
      "::error title=wfsync sync::wfsync sync failed (exit 4: the API key was refused, or it is not a Development-environment key); the run's summary and this job's log say what was done.\n",
    ],
  ])('the sync step: wfsync exiting %i ends it with %i, reported so', (code, status, annotation) => {
    const result = runStep(step(workflow('wfsync-sync.yml').jobs.sync!, 'Sync').run!, { code });
    expect(result.status).toBe(status);
    expect(result.stdout).toBe(`npx wfsync sync --target development --format github\n${annotation}`);
  });

  it('sync: the commented alternative that commits the state back is a valid step once uncommented', () => {
    const text = FILES.get('.github/workflows/wfsync-sync.yml')!;
    const start = text.indexOf('      # - name: Commit the state');
    expect(start).toBeGreaterThan(0);
    const uncommented = text.slice(0, start) + text.slice(start).replace(/^ {6}# /gm, '      ');
    const job = (parseDocument(uncommented).toJS() as Workflow).jobs.sync!;
    const commit = step(job, 'Commit the state');
    expect(commit.if).toBe("always() && steps.sync.outcome != 'skipped'");
    expect(commit.run).toContain('git add .wfsync/state/development.json\n');
    expect(commit.run).toContain('[skip ci]');
  });

  it('drift: daily and on demand, read-only, on the development target', () => {
    const drift = workflow('wfsync-drift.yml');
    expect(drift.on).toEqual({ schedule: [{ cron: '23 6 * * *' }], workflow_dispatch: null });
    expect(drift.permissions).toEqual({ contents: 'read' });
    const job = drift.jobs.drift!;
    expectSetUp(job);
    expect(job.env).toEqual({ WFSYNC_DEVELOPMENT_API_KEY: KEY });
    expect(step(job, 'Plan (read-only)').run).toContain(
      'npx wfsync plan --target development --format github --out plan.json || code=$?\n',
    );
  });

  it.each([
    [0, 0, 'No drift: development matches the definitions.\n'],
    [
      2,
      0,
      '::warning title=wfsync drift check::workflows on the default branch are not on development yet: the sync run on main creates them (did its last run fail?).\n',
    ],
    [
      6,
      6,
      '::error title=wfsync drift check::drift found, a workflow needs a person: billing (conflict), welcome (drifted), evil???warning??x?0A (orphaned). The summary says what to do for each.\n',
    ],
    [
      1,
      1,
      '::error title=wfsync drift check::the drift check could not run (exit 1: an unexpected failure: the service unreachable or failing, an I/O error, or a bug).\n',
    ],
    [
      3,
      3,
      '::error title=wfsync drift check::the drift check could not run (exit 3: invalid definitions or config).\n',
    ],
  ])(
    'the drift step: wfsync exiting %i ends it with %i; drift is reported as drift, not as a crash',
    (code, status, said) => {
      const run = step(workflow('wfsync-drift.yml').jobs.drift!, 'Plan (read-only)').run!;
      const result = runStep(run, { code, files: { 'plan.json': PLAN_JSON } });
      expect(result.status).toBe(status);
      expect(result.stdout).toBe(
        `npx wfsync plan --target development --format github --out plan.json\n${said}`,
      );
    },
  );

  it.each([...FILES.keys()])(
    '%s: every run script is valid bash and takes values through env, never an expression pasted into the shell',
    (path) => {
      const name = path.slice('.github/workflows/'.length);
      const scripts = Object.values(workflow(name).jobs).flatMap((job) =>
        job.steps.flatMap((s) => (s.run === undefined ? [] : [s.run])),
      );
      expect(scripts.length).toBeGreaterThan(1);
      for (const script of scripts) {
        const checked = spawnSync('bash', ['-n', '-c', script], { encoding: 'utf8' });
        expect(checked.stderr).toBe('');
        expect(checked.status).toBe(0);
        expect(script).not.toContain('${{');
      }
    },
  );

  it("the README's Dependabot snippet keeps these pins current: github-actions, the repository's workflows", () => {
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const section = readme.slice(readme.indexOf('#### Keeping the pinned actions current'));
    const block = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
    expect(block).toBeDefined();
    const document = parseDocument(block!, { uniqueKeys: true });
    expect(document.errors).toEqual([]);
    expect(document.toJS()).toEqual({
      version: 2,
      updates: [
        {
          'package-ecosystem': 'github-actions',
          directory: '/',
          schedule: { interval: 'weekly' },
          groups: { actions: { patterns: ['*'] } },
        },
      ],
    });
  });

  it('actionlint (when installed) finds nothing in the recipes', (ctx) => {
    const found = spawnSync('actionlint', ['-version'], { encoding: 'utf8' });
    if (found.error !== undefined) {
      const reason =
        'actionlint is not installed (no Debian package; a release binary cannot be fetched here)';
      console.log(`skipped: ${reason}; the YAML structure is asserted above instead`);
      ctx.skip(reason);
    }
    const dir = mkdtempSync(join(tmpdir(), 'wfsync-actionlint-'));
    mkdirSync(join(dir, '.github/workflows'), { recursive: true });
    for (const [path, text] of FILES) writeFileSync(join(dir, path), text);
    const result = spawnSync('actionlint', ['-no-color'], { cwd: dir, encoding: 'utf8' });
    expect(result.stdout + result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});

describe('the sticky comment script', () => {
  const marker = prCommentMarker('development');
  const body = `${marker}\n## wfsync plan\n`;

  interface Comment {
    id: number;
    body: string;
    user: { login: string };
  }

  /** Runs the script as actions/github-script does (an async function body), against a fake GitHub API. */
  async function post(comments: Comment[], exitCode: string, planMd: string | null = body) {
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
    const context = {
      repo: { owner: 'acme', repo: 'notifications' },
      issue: { number: 7 },
      serverUrl: 'https://github.example',
      runId: 42,
    };
    const core = { info: (message: string) => calls.push(['info', message]) };
    const require = (id: string) => {
      expect(id).toBe('node:fs');
      return {
        readFileSync: (path: string) => {
          if (path !== 'plan.md' || planMd === null) throw new Error(`ENOENT: ${path}`);
          return planMd;
        },
      };
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

  it('no earlier comment: one is created when a workflow needs a person (6) or the plan failed (1, 3, 4)', async () => {
    const failure = `${marker}\n### wfsync plan failed\n\nthe service is down\n`;
    for (const code of ['6', '1', '3', '4']) {
      expect(await post([], code, failure)).toEqual([
        LIST,
        ['create', { owner: 'acme', repo: 'notifications', issue_number: 7, body: failure }],
      ]);
    }
  });

  it('a failed plan replaces the earlier comment with what wfsync printed', async () => {
    const failure = `${marker}\n### wfsync plan failed\n\nthe service is down\n`;
    const comments = [{ id: 2, body: `${marker}\nold plan`, user: { login: 'github-actions[bot]' } }];
    expect(await post(comments, '1', failure)).toEqual([
      LIST,
      ['update', { owner: 'acme', repo: 'notifications', comment_id: 2, body: failure }],
    ]);
  });

  it('wfsync printed no plan (it did not run): the comment says so and links the log, never a stale plan', async () => {
    const said =
      `${marker}\n### wfsync plan failed\n\n\`wfsync plan\` exited 127 without printing a plan: see ` +
      '[the job log](https://github.example/acme/notifications/actions/runs/42).\n';
    const comments = [{ id: 2, body: `${marker}\nold plan`, user: { login: 'github-actions[bot]' } }];
    for (const printed of [null, '', 'npx: command not found\n']) {
      expect(await post(comments, '127', printed)).toEqual([
        LIST,
        ['update', { owner: 'acme', repo: 'notifications', comment_id: 2, body: said }],
      ]);
    }
    expect(await post([], '127', null)).toEqual([
      LIST,
      ['create', { owner: 'acme', repo: 'notifications', issue_number: 7, body: said }],
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
