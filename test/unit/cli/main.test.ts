import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { createCommandMark } from '../../../src/cli/command-mark.js';
import { type MainBuild, main } from '../../../src/cli/main.js';
import { buildProgram, COMMANDS } from '../../../src/cli/program.js';

/** An empty folder: no run below gets as far as a command's action. */
const cwd = mkdtempSync(join(tmpdir(), 'wfsync-main-'));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** `wfsync <args>` in-process, as a user's shell would run it. */
async function cli(args: string[], build?: MainBuild): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const sink = (into: string[]) =>
    new Writable({
      write(chunk, _encoding, done) {
        into.push(String(chunk));
        done();
      },
    });
  const code = await main(
    args,
    { stdout: sink(out), stderr: sink(err), env: { NO_COLOR: '1', TZ: 'UTC' }, cwd },
    build,
  );
  return { code, stdout: out.join(''), stderr: err.join('') };
}

/** Every command and subcommand of the whole program, as the words that name it. */
function commandPaths(): { path: string[]; command: Command }[] {
  const program = buildProgram(
    {
      stdout: process.stdout,
      stderr: process.stderr,
      env: {},
      cwd,
      commandMark: createCommandMark(() => 'm:'),
      exitCode: 0,
    },
    'all',
  );
  const walk = (command: Command, path: string[]): { path: string[]; command: Command }[] =>
    command.commands.flatMap((sub) => [
      { path: [...path, sub.name()], command: sub },
      ...walk(sub, [...path, sub.name()]),
    ]);
  return walk(program, []);
}

/** Command lines that stop in commander (help, version, usage errors) before any action runs. */
function usageLines(path: string[], command: Command): string[][] {
  const lines = [
    [...path, '--help'],
    [...path, '-h'],
    ['-c', 'other.yaml', '--verbose', ...path, '--help'],
    [...path, '--no-such-option'],
    [...path, '--verbos'],
    [...path, '-V'],
    [...path, '--config'],
  ];
  for (const option of command.options) {
    const flag = option.long ?? option.short ?? '';
    if (option.argChoices) lines.push([...path, flag, 'no-such-choice']);
    if (option.required) lines.push([...path, flag]);
  }
  // With no arguments: a missing argument, or the help of a command made of subcommands.
  if (command.commands.length > 0 || command.registeredArguments.some((argument) => argument.required)) {
    lines.push(path);
  }
  if (command.commands.length > 0) lines.push([...path, 'no-such-subcommand']);
  return lines;
}

describe('a run builds only the command it names, and prints exactly what the whole program prints', () => {
  for (const { path, command } of commandPaths()) {
    it(`wfsync ${path.join(' ')}: help, version and usage errors, output and exit code`, async () => {
      for (const args of usageLines(path, command)) {
        const lazy = await cli(args);
        const whole = await cli(args, { wholeProgram: true });
        expect(lazy, args.join(' ')).toEqual(whole);
        expect(lazy.stdout + lazy.stderr, args.join(' ')).not.toBe('');
      }
    });
  }

  it('the usage errors are the usage errors (exit 64), help and version exit 0', async () => {
    expect(await cli(['validate', '--formt', 'json'])).toMatchObject({
      code: 64,
      stdout: '',
      stderr: expect.stringContaining("error: unknown option '--formt'\n(Did you mean --format?)\n"),
    });
    expect(await cli(['validate', '--format', 'xml'])).toMatchObject({
      code: 64,
      stderr: expect.stringContaining("error: option '-f, --format <format>' argument 'xml' is invalid."),
    });
    expect(await cli(['completion'])).toMatchObject({
      code: 64,
      stderr: expect.stringContaining("error: missing required argument 'shell'"),
    });
    expect(await cli(['plan', '--help'])).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^Usage: wfsync plan \[options\]/),
    });
    expect((await cli(['validate', '-V'])).stdout).toMatch(/^\d+\.\d+\.\d+.* \(node v/);
  });
});

describe('runs that name no command get the whole program', () => {
  it('`help <command>` prints what `<command> --help` prints', async () => {
    for (const { path } of commandPaths().filter(({ path }) => path.length === 1)) {
      const asked = await cli(['help', ...path]);
      expect(asked, path.join(' ')).toEqual(await cli([...path, '--help']));
      expect(asked.stdout).toContain(`Usage: wfsync ${path[0]}`);
    }
  });

  it('an unknown command: an error suggesting the closest one, the list of commands after it', async () => {
    const run = await cli(['valdate']);
    expect(run.code).toBe(64);
    expect(run.stderr).toMatch(/^error: unknown command 'valdate'\n\(Did you mean validate\?\)\n/);
    expect(run).toEqual(await cli(['valdate'], { wholeProgram: true }));
    const help = await cli(['--help']);
    for (const { name } of COMMANDS.filter((entry) => entry.hidden !== true)) {
      expect(help.stdout).toMatch(new RegExp(`\\n  ${name}\\b`));
    }
    expect(help.stdout).not.toContain('__complete');
  });
});
