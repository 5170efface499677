import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BROKEN_DEFINITIONS, validNumbered } from '../fixtures/workflow-texts.js';
import { makeProject, runCli } from './helpers.js';

/** Preloaded into the CLI: prints, at exit, the packages it loaded through require (yaml and ajv are CommonJS). */
const HOOK = `process.on('exit', () => {
  const names = Object.keys(require('module')._cache).flatMap((f) => {
    const m = /node_modules[\\\\/]((?:@[^\\\\/]+[\\\\/])?[^\\\\/]+)/.exec(f);
    return m ? [m[1]] : [];
  });
  process.stderr.write('loaded: ' + [...new Set(names)].sort().join(' ') + '\\n');
});
`;

async function packagesLoaded(files: Record<string, string>): Promise<string[]> {
  const cwd = makeProject(files);
  writeFileSync(join(cwd, 'hook.cjs'), HOOK);
  const run = await runCli(['validate', 'workflows', '--format', 'json'], {
    cwd,
    env: { NODE_OPTIONS: `--require ${JSON.stringify(join(cwd, 'hook.cjs'))}` },
  });
  const line = /loaded: (.*)\n/.exec(run.stderr);
  expect(line, run.stderr).not.toBeNull();
  return line![1]!.split(' ');
}

describe('wfsync validate start-up (the built CLI)', () => {
  it('loads no yaml, Handlebars or slug library while every file is plain and valid', async () => {
    const loaded = await packagesLoaded({
      'workflows/a.yaml': validNumbered(1),
      'workflows/b.yaml': validNumbered(2),
    });
    // commander, js-yaml and ajv's runtime helpers are bundled into the CLI (scripts/build.mjs): nothing comes from
    // node_modules at all.
    expect(loaded.filter(Boolean)).toEqual([]);
    for (const lazy of ['yaml', 'handlebars', 'slugify', '@sindresorhus/slugify'])
      expect(loaded).not.toContain(lazy);
  });

  it('loads yaml once a file needs positions', async () => {
    const loaded = await packagesLoaded({
      'workflows/a.yaml': validNumbered(1),
      'workflows/syntax.yaml': BROKEN_DEFINITIONS['syntax.yaml'] as string,
    });
    expect(loaded).toContain('yaml');
  });
});
