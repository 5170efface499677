/**
 * The Node built-ins `wfsync validate` loads (the built CLI, spawned): a plain run, as a pre-commit hook starts it on
 * every commit, never loads node:crypto (milliseconds of every start-up); `--cache` (the key hashes) and the github
 * format (the command mark, src/cli/command-mark.ts) do. `process.moduleLoadList` names every built-in Node loaded,
 * whether the bundle is ES modules or CommonJS. Likewise ajv-formats (the generated validators' `uri` check, required
 * on first use: scripts/gen.mjs), in require's cache either way.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BROKEN_DEFINITIONS, validNumbered } from '../fixtures/workflow-texts.js';
import { makeProject, type RunResult, runCli } from './helpers.js';

/**
 * Preloaded into the CLI: writes, at exit, the built-ins Node loaded (`NativeModule <name>` lines) and the files
 * require() loaded (`file <path>` lines) to the file it is given.
 */
const PROBE = `const { writeFileSync } = require('node:fs');
const out = process.env.WFSYNC_TEST_MODULES;
process.on('exit', () => {
  const files = Object.keys(require('node:module')._cache).map((file) => 'file ' + file);
  writeFileSync(out, [...process.moduleLoadList, ...files].join('\\n') + '\\n');
});
`;

async function builtinsLoaded(
  args: string[],
  files: Record<string, string>,
  env: Record<string, string> = {},
): Promise<{ run: RunResult; builtins: string[]; packages: string[] }> {
  const cwd = makeProject(files);
  const probe = join(cwd, 'probe.cjs');
  const out = join(cwd, 'modules.txt');
  writeFileSync(probe, PROBE);
  const run = await runCli(args, {
    cwd,
    env: { ...env, NODE_OPTIONS: `--require ${JSON.stringify(probe)}`, WFSYNC_TEST_MODULES: out },
  });
  const lines = readFileSync(out, 'utf8').split('\n');
  const builtins = lines.flatMap((line) =>
    line.startsWith('NativeModule ') ? [line.slice('NativeModule '.length)] : [],
  );
  const packages = lines.flatMap((line) => {
    const name = /^file .*node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(line)?.[1];
    return name === undefined ? [] : [name];
  });
  return { run, builtins, packages };
}

const VALID = { 'workflows/a.yaml': validNumbered(1), 'workflows/b.yaml': validNumbered(2) };

describe('wfsync validate start-up: the Node built-ins it loads', () => {
  it('a plain validate loads no node:crypto, valid or not', async () => {
    for (const files of [
      VALID,
      { ...VALID, 'workflows/syntax.yaml': BROKEN_DEFINITIONS['syntax.yaml'] as string },
    ]) {
      const { run, builtins } = await builtinsLoaded(['validate'], files);
      expect(run.status, run.stderr).toBe(Object.keys(files).length === 2 ? 0 : 3);
      // The probe saw the run: built-ins every validate loads are there.
      expect(builtins).toContain('fs');
      expect(builtins).not.toContain('crypto');
    }
  });

  it('a plain validate loads neither node:fs/promises nor node:child_process (commander spawns only for executables)', async () => {
    const { run, builtins } = await builtinsLoaded(['validate'], VALID);
    expect(run.status, run.stderr).toBe(0);
    expect(builtins).toContain('fs');
    // On Node 24 each brings a dozen more modules (readline and the REPL history; net and dgram).
    for (const name of ['fs/promises', 'internal/fs/promises', 'child_process', 'dgram'])
      expect(builtins, name).not.toContain(name);
  });

  it('a plain validate into pipes writes its report without Node making a socket for stdout (src/cli/stdio.ts)', async () => {
    const { run, builtins } = await builtinsLoaded(['validate'], VALID);
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toBe('✔ 2 files valid\n');
    for (const name of ['net', 'tty']) expect(builtins, name).not.toContain(name);
  });

  it('validate --cache loads node:crypto for the key and the content hashes', async () => {
    const { run, builtins } = await builtinsLoaded(['validate', '--cache'], VALID);
    expect(run.status, run.stderr).toBe(0);
    expect(builtins).toContain('crypto');
  });

  it('validate --format github under Actions makes the command mark, and its annotations reach the runner', async () => {
    const { run, builtins } = await builtinsLoaded(
      ['validate', '--format', 'github'],
      { ...VALID, 'workflows/syntax.yaml': BROKEN_DEFINITIONS['syntax.yaml'] as string },
      { GITHUB_ACTIONS: 'true' },
    );
    expect(run.status, run.stderr).toBe(3);
    expect(builtins).toContain('crypto');
    expect(run.stdout).toMatch(/^::error file=workflows\/syntax\.yaml,line=\d+,/m);
    expect(run.stdout).not.toContain('wfsync-own-');
  });

  it('loads ajv-formats only when a value has a format to check (a target URL in the config)', async () => {
    const plain = await builtinsLoaded(['validate'], VALID);
    // Everything else a plain run needs is bundled into the CLI (scripts/build.mjs): nothing from node_modules.
    expect(plain.packages.filter(Boolean)).toEqual([]);
    const config = (url: string) =>
      `workflowsDir: workflows\ntargets:\n  prod:\n    baseUrl: "${url}"\n    apiKeyEnv: WFSYNC_KEY\n`;
    const good = await builtinsLoaded(['validate'], {
      ...VALID,
      'wfsync.config.yaml': config('https://api.example.com'),
    });
    expect(good.run.status, good.run.stderr).toBe(0);
    expect(good.packages).toContain('ajv-formats');
    // The check still runs: a URL with a space is refused.
    const bad = await builtinsLoaded(['validate'], {
      ...VALID,
      'wfsync.config.yaml': config('https://exa mple.com'),
    });
    expect(bad.run.status).toBe(3);
    expect(bad.run.stderr).toMatch(/baseUrl` must be a valid absolute URI .*\[schema-format\]/);
  });
});
