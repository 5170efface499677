import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeExampleProject, runCli } from './helpers.js';
import { startTarget } from './plan-sync-target.js';

/** `--format codeclimate` through the built CLI; runCli holds stdout to schemas/codeclimate-output.schema.json. */

interface Issue {
  check_name: string;
  description: string;
  severity: string;
  fingerprint: string;
  location: { path: string; lines: { begin: number; end: number } };
}

describe('validate --format codeclimate', () => {
  it('reports every problem as a Code Quality issue at its line, exit 3; the same problems keep their fingerprints', async () => {
    const cwd = makeExampleProject();
    const file = join(cwd, 'workflows/order-shipped.yaml');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, `${text}colour: blue\n`);
    const first = await runCli(['validate', '--format', 'codeclimate'], { cwd });
    expect(first.status).toBe(3);
    const issues = JSON.parse(first.stdout) as Issue[];
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({
      check_name: 'schema-additional-property',
      severity: 'major',
      location: { path: 'workflows/order-shipped.yaml', lines: { begin: text.split('\n').length } },
    });
    // Lines added above the problem move it, but GitLab must see the same issue (not one fixed and one new).
    writeFileSync(file, `# a comment\n# another\n${text}colour: blue\n`);
    const moved = JSON.parse(
      (await runCli(['validate', '--format', 'codeclimate'], { cwd })).stdout,
    ) as Issue[];
    expect(moved[0]!.location.lines.begin).toBe(issues[0]!.location.lines.begin + 2);
    expect(moved[0]!.fingerprint).toBe(issues[0]!.fingerprint);
  });

  it('prints [] for valid definitions, exit 0', async () => {
    const result = await runCli(['validate', '--format', 'codeclimate'], { cwd: makeExampleProject() });
    expect(result).toMatchObject({ status: 0, stdout: '[]\n' });
  });
});

describe('plan --format codeclimate', () => {
  it('reports a drifted workflow at its definition, exit 6', async () => {
    const target = await startTarget();
    expect((await target.run(['sync'])).status).toBe(0);
    target.emulator.editWorkflow('order-shipped', (w) => {
      (w.steps[1]!.template as { content: string }).content = 'Order {{orderNumber}} left.';
    });
    const plan = await target.run(['plan', '--format', 'codeclimate']);
    expect(plan.status).toBe(6);
    const issues = JSON.parse(plan.stdout) as Issue[];
    expect(issues.map((i) => [i.check_name, i.location.path, i.severity])).toEqual([
      ['wfsync-plan/drifted', 'workflows/order-shipped.yaml', 'major'],
    ]);
    expect(issues[0]!.location.lines.begin).toBeGreaterThan(1);
    expect(issues[0]!.description).toMatch(/^order-shipped: drifted on dev\. Next: /);
  });

  it('a plan that fails as a whole still prints one report: a blocker saying why, with the exit code', async () => {
    const target = await startTarget();
    const plan = await target.run(['plan', '--format', 'codeclimate'], { DEV_KEY: 'wrong-key' });
    expect(plan.status).toBe(4);
    const issues = JSON.parse(plan.stdout) as Issue[];
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({
      check_name: 'wfsync-plan/auth',
      severity: 'blocker',
      location: { path: 'wfsync.config.yaml', lines: { begin: 1, end: 1 } },
    });
    expect(issues[0]!.description).toMatch(/^wfsync plan failed \(exit 4, auth\): /);
    expect(plan.stdout).not.toContain('wrong-key');
  });

  it('is refused for sync, which has no findings to report', async () => {
    const result = await runCli(['sync', '--format', 'codeclimate'], { cwd: makeExampleProject() });
    expect(result.status).toBe(64);
    expect(result.stderr).toContain("argument 'codeclimate' is invalid");
  });
});
