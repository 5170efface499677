import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PR_COMMENT_MARKER, prCommentMarker } from '../../src/report/plan/markdown.js';
import { parseJsonOutput } from '../helpers/json-output.js';
import { closedPort, type Target, type TargetRun } from './plan-sync-target.js';
import { ADDED_GROUP_POSITION, pullRequest } from './pull-request-scenario.js';

/**
 * Issue 13's scenario, the refusals: the same pull request (edits order-shipped, adds password-changed, trial-ending
 * edited in the dashboard) planned with `--base main` when the job has a Production key, when the added workflow's
 * group does not exist in the environment, and when the service is down. Each case in the four formats: its exit
 * code, nothing sent, one document on stdout (json, markdown), an annotation (github), a message and no stack
 * (human), and never the key.
 */

const PROD_KEY = 'wfs_production_key_0123456789abcdef';
const MISSING_GROUP = '6650f0c0ffee00000000a0ff';
const FORMATS = ['human', 'json', 'markdown', 'github'] as const;
type Format = (typeof FORMATS)[number];

/** One line of a GitHub workflow command: `::name key=value,…::data`, properties escaped (no raw `,` or `:`). */
const WORKFLOW_COMMAND = /^::(error|warning|notice)(?: [A-Za-z]+=[^,:\n]*(?:,[A-Za-z]+=[^,:\n]*)*)?::[^\n]*$/;

interface Case {
  run: TargetRun;
  format: Format;
  /** The step summary's text after the github run, '' when none was written. */
  summary: string;
}

/** `plan --base main` in each format (github under GITHUB_ACTIONS=true, with a step summary file). */
async function planEveryFormat(target: Target, args: string[] = [], env: Record<string, string> = {}) {
  const cases: Case[] = [];
  for (const format of FORMATS) {
    const summaryFile = join(target.cwd, `summary-${format}.md`);
    const run = await target.run(['plan', '--base', 'main', '--format', format, ...args], {
      ...env,
      ...(format === 'github' ? { GITHUB_ACTIONS: 'true', GITHUB_STEP_SUMMARY: summaryFile } : {}),
    });
    let summary = '';
    try {
      summary = readFileSync(summaryFile, 'utf8');
    } catch {}
    cases.push({ run, format, summary });
  }
  return Object.fromEntries(cases.map((c) => [c.format, c])) as Record<Format, Case>;
}

