import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonOutputProblems } from '../helpers/json-output.js';
import { makeExampleProject, runCli } from './helpers.js';
import { EXAMPLE_IDENTIFIERS, startTarget } from './plan-sync-target.js';

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

describe('plan --codequality <file>', () => {
  /** The file, held to schemas/codeclimate-output.schema.json. */
  function report(path: string): Issue[] {
    const issues = JSON.parse(readFileSync(path, 'utf8')) as Issue[];
    expect(jsonOutputProblems('codeclimate', issues)).toEqual([]);
    return issues;
  }

  it('one run writes the note on stdout, --out and the Code Quality report, asking the service once per workflow', async () => {
    const target = await startTarget();
    expect((await target.run(['sync'])).status).toBe(0);
    target.emulator.editWorkflow('order-shipped', (w) => {
      (w.steps[1]!.template as { content: string }).content = 'Order {{orderNumber}} left.';
    });
    const args = ['plan', '--format', 'markdown', '--out', 'plan.json', '--codequality', 'reports/gl.json'];
    const run = await target.run(args);
    expect(run.status, run.stderr).toBe(6);
    expect(run.stdout).toContain('order-shipped');
    expect(JSON.parse(readFileSync(join(target.cwd, 'plan.json'), 'utf8'))).toMatchObject({
      schemaVersion: 4,
      exitCode: 6,
      needsPerson: ['order-shipped'],
      summary: { drifted: 1 },
    });
    const issues = report(join(target.cwd, 'reports/gl.json'));
    expect(issues.map((i) => [i.check_name, i.location.path])).toEqual([
      ['wfsync-plan/drifted', 'workflows/order-shipped.yaml'],
    ]);
    // One plan: each recorded workflow read once (a second plan in the run would read each twice).
    expect(run.requests.every((r) => r.method === 'GET')).toBe(true);
    const reads = run.requests.filter((r) => r.path.startsWith('/v1/workflows/'));
    expect(reads).toHaveLength(EXAMPLE_IDENTIFIERS.length);
    expect(new Set(reads.map((r) => r.path)).size).toBe(EXAMPLE_IDENTIFIERS.length);
    expect(new Set(run.requests.map((r) => r.path)).size).toBe(run.requests.length);
    // The same document --format codeclimate prints for the same plan.
    const printed = await target.run(['plan', '--format', 'codeclimate']);
    expect(readFileSync(join(target.cwd, 'reports/gl.json'), 'utf8')).toBe(printed.stdout);
  });

  it('with --format codeclimate too, the file holds exactly what stdout does', async () => {
    const target = await startTarget();
    const run = await target.run(['plan', '--format', 'codeclimate', '--codequality', 'gl.json']);
    expect(run.status).toBe(2);
    expect(readFileSync(join(target.cwd, 'gl.json'), 'utf8')).toBe(run.stdout);
    expect(report(join(target.cwd, 'gl.json'))).toEqual([]);
  });

  it("a plan that fails as a whole writes its failure into the file (the job's artifact says why), exit 4", async () => {
    const target = await startTarget();
    writeFileSync(join(target.cwd, 'gl.json'), '[{"stale": "an older run"}]\n');
    const run = await target.run(['plan', '--format', 'markdown', '--codequality', 'gl.json'], {
      DEV_KEY: 'wrong-key',
    });
    expect(run.status).toBe(4);
    expect(run.stdout).toContain('wfsync plan failed');
    const issues = report(join(target.cwd, 'gl.json'));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ check_name: 'wfsync-plan/auth', severity: 'blocker' });
    expect(readFileSync(join(target.cwd, 'gl.json'), 'utf8')).not.toContain('wrong-key');
  });
});

describe('validate --codequality <file>', () => {
  /** The file, held to schemas/codeclimate-output.schema.json. */
  function report(path: string): Issue[] {
    const issues = JSON.parse(readFileSync(path, 'utf8')) as Issue[];
    expect(jsonOutputProblems('codeclimate', issues)).toEqual([]);
    return issues;
  }

  it('one run prints the human report and writes the Code Quality report --format codeclimate prints, exit 3', async () => {
    const cwd = makeExampleProject();
    const file = join(cwd, 'workflows/order-shipped.yaml');
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, `${text}colour: blue\n`);
    const run = await runCli(['validate', '--max-warnings', '0', '--codequality', 'reports/gl.json'], {
      cwd,
    });
    expect(run.status).toBe(3);
    // The log: the human report, the problem at its line.
    const line = text.split('\n').length;
    expect(run.stdout).toContain(`workflows/order-shipped.yaml:${line}:1 error`);
    expect(run.stdout).toContain('[schema-additional-property]');
    // The file: the same problem as a Code Quality issue, exactly what --format codeclimate prints.
    const written = readFileSync(join(cwd, 'reports/gl.json'), 'utf8');
    expect(report(join(cwd, 'reports/gl.json')).map((i) => [i.check_name, i.location.lines.begin])).toEqual([
      ['schema-additional-property', line],
    ]);
    const printed = await runCli(['validate', '--format', 'codeclimate'], { cwd });
    expect(written).toBe(printed.stdout);
  });

  it('writes [] for valid definitions, exit 0; with --format codeclimate too the file holds exactly stdout', async () => {
    const cwd = makeExampleProject();
    const human = await runCli(['validate', '--codequality', 'gl.json'], { cwd });
    expect(human.status).toBe(0);
    expect(readFileSync(join(cwd, 'gl.json'), 'utf8')).toBe('[]\n');
    writeFileSync(join(cwd, 'workflows/order-shipped.yaml'), 'name: [\n');
    const both = await runCli(['validate', '--format', 'codeclimate', '--codequality', 'gl.json'], { cwd });
    expect(both.status).toBe(3);
    expect(report(join(cwd, 'gl.json')).length).toBeGreaterThan(0);
    expect(readFileSync(join(cwd, 'gl.json'), 'utf8')).toBe(both.stdout);
  });

  it('a run that fails as a whole (an invalid config) writes its failure into the file, exit 3', async () => {
    const cwd = makeExampleProject();
    writeFileSync(join(cwd, 'wfsync.config.yaml'), 'targets: [\n');
    writeFileSync(join(cwd, 'gl.json'), '[{"stale": "an older run"}]\n');
    const run = await runCli(['validate', '--codequality', 'gl.json'], { cwd });
    expect(run.status).toBe(3);
    expect(run.stderr).toContain('invalid config file wfsync.config.yaml');
    const issues = report(join(cwd, 'gl.json'));
    expect(issues[0]).toMatchObject({
      check_name: 'wfsync-validate/invalid',
      severity: 'blocker',
      location: { path: 'wfsync.config.yaml' },
    });
    expect(issues.slice(1).map((i) => i.check_name)).toEqual(['yaml-syntax']);
  });
});
