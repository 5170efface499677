/**
 * Handlebars' own console output, past the output channels: its prototype-access check logs "Access has been
 * denied to resolve the property "<name>"…" with the name from the template, straight to the console. A template on
 * a contributor's branch reading a prototype's property named with a workflow command and an escape, rendered by the
 * built CLI under GitHub Actions: nothing of it may reach stdout or stderr raw.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { makeProject, type RunResult, runCli } from '../e2e/helpers.js';
import { runnerCommands } from '../helpers/runner.js';

/** The property name: a command on a line of its own and an OSC 8 link. */
const NAME = '\n::error::pwned\u001b]8;;http://evil\u0007';

/**
 * The sample data wfsync makes for `{{a.__proto__.[NAME]}}` is an `a` whose prototype holds `[NAME]` (the
 * brackets kept); `lookup` then reads that inherited property, which Handlebars denies and, left to itself, logs.
 * `{{name.toUpperCase}}` reads a method of String.prototype, with `--payload` giving a string `name`.
 */
const TEMPLATE = `{{a.__proto__.[${NAME.replace(']', '\\]')}]}} {{lookup a "[${NAME}]"}} {{name.toUpperCase}} done`;

function definition(): string {
  return [
    'name: Hostile',
    'steps:',
    '  - name: text',
    '    template:',
    '      type: sms',
    `      content: ${JSON.stringify(TEMPLATE)}`,
    'triggers:',
    '  - identifier: hostile',
    '    type: event',
    '',
  ].join('\n');
}

const env = { GITHUB_ACTIONS: 'true' };

function expectNothingRaw(run: RunResult): void {
  for (const text of [run.stdout, run.stderr]) {
    expect(text).not.toContain('\u001b');
    expect(text).not.toContain('\u0007');
    expect(text).not.toMatch(/^::error::pwned/m);
    expect(runnerCommands(text).filter((line) => line.includes('pwned'))).toEqual([]);
    expect(text).not.toContain('Access has been denied');
  }
}

describe('a template that makes Handlebars log a hostile property name', () => {
  let cwd: string;
  beforeAll(() => {
    cwd = makeProject({
      'workflows/hostile.yaml': definition(),
      'payload.json': JSON.stringify({ name: 'abc', a: {} }),
    });
  });

  it('preview renders it, denied as the service denies it, and prints nothing raw', async () => {
    const run = await runCli(['preview'], { cwd, env });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('done');
    expectNothingRaw(run);
  });

  it('preview --payload (a string `name`: String.prototype.toUpperCase denied) prints nothing raw', async () => {
    const run = await runCli(['preview', '--payload', 'payload.json', '--format', 'json'], { cwd, env });
    expect(run.status, run.stderr).toBe(0);
    expect(() => JSON.parse(run.stdout)).not.toThrow();
    expectNothingRaw(run);
  });

  it('validate checks it and prints nothing raw', async () => {
    const run = await runCli(['validate', '--format', 'github'], { cwd, env });
    expectNothingRaw(run);
  });

  it('plan (its preview of the created workflow) prints nothing raw', async () => {
    const run = await runCli(['plan', '--format', 'markdown'], { cwd, env });
    expect(run.status, run.stderr).toBe(2);
    expectNothingRaw(run);
  });
});
