import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
// @ts-expect-error: the action's scripts are plain ESM without declarations.
import { exitMeaning } from '../../../../action/verdict.mjs';
import { EXIT_MEANING } from '../../../../src/scaffold/ci/gitlab-scripts.js';

describe('what an exit code means, in the GitLab jobs and the GitHub Action', () => {
  it('is the same text for every code wfsync uses and for one it does not', () => {
    for (const code of [0, 1, 2, 3, 4, 5, 6, 7, 99]) {
      const shell = execFileSync('sh', ['-c', `${EXIT_MEANING}\nexit_meaning "$1"`, 'sh', String(code)], {
        encoding: 'utf8',
      }).trimEnd();
      expect(shell, `exit ${code}`).toBe(exitMeaning(code));
    }
  });

  it('differs only in naming the job or the step for a usage error', () => {
    const shell = execFileSync('sh', ['-c', `${EXIT_MEANING}\nexit_meaning 64`], {
      encoding: 'utf8',
    }).trimEnd();
    expect(shell).toBe("a usage error in this job's wfsync command");
    expect(exitMeaning(64)).toMatch(/^a usage error in this step's wfsync command/);
  });
});
