import { describe, expect, it } from 'vitest';
import { parseJsonOutput } from '../helpers/json-output.js';
import { makeProject, runCli } from './helpers.js';

/** `new --format json` and `init --format json` (the built CLI): one document of their schema, or the error one. */
describe('new --format json', () => {
  it('the file written, its identifier, steps and modeline; a second run is a usage error, as a document', async () => {
    const cwd = makeProject({ 'schemas/workflow.schema.json': '{}' });
    const args = ['new', 'weeklySummary', '--digest', '1w', '--channel', 'email', '--format', 'json'];
    const created = await runCli(args, { cwd });
    expect(created.status).toBe(0);
    const document = parseJsonOutput('new', created.stdout);
    expect(document).toEqual({
      schemaVersion: 4,
      action: 'created',
      file: 'workflows/weeklysummary.yaml',
      identifier: 'weeklysummary',
      name: 'weeklySummary',
      steps: ['digest', 'email'],
      modeline: { source: 'vendored', schema: '../schemas/workflow.schema.json' },
      warnings: [expect.stringContaining('`weeklysummary` (older servers) or `weekly-summary`')],
    });
    const again = await runCli(args, { cwd });
    expect(again.status).toBe(64);
    expect(parseJsonOutput('new', again.stdout).error).toMatchObject({ code: 'usage', exitCode: 64 });
    expect(again.stderr).toContain('already exists; use --force to overwrite it');
    const replaced = await runCli([...args, '--force'], { cwd });
    expect(parseJsonOutput('new', replaced.stdout).action).toBe('replaced');
  });

  it('no schema anywhere: modeline null', async () => {
    const cwd = makeProject({});
    const result = await runCli(['new', 'order shipped', '--format', 'json'], { cwd });
    expect(parseJsonOutput('new', result.stdout)).toMatchObject({
      modeline: null,
      steps: ['in_app'],
      warnings: [],
    });
  });
});

describe('init --format json', () => {
  it('every file with its status, the notes and the counts; a second run finds everything unchanged', async () => {
    const cwd = makeProject({});
    const first = await runCli(['init', '--ci', 'none', '--format', 'json'], { cwd });
    expect(first.status).toBe(0);
    expect(first.stderr).toBe('');
    const document = parseJsonOutput('init', first.stdout);
    expect(document.files).toEqual([
      { path: 'wfsync.config.yaml', status: 'created' },
      { path: 'workflows/welcome.yaml', status: 'created' },
      { path: '.vscode/settings.json', status: 'created' },
      { path: '.gitignore', status: 'created' },
    ]);
    expect(document.summary).toEqual({
      created: 4,
      updated: 0,
      replaced: 0,
      unchanged: 0,
      kept: 0,
      skipped: 0,
    });
    expect(document.notes).toEqual([expect.stringContaining('there is no package.json here')]);
    const second = parseJsonOutput(
      'init',
      (await runCli(['init', '--ci', 'none', '--format', 'json'], { cwd })).stdout,
    );
    expect(second.summary).toMatchObject({ created: 0, unchanged: 4 });
  });

  it('a settings file that cannot be merged: kept, with what to add by hand', async () => {
    const cwd = makeProject({ '.vscode/settings.json': '{ "yaml.schemas": 3 }\n' });
    const result = await runCli(['init', '--ci', 'none', '--format', 'json'], { cwd });
    const settings = parseJsonOutput('init', result.stdout).files.find(
      (f: { path: string }) => f.path === '.vscode/settings.json',
    );
    expect(settings).toMatchObject({ status: 'kept', manual: expect.stringContaining('"yaml.schemas"') });
  });

  it('a bad option: the error document, exit 64', async () => {
    const cwd = makeProject({});
    const result = await runCli(['init', '--format', 'json', '--dir', '..'], { cwd });
    expect(result.status).toBe(64);
    expect(parseJsonOutput('init', result.stdout).error.code).toBe('usage');
  });
});
