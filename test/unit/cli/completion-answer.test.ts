import { Argument, Command, Option } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildCompletionAnswer } from '../../../src/cli/completion-answer.js';

/** A small program with each shape wfsync's has: subcommands, choices, a variadic and an optional value, hidden parts. */
function aProgram(): Command {
  const program = new Command('tool')
    .option('-c, --config <file>', 'config file')
    .option('--verbose', 'more');
  program
    .command('plan')
    .summary('plan it')
    .option('-t, --target <name>', 'the target')
    .addOption(new Option('-f, --format <format>', 'output format').choices(['human', 'json']))
    .option('--only <pattern...>', 'only these')
    .option('--color [when]', 'colours')
    .addOption(new Option('--secret', 'hidden').hideHelp())
    .argument('[paths...]');
  const state = program.command('state').description('state things\nand more');
  state.command('forget').argument('<identifier>');
  state.command('show');
  program.command('completion').addArgument(new Argument('<shell>').choices(['bash', 'zsh']));
  program.command('__complete');
  return program;
}

const answer = (...words: string[]) => buildCompletionAnswer(aProgram(), words);
const values = (...words: string[]) => answer(...words).candidates.map((c) => c.value);

describe('buildCompletionAnswer', () => {
  it('commands with their summaries (the first line of a description), not the hidden ones', () => {
    expect(answer('')).toEqual({
      candidates: [
        { value: 'plan', description: 'plan it' },
        { value: 'state', description: 'state things' },
        { value: 'completion', description: '' },
      ],
      files: false,
    });
    expect(values('state', '')).toEqual(['forget', 'show']);
  });

  it("options: the command's and its ancestors', hidden ones left out; none after --", () => {
    expect(answer('plan', '-').candidates).toContainEqual({
      value: '--format',
      description: 'output format',
    });
    expect(values('plan', '--')).toEqual([
      '-t',
      '--target',
      '-f',
      '--format',
      '--only',
      '--color',
      '-c',
      '--config',
      '--verbose',
    ]);
    expect(answer('plan', '--', '-')).toEqual({ candidates: [], files: true });
  });

  it("an option's value: its choices, the project's values, or a path", () => {
    expect(values('plan', '--format', '')).toEqual(['human', 'json']);
    expect(values('plan', '-f', 'j')).toEqual(['human', 'json']);
    expect(answer('plan', '--target', '')).toEqual({ candidates: [], project: 'targets', files: false });
    expect(answer('--config', '')).toEqual({ candidates: [], files: true });
  });

  it("the next argument: its choices, the project's identifiers, paths; words after the first operand are no command", () => {
    expect(values('completion', '')).toEqual(['bash', 'zsh']);
    expect(answer('state', 'forget', '').project).toBe('identifiers');
    expect(answer('plan', '')).toEqual({ candidates: [], files: true });
    expect(answer('plan', 'a', 'b', '')).toEqual({ candidates: [], files: true });
    expect(answer('state', 'forget', 'x', '')).toEqual({ candidates: [], files: false });
  });

  it('a variadic option takes words until the next option or --; --only=a takes one', () => {
    expect(answer('plan', '--only', 'a', 'b', '').project).toBe('identifiers');
    expect(values('plan', '--only', 'a', '--format', '')).toEqual(['human', 'json']);
    expect(answer('plan', '--only', 'a', '--format', 'json', '').files).toBe(true);
    expect(answer('plan', '--only', 'a', '--', '')).toEqual({ candidates: [], files: true });
    expect(answer('plan', '--only=a', '')).toEqual({ candidates: [], files: true });
  });

  it('a value as commander takes it: a required one whatever it looks like, an optional one unless it is an option', () => {
    // `--format` is the target's value here, so the word at the cursor is a path.
    expect(answer('plan', '--target', '--format', '')).toEqual({ candidates: [], files: true });
    expect(values('plan', '--color', '--format', '')).toEqual(['human', 'json']);
  });

  it('the config file the line names, in any of its spellings, for the project values', () => {
    expect(answer('-c', 'a.yaml', 'plan', '-t', '').config).toBe('a.yaml');
    expect(answer('plan', '--config=b.yaml', '-t', '').config).toBe('b.yaml');
    expect(answer('plan', '-cc.yaml', '--target', '').config).toBe('c.yaml');
    expect(answer('plan', '--verbose', '--config', 'd.yaml', '--only', '')).toMatchObject({
      config: 'd.yaml',
      project: 'identifiers',
    });
  });
});
