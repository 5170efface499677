import { spawn } from 'node:child_process';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git } from '../helpers/git.js';
import { useTempProjects } from '../helpers/temp-project.js';
import { BIN } from './helpers.js';
import { pullRequest } from './pull-request-scenario.js';

/**
 * `plan --base` reads the base from the repository found from the project folder, whatever GIT_DIR and its kin say:
 * a shell left pointing at another repository, and git's own hook environment (GIT_DIR of a linked worktree,
 * GIT_INDEX_FILE of the commit under way).
 */

const tempDir = useTempProjects('wfsync-git-env-');

function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }) {
  return new Promise<number | null>((resolve, reject) => {
    const child = spawn(command, args, { ...options, stdio: 'ignore' });
    child.on('error', reject);
    child.on('close', resolve);
  });
}

describe('plan --base addresses the project repository', () => {
  it("GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE and GIT_OBJECT_DIRECTORY of another repository: the project's base, the same plan", async () => {
    const { target, mergeBase } = await pullRequest();
    const decoy = tempDir({ README: 'another repository\n' });
    git(decoy, 'init', '-q', '-b', 'main');
    git(decoy, 'add', '-A');
    git(decoy, 'commit', '-q', '-m', 'another repository');
    expect(git(decoy, 'rev-parse', 'main').trim()).not.toBe(mergeBase);

    const plain = await target.run(['plan', '--base', 'main', '--format', 'json']);
    expect(plain.status, plain.stderr).toBe(6);
    const elsewhere = await target.run(['plan', '--base', 'main', '--format', 'json'], {
      GIT_DIR: join(decoy, '.git'),
      GIT_WORK_TREE: decoy,
      GIT_INDEX_FILE: join(decoy, '.git/index'),
      GIT_OBJECT_DIRECTORY: join(decoy, '.git/objects'),
    });
    expect(elsewhere.status, elsewhere.stderr).toBe(6);
    const plan = JSON.parse(elsewhere.stdout);
    expect(plan.base).toEqual({ ref: 'main', commit: mergeBase });
    expect(plan.items).toEqual(JSON.parse(plain.stdout).items);
  });

  it('from a pre-commit hook in a linked worktree (git sets GIT_DIR and GIT_INDEX_FILE): the base is read and the commit goes on', async () => {
    const { target, mergeBase } = await pullRequest();
    const expected = await target.run(['plan', '--base', 'main', '--format', 'json']);
    const worktree = join(tempDir(), 'review');
    git(target.cwd, 'worktree', 'add', '-q', '-b', 'review', worktree, 'change');
    const out = tempDir();
    const hook = join(target.cwd, '.git/hooks/pre-commit');
    writeFileSync(
      hook,
      [
        '#!/bin/sh',
        'env | grep -E "^GIT_(DIR|INDEX_FILE)=" | sort > "$OUT/env"',
        '"$NODE" "$BIN" plan --base main --format json --target dev > "$OUT/plan.json" 2> "$OUT/stderr"',
        'echo $? > "$OUT/status"',
        '',
      ].join('\n'),
    );
    chmodSync(hook, 0o755);
    writeFileSync(join(worktree, 'NOTES'), 'a staged file\n');
    git(worktree, 'add', 'NOTES');
    // Not execFileSync: the emulator the hook's wfsync asks lives in this process.
    const committed = await run('git', ['commit', '-q', '-a', '-m', 'notes'], {
      cwd: worktree,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        WFSYNC_COMPILE_CACHE: process.env.WFSYNC_COMPILE_CACHE,
        NO_COLOR: '1',
        TZ: 'UTC',
        DEV_KEY: target.emulator.apiKey,
        OUT: out,
        NODE: process.execPath,
        BIN,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@e',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@e',
      },
    });
    expect(committed).toBe(0);
    // What git gave the hook: the worktree's own git dir, and the index of the commit under way.
    const gitDir = join(target.cwd, '.git/worktrees/review');
    expect(readFileSync(join(out, 'env'), 'utf8')).toBe(
      `GIT_DIR=${gitDir}\nGIT_INDEX_FILE=${join(gitDir, 'index.lock')}\n`,
    );
    const stderr = readFileSync(join(out, 'stderr'), 'utf8');
    expect(readFileSync(join(out, 'status'), 'utf8'), stderr).toBe('6\n');
    const plan = JSON.parse(readFileSync(join(out, 'plan.json'), 'utf8'));
    expect(plan.base).toEqual({ ref: 'main', commit: mergeBase });
    expect(plan.items).toEqual(JSON.parse(expected.stdout).items);
    expect(git(worktree, 'log', '-1', '--format=%s').trim()).toBe('notes');
  });
});
