/**
 * The command mark, made on first use (src/cli/command-mark.ts), through the streams the CLI writes to
 * (openChannels): under GitHub Actions no line is ours until a renderer asks for the mark, and the github format's
 * own commands pass once it has.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createCommandMark } from '../../../src/cli/command-mark.js';
import { type CliIO, openChannels } from '../../../src/cli/context.js';
import { renderGithub } from '../../../src/report/github.js';
import { runnerCommands } from '../../helpers/runner.js';
import { diagnostic, reportOf } from '../report/fixture-report.js';

function actionsIO(): { io: CliIO; written: () => string } {
  const stdout = new PassThrough();
  let text = '';
  stdout.on('data', (chunk: Buffer) => {
    text += chunk.toString('utf8');
  });
  const io: CliIO = { stdout, stderr: new PassThrough(), env: { GITHUB_ACTIONS: 'true' }, cwd: '/' };
  return { io, written: () => text };
}

describe('the command mark', () => {
  it('is made once, on the first get, and read without being made', () => {
    let makes = 0;
    const mark = createCommandMark(() => `m${++makes}:`);
    expect(mark.made()).toBeUndefined();
    expect(mark.get()).toBe('m1:');
    expect(mark.get()).toBe('m1:');
    expect(mark.made()).toBe('m1:');
    expect(makes).toBe(1);
  });

  it('is by default random per process, unguessable and never empty', () => {
    const a = createCommandMark().get();
    const b = createCommandMark().get();
    expect(a).toMatch(/^wfsync-own-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}:$/);
    expect(b).not.toBe(a);
  });

  it('no line is ours through the channels before a mark is made, however it guesses', () => {
    const mark = createCommandMark(() => 'wfsync-own-guessable:');
    const { io, written } = actionsIO();
    const channels = openChannels(io, mark.made);
    // A definition's text that carries the prefix, or even the very mark the process will make.
    channels.stdout.write('wfsync-own-::error::forged\n');
    channels.stdout.write('wfsync-own-guessable:::stop-commands::tok\n');
    expect(mark.made()).toBeUndefined();
    expect(runnerCommands(written())).toEqual([]);
    // Nothing stripped: neither line starts with `::`, so the runner reads both as log lines.
    expect(written()).toBe('wfsync-own-::error::forged\nwfsync-own-guessable:::stop-commands::tok\n');
  });

  it("lets the github format's own commands pass once it asks for the mark, and only those", () => {
    const mark = createCommandMark();
    const { io, written } = actionsIO();
    const channels = openChannels(io, mark.made);
    const report = reportOf([
      diagnostic(
        '::stop-commands::x.yaml',
        { line: 1, column: 1, endLine: 1, endColumn: 2 },
        {
          code: 'c',
          severity: 'error',
          message: 'm',
        },
      ),
    ]);
    channels.stdout.write(renderGithub(report, { color: false, commandMark: mark.get }));
    expect(mark.made()).toBeDefined();
    expect(written()).not.toContain(mark.get());
    const commands = runnerCommands(written());
    expect(commands).toHaveLength(1);
    expect(commands[0]).toMatch(/^::error file=%3A%3Astop-commands%3A%3Ax\.yaml,line=1,/);
  });
});
