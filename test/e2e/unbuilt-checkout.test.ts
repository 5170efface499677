import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from './helpers.js';

/** A copy of the committed start-up files (bin/, package.json) with no dist/: a checkout nobody built, or an install that lost it. */
const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tree(options: { checkout: boolean; installed: boolean }): string {
  const dir = mkdtempSync(join(tmpdir(), 'wfsync-unbuilt-'));
  dirs.push(dir);
  const root = join(dir, 'wfsync');
  cpSync(join(ROOT, 'bin'), join(root, 'bin'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(root, 'package.json'));
  if (options.checkout) cpSync(join(ROOT, 'scripts'), join(root, 'scripts'), { recursive: true });
  if (options.installed) mkdirSync(join(root, 'node_modules'));
  writeFileSync(join(dir, 'wfsync.config.yaml'), 'workflowsDir: workflows\n');
  return dir;
}

function run(dir: string, cwd: string, args: string[]) {
  return spawnSync(process.execPath, [join(dir, 'wfsync/bin/wfsync.cjs'), ...args], {
    cwd,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, NO_COLOR: '1' },
  });
}

const FIRST = "wfsync: could not start: Cannot find module '../dist/boot.cjs'\n";

describe('bin/ without dist/', () => {
  it('a fresh checkout: says to install and build, and where', () => {
    const dir = tree({ checkout: true, installed: false });
    const result = run(dir, dir, ['validate']);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `${FIRST}This checkout of wfsync is not built (bin/ runs dist/, which the build makes from src/): ` +
        'run "npm ci && npm run build" in wfsync, then the command again; --verbose shows the stack.\n',
    );
  });

  it('a checkout with its dependencies, run from its own folder: says to build', () => {
    const dir = tree({ checkout: true, installed: true });
    const result = run(dir, join(dir, 'wfsync'), ['plan']);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(
      `${FIRST}This checkout of wfsync is not built (bin/ runs dist/, which the build makes from src/): ` +
        'run "npm run build", then the command again; --verbose shows the stack.\n',
    );
    // --version needs no build.
    expect(run(dir, dir, ['--version']).status).toBe(0);
  });

  it('an installed package that lost dist/: says to reinstall', () => {
    const dir = tree({ checkout: false, installed: false });
    const result = run(dir, dir, ['validate']);
    expect(result.status).toBe(1);
    expect(result.stderr).toBe(`${FIRST}Reinstall wfsync; --verbose shows the stack.\n`);
  });
});