/** What holds in every format: the exit code, no stack, no key, nothing POSTed, the message on stderr. */
function expectCommon(c: Case, exitCode: number, message: string, keys: string[]): void {
  const { run, format } = c;
  expect(run.status, `${format}: ${run.stderr}`).toBe(exitCode);
  expect(run.stderr, format).toContain(`wfsync: ${message}\n`);
  for (const text of [run.stdout, run.stderr, c.summary]) {
    expect(text, format).not.toMatch(/^\s+at .+[(:]\d+/m);
    expect(text, format).not.toContain('Error:');
    for (const key of keys) expect(text, format).not.toContain(key);
  }
  expect(run.posts, format).toBe(0);
}

/** stdout of the markdown run: one failed-plan comment, each marker exactly once. */
function expectFailureComment(c: Case, exitCode: number, code: string): void {
  const { stdout } = c.run;
  expect(stdout.split(PR_COMMENT_MARKER)).toHaveLength(2);
  expect(stdout.split(prCommentMarker('dev'))).toHaveLength(2);
  expect(stdout.split('\n').slice(0, 3)).toEqual([
    PR_COMMENT_MARKER,
    prCommentMarker('dev'),
    '## ✖ wfsync plan failed · dev',
  ]);
  expect(stdout.split('## ✖ wfsync plan failed')).toHaveLength(2);
  expect(stdout).toContain(`**No plan: the plan could not be made (exit ${exitCode}, \`${code}\`).**`);
  expect(stdout).toContain('**Before merging:** the plan must succeed');
}

/** stdout of the github run: only well-formed workflow commands, the first the failure; the summary without markers. */
function expectFailureAnnotations(c: Case, exitCode: number, code: string): string[] {
  const lines = c.run.stdout.split('\n');
  expect(lines.pop()).toBe('');
  for (const line of lines) expect(line).toMatch(WORKFLOW_COMMAND);
  expect(lines[0]).toMatch(
    new RegExp(`^::error title=wfsync plan failed \\(exit ${exitCode}%2C ${code}\\)::`),
  );
  expect(c.summary.startsWith('## ✖ wfsync plan failed · dev\n')).toBe(true);
  expect(c.summary).toContain(`(exit ${exitCode}, \`${code}\`)`);
  expect(c.summary).not.toContain('<!-- wfsync-plan');
  return lines;
}

describe('the pull request planned against its base, refused before merge', () => {
  it('a Production key: exit 4 at plan time naming the Development key and the promotion step; nothing sent', async () => {
    const { target } = await pullRequest({ emulator: { productionKeys: [PROD_KEY] } });
    const runs = await planEveryFormat(target, [], { DEV_KEY: PROD_KEY });
    const message = runs.json.run.stderr.match(/^wfsync: (.*)$/m)?.[1] ?? '';
    expect(message).toMatch(
      /^the API key in \$DEV_KEY belongs to the service's "Production" environment .*only a Development-environment key may create them, so sync would be refused \(401\) for the \d+ workflows? to create \([^)]*password-changed[^)]*\)\. Give target "dev" the Development environment's API key and sync there, then, to bring them to this environment, give this key to a target whose promoteFrom is "dev" \(it only reads\); nothing was sent$/,
    );
    for (const c of Object.values(runs)) {
      expectCommon(c, 4, message, [PROD_KEY, target.emulator.apiKey]);
      // Asked the two read-only routes after the lookups, then stopped.
      expect(c.run.requests.filter((r) => !r.path.startsWith('/v1/workflows')).map((r) => r.path)).toEqual([
        '/v1/environments/me',
        '/v1/notification-groups',
      ]);
    }
    expect(runs.human.run.stdout).toBe('');
    expect(parseJsonOutput('plan', runs.json.run.stdout)).toEqual({
      schemaVersion: 4,
      error: { code: 'auth', message, exitCode: 4 },
    });
    expectFailureComment(runs.markdown, 4, 'auth');
    expect(runs.markdown.run.stdout).toContain('give this key to a target whose promoteFrom is');
    expect(runs.markdown.run.stdout).toContain('**What to do:** fix the API key the job gives this target');
    expect(expectFailureAnnotations(runs.github, 4, 'auth')).toHaveLength(1);
    expect(runs.github.run.stdout).toContain('Development-environment key may create them');
    expect(runs.github.summary).toContain('give this key to a target whose promoteFrom is');
    expect(target.stored()).toEqual(['order-shipped', 'password-reset', 'trial-ending']);
  });

  it("the added workflow's group missing from the environment: exit 3 at its line, nothing sent", async () => {
    const { target } = await pullRequest();
    const config = join(target.cwd, 'wfsync.config.yaml');
    writeFileSync(
      config,
      readFileSync(config, 'utf8').replace(
        /notificationGroups: \{ transactional: [0-9a-f]{24} \}/,
        `notificationGroups: { transactional: ${MISSING_GROUP} }`,
      ),
    );
    const runs = await planEveryFormat(target);
    const message =
      '1 workflow to create uses a notification group that environment "Development" does not have; nothing was sent';
    const problem = `notification group "group:transactional" (${MISSING_GROUP}) does not exist in environment "Development": the service would still create the workflow, under a group it does not have; set targets.dev.notificationGroups.transactional in wfsync.config.yaml to one of its ids ("General" ${target.emulator.notificationGroupId})`;
    const { file, line, column } = ADDED_GROUP_POSITION;
    for (const c of Object.values(runs)) {
      expectCommon(c, 3, message, [target.emulator.apiKey]);
      // Only the create is checked: order-shipped names the same group, but merging does not create it.
      expect(c.run.stderr).toContain(
        `${file}:${line}:${column} error ${problem} [notification-group-missing]\n`,
      );
      expect(c.run.stderr).not.toContain('workflows/order-shipped.yaml:6:22');
    }
    expect(runs.human.run.stdout).toBe('');
    expect(runs.human.run.stderr).toContain('> 6 | notificationGroupId: group:transactional');

    const { error } = parseJsonOutput('plan', runs.json.run.stdout);
    expect(error).toEqual({
      code: 'invalid',
      message,
      exitCode: 3,
      diagnostics: [
        {
          file,
          line,
          column,
          endLine: line,
          endColumn: column + 'group:transactional'.length,
          severity: 'error',
          code: 'notification-group-missing',
          message: problem,
          pointer: '/notificationGroupId',
        },
      ],
    });

    expectFailureComment(runs.markdown, 3, 'invalid');
    expect(runs.markdown.run.stdout).toContain(
      `- \`${file}:${line}:${column}\` **error** notification group "group:transactional" (${MISSING_GROUP}) does not exist`,
    );
    expect(runs.markdown.run.stdout).toContain('(`notification-group-missing`)');

    const annotations = expectFailureAnnotations(runs.github, 3, 'invalid');
    expect(annotations).toHaveLength(2);
    expect(annotations[1]).toBe(
      `::error file=${file},line=${line},col=${column},endLine=${line},endColumn=${column + 19},title=wfsync (notification-group-missing)::${problem}`,
    );
    expect(runs.github.summary).toContain(`\`${file}:${line}:${column}\` **error**`);
  });

  it('the service down: exit 1, the request named, "is the service up?"; one attempt', async () => {
    const { target } = await pullRequest({ targetConfig: ['retries: { maxAttempts: 1 }'] });
    const port = await closedPort();
    const runs = await planEveryFormat(target, ['--base-url', `http://127.0.0.1:${port}`]);
    const message = runs.json.run.stderr.match(/^wfsync: (.*)$/m)?.[1] ?? '';
    expect(message).toMatch(
      new RegExp(
        `^GET (/v1/workflows/[a-z-]+): could not connect to 127\\.0\\.0\\.1:${port}: connection refused \\(gave up after 1 attempt\\); is the service up\\? check --base-url$`,
      ),
    );
    const path = message.split(' ')[1]!.replace(/:$/, '');
    for (const c of Object.values(runs)) {
      expectCommon(c, 1, message, [target.emulator.apiKey]);
      expect(c.run.requests).toEqual([]);
    }
    expect(runs.human.run.stdout).toBe('');
    expect(parseJsonOutput('plan', runs.json.run.stdout)).toEqual({
      schemaVersion: 4,
      error: { code: 'service-network', message, exitCode: 1, endpoint: { method: 'GET', path } },
    });
    expectFailureComment(runs.markdown, 1, 'service-network');
    expect(runs.markdown.run.stdout).toContain('is the service up? check --base-url');
    expect(runs.markdown.run.stdout).toContain(
      "**What to do:** the service could not be asked: re-run the job once it answers (check the target's baseUrl and the service's status).",
    );
    expect(expectFailureAnnotations(runs.github, 1, 'service-network')).toHaveLength(1);
    expect(runs.github.run.stdout).toContain('is the service up? check --base-url');
  });
});
