import { describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import {
  buildGitlabFiles,
  buildGitlabPipeline,
  buildGitlabRoot,
  checkGitlabRoot,
  GITLAB_INCLUDE,
} from '../../../../src/scaffold/ci/gitlab.js';
import { buildInitActions } from '../../../../src/scaffold/init-plan.js';

const BASE = {
  configPath: 'wfsync.config.yaml',
  workflowsDir: 'workflows',
  schemaPath: './schemas/workflow.schema.json',
  ci: 'gitlab' as const,
  force: false,
  otherDefinitions: false,
  exampleSchemas: { root: '/p', path: '/p/workflows/welcome.yaml' },
  configSchemas: { root: '/p', path: '/p/wfsync.config.yaml' },
};

describe('the GitLab pipeline', () => {
  it('is strict YAML (no duplicate key) with the six jobs and their template', () => {
    const document = parseDocument(buildGitlabPipeline(), { uniqueKeys: true });
    expect(document.errors).toEqual([]);
    const jobs = Object.keys(document.toJS() as object);
    expect(jobs).toEqual([
      '.wfsync',
      'wfsync-validate',
      'wfsync-plan',
      'wfsync-sync',
      'wfsync-plan-production',
      'wfsync-promote',
      'wfsync-drift',
    ]);
  });

  it('validates once: the job log and the Code Quality report from the same run, whose exit code decides the job', () => {
    const jobs = parseDocument(buildGitlabPipeline()).toJS() as Record<
      string,
      { script: string[]; artifacts: { reports: { codequality: string } } }
    >;
    const job = jobs['wfsync-validate']!;
    const script = job.script.join('\n');
    expect(script.match(/wfsync validate/g)).toHaveLength(1);
    expect(script).toContain(
      `npx wfsync validate --max-warnings 0 --report-unused-disable --codequality ${job.artifacts.reports.codequality}`,
    );
    expect(script).not.toContain('|| true');
  });

  it("writes only the jobs: the note and the verdict are the package's (wfsync ci-relay), each job ending with it", () => {
    expect(buildGitlabFiles().map((f) => f.path)).toEqual(['.gitlab/wfsync.gitlab-ci.yml']);
    const jobs = parseDocument(buildGitlabPipeline()).toJS() as Record<string, { script: string[] }>;
    for (const [job, command, files] of [
      ['wfsync-plan', 'plan', '--document plan.json --markdown plan.md'],
      ['wfsync-sync', 'sync', '--document wfsync-sync.json'],
      ['wfsync-drift', 'plan', '--document plan.json'],
      ['wfsync-plan-production', 'plan', '--document plan-production.json'],
      ['wfsync-promote', 'sync', '--document wfsync-promote.json'],
    ] as const) {
      const lines = jobs[job]!.script.join('\n').trimEnd().split('\n');
      const target =
        job === 'wfsync-plan-production' || job === 'wfsync-promote' ? 'production' : 'development';
      expect(lines.at(-1)).toBe(
        `npx wfsync ci-relay --command ${command} --exit-code "$code" --target ${target} ${files}`,
      );
    }
    expect(buildGitlabPipeline()).not.toMatch(/case "\$code"|node -e|PRIVATE-TOKEN/);
  });
});

describe("the user's .gitlab-ci.yml", () => {
  it.each([
    ['a local include as a string', 'include: .gitlab/wfsync.gitlab-ci.yml\n'],
    ['a list with a rooted local path', 'include:\n  - local: /.gitlab/wfsync.gitlab-ci.yml\n'],
    ['a map', 'include:\n  local: ./.gitlab/wfsync.gitlab-ci.yml\n'],
    ['the file init writes', buildGitlabRoot()],
  ])('already includes the jobs: %s', (_what, text) => {
    expect(checkGitlabRoot(text)).toEqual({ status: 'included' });
  });

  it.each([
    ['no include', 'build:\n  script: make\n', GITLAB_INCLUDE],
    ['another include', 'include:\n  - local: ci/other.yml\n', GITLAB_INCLUDE],
    ['broken YAML', 'include: [\n', GITLAB_INCLUDE],
  ])('needs the include by hand: %s', (_what, text, snippet) => {
    expect(checkGitlabRoot(text)).toMatchObject({ status: 'manual', snippet });
  });

  it("says when its stages lack the jobs' stages", () => {
    const text = `stages: [build, test]\n${GITLAB_INCLUDE}\n`;
    expect(checkGitlabRoot(text)).toEqual({
      status: 'included',
      note: "its stages lack deploy, which wfsync's jobs use: add them",
    });
  });

  it('is created when absent, and never replaced, even with --force', () => {
    const paths = (existing: Map<string, string>, force = false) =>
      buildInitActions({ ...BASE, force, existing }).filter((a) => a.path === '.gitlab-ci.yml');
    expect(paths(new Map())).toEqual([
      { path: '.gitlab-ci.yml', status: 'created', text: buildGitlabRoot() },
    ]);
    const mine = new Map([['.gitlab-ci.yml', 'build:\n  script: make\n']]);
    expect(paths(mine, true)).toEqual([
      {
        path: '.gitlab-ci.yml',
        status: 'kept',
        note: "not changed: it is your pipeline: wfsync's jobs are in .gitlab/wfsync.gitlab-ci.yml",
        manual: GITLAB_INCLUDE,
      },
    ]);
  });
});
