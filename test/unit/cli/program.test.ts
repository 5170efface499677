import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createCommandMark } from '../../../src/cli/command-mark.js';
import type { CommandContext } from '../../../src/cli/context.js';
import { buildProgram, COMMANDS, namedCommand } from '../../../src/cli/program.js';

const sink = () =>
  new Writable({
    write(_chunk, _encoding, done) {
      done();
    },
  });
const ctx = (): CommandContext => ({
  stdout: sink(),
  stderr: sink(),
  env: {},
  cwd: '/',
  commandMark: createCommandMark(() => 'mark:'),
  exitCode: 0,
});

const names = (args: readonly string[] | 'all') => buildProgram(ctx(), args).commands.map((c) => c.name());
const named = (args: string[]) => namedCommand(buildProgram(ctx(), []), args)?.name;

describe('COMMANDS, the one list of command names', () => {
  it('names every command of the whole program and its aliases, in the order of the help, the hidden one hidden', () => {
    const program = buildProgram(ctx(), 'all');
    expect(COMMANDS.map((entry) => entry.name)).toEqual(program.commands.map((command) => command.name()));
    expect(program.commands.flatMap((command) => command.aliases())).toEqual([]);
    for (const entry of COMMANDS) expect(entry.build(ctx()).name()).toBe(entry.name);
    const shown = program.createHelp().visibleCommands(program);
    expect(shown.map((command) => command.name())).toEqual([
      ...COMMANDS.filter((entry) => entry.hidden !== true).map((entry) => entry.name),
      'help',
    ]);
  });
});

describe('namedCommand: the command the arguments name, read as commander reads them', () => {
  it('the first argument that is no global option nor its value', () => {
    expect(named(['validate'])).toBe('validate');
    expect(named(['validate', 'plan'])).toBe('validate');
    expect(named(['-c', 'my.yaml', 'plan', '--format', 'json'])).toBe('plan');
    expect(named(['--config', 'sync', 'pull'])).toBe('pull');
    expect(named(['--config=x.yaml', 'state', 'show'])).toBe('state');
    expect(named(['-cx.yaml', 'sync'])).toBe('sync');
    expect(named(['--verbose', '-V', '__complete', 'targets'])).toBe('__complete');
  });

  it('none for no command, help, an unknown word or option, a joined flag, `--`, or a missing option value', () => {
    for (const args of [
      [],
      ['--help'],
      ['-h', 'validate'],
      ['help', 'validate'],
      ['valdate'],
      ['--bogus', 'validate'],
      ['--verbose=1', 'validate'],
      ['-Vc', 'x', 'validate'],
      ['--', 'validate'],
      ['-', 'validate'],
      ['-c', 'validate'],
    ]) {
      expect(named(args), args.join(' ')).toBeUndefined();
    }
  });
});

describe('buildProgram', () => {
  const all = COMMANDS.map((entry) => entry.name);

  it('builds only the command the arguments name', () => {
    expect(names(['validate', '--format', 'json'])).toEqual(['validate']);
    expect(names(['--verbose', 'state', 'show'])).toEqual(['state']);
    expect(names(['completion', 'bash'])).toEqual(['completion']);
  });

  it('builds every command when none is named, when asked for all, and for __complete (it answers from them all)', () => {
    expect(names([])).toEqual(all);
    expect(names(['help', 'validate'])).toEqual(all);
    expect(names(['valdate'])).toEqual(all);
    expect(names('all')).toEqual(all);
    expect(names(['__complete', '--', 'plan', '--f'])).toEqual(all);
  });
});
