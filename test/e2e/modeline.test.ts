import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProject, ROOT, runCli } from './helpers.js';

/**
 * The modeline of the files wfsync writes resolves where they land (the built CLI): the installed package's schema,
 * none when nothing is there (a hint with --verbose), none when the editor settings map the file.
 */
const SCHEMA = readFileSync(join(ROOT, 'schemas/workflow.schema.json'), 'utf8');
const firstLine = (cwd: string, file: string) => readFileSync(join(cwd, file), 'utf8').split('\n')[0];

describe('modelines that resolve', () => {
  it('new and pull in a project with wfsync installed: the modeline names node_modules from the file’s folder', async () => {
    const cwd = makeProject({ 'node_modules/wfsync/schemas/workflow.schema.json': SCHEMA });
    await runCli(['new', 'order shipped'], { cwd });
    const ref = '../node_modules/wfsync/schemas/workflow.schema.json';
    expect(firstLine(cwd, 'workflows/order-shipped.yaml')).toBe(`# yaml-language-server: $schema=${ref}`);
    expect(readFileSync(join(cwd, 'workflows', ref), 'utf8')).toBe(SCHEMA);
    // pull writes a file where none is: the same rule, from its own folder.
    expect((await runCli(['sync', '--quiet'], { cwd })).status).toBe(0);
    rmSync(join(cwd, 'workflows/order-shipped.yaml'));
    const pulled = await runCli(['pull', 'order-shipped', '--dir', 'imported/deep', '--format', 'json'], {
      cwd,
    });
    expect(pulled.status, pulled.stderr).toBe(0);
    expect(firstLine(cwd, 'imported/deep/order-shipped.yaml')).toBe(
      '# yaml-language-server: $schema=../../node_modules/wfsync/schemas/workflow.schema.json',
    );
    // The JSON says which, as new's does.
    expect(JSON.parse(pulled.stdout).workflows[0].modeline).toEqual({
      source: 'installed',
      schema: '../../node_modules/wfsync/schemas/workflow.schema.json',
    });
  });

  it('nothing to point at: no modeline, and --verbose says why', async () => {
    const cwd = makeProject({});
    const quiet = await runCli(['new', 'order shipped'], { cwd });
    expect(quiet.stderr).toBe('');
    expect(firstLine(cwd, 'workflows/order-shipped.yaml')).toBe(
      '# Written by `wfsync new`. Edit the content; when the templates use other {{variables}}, list them in',
    );
    const verbose = await runCli(['new', 'invoice paid', '--verbose'], { cwd });
    expect(verbose.stderr).toBe(
      'wfsync: no schema modeline in workflows/invoice-paid.yaml: wfsync is not installed here (npm install ' +
        '--save-dev wfsync), the repository has no schemas/workflow.schema.json, and .vscode/settings.json does ' +
        'not map the file (wfsync init adds the mapping)\n',
    );
  });

  it('init, then new: the settings init wrote map the files, so neither gets a modeline; validate passes', async () => {
    const cwd = makeProject({});
    await runCli(['init', '--ci', 'none'], { cwd });
    mkdirSync(join(cwd, 'workflows/billing'), { recursive: true });
    const created = await runCli(['new', 'invoice paid', '--dir', 'workflows/billing', '--verbose'], { cwd });
    expect(created.stderr).toBe('');
    expect(firstLine(cwd, 'workflows/welcome.yaml')).toMatch(/^# An example written by `wfsync init`/);
    expect(firstLine(cwd, 'workflows/billing/invoice-paid.yaml')).toMatch(/^# Written by `wfsync new`/);
    expect((await runCli(['validate', '--max-warnings', '0'], { cwd })).status).toBe(0);
  });
});
