import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeProject, runCli } from './helpers.js';

const PACKAGE_JSON = JSON.stringify({ name: 'acme-app', devDependencies: { wfsync: '^0.1.0' } });
const OWNED = ['.gitlab/wfsync.gitlab-ci.yml'];

describe('wfsync init --ci gitlab (the built CLI)', () => {
  it('writes the jobs (no script of its own: the jobs call wfsync ci-relay) and a .gitlab-ci.yml including them; a second run has nothing to do', async () => {
    const cwd = makeProject({ 'package.json': PACKAGE_JSON });
    const first = await runCli(['init', '--ci', 'gitlab'], { cwd });
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(/^created +\.gitlab\/wfsync\.gitlab-ci\.yml$/m);
    expect(first.stdout).not.toContain('wfsync-mr-note');
    expect(existsSync(join(cwd, '.gitlab/wfsync-mr-note.mjs'))).toBe(false);
    expect(first.stdout).toMatch(/^created +\.gitlab-ci\.yml$/m);
    expect(first.stdout).not.toContain('.github');
    expect(first.stdout).toContain('the masked CI/CD variable WFSYNC_DEVELOPMENT_API_KEY');
    expect(readFileSync(join(cwd, '.gitlab-ci.yml'), 'utf8')).toContain(
      'include:\n  - local: .gitlab/wfsync.gitlab-ci.yml\n',
    );
    const second = await runCli(['init', '--ci', 'gitlab'], { cwd });
    expect(second.status).toBe(0);
    expect(second.stdout).toMatch(/^unchanged +\.gitlab-ci\.yml$/m);
    expect(second.stdout).toContain('nothing to do: everything is already set up');
  });

  it("never touches the user's .gitlab-ci.yml, not even with --force: it prints the include to add", async () => {
    const mine = 'stages: [build]\n\nbuild:\n  stage: build\n  script: make\n';
    const cwd = makeProject({ 'package.json': PACKAGE_JSON, '.gitlab-ci.yml': mine });
    for (const args of [
      ['init', '--ci', 'gitlab'],
      ['init', '--ci', 'gitlab', '--force'],
    ]) {
      const result = await runCli(args, { cwd });
      expect(result.status).toBe(0);
      expect(readFileSync(join(cwd, '.gitlab-ci.yml'), 'utf8')).toBe(mine);
      expect(result.stdout).toMatch(/^kept +\.gitlab-ci\.yml \(not changed: it is your pipeline/m);
      expect(result.stdout).toContain(
        '.gitlab-ci.yml was left as it is; add this to it by hand:\n' +
          '  include:\n    - local: .gitlab/wfsync.gitlab-ci.yml\n' +
          "  # and its stages lack test and deploy, which wfsync's jobs use: add them\n",
      );
    }
  });

  it('leaves a .gitlab-ci.yml that already includes the jobs alone, and keeps edited jobs unless --force', async () => {
    const mine =
      'include:\n  - local: /.gitlab/wfsync.gitlab-ci.yml\n  - template: Security/SAST.gitlab-ci.yml\n';
    const cwd = makeProject({ 'package.json': PACKAGE_JSON, '.gitlab-ci.yml': mine });
    expect((await runCli(['init', '--ci', 'gitlab'], { cwd })).stdout).toMatch(
      /^unchanged +\.gitlab-ci\.yml$/m,
    );
    const jobs = join(cwd, OWNED[0]!);
    const generated = readFileSync(jobs, 'utf8');
    writeFileSync(jobs, `${generated}# my edit\n`);
    const kept = await runCli(['init', '--ci', 'gitlab'], { cwd });
    expect(kept.stdout).toMatch(/^kept +\.gitlab\/wfsync\.gitlab-ci\.yml \(exists; --force to replace\)$/m);
    expect(readFileSync(jobs, 'utf8')).toBe(`${generated}# my edit\n`);
    const forced = await runCli(['init', '--ci', 'gitlab', '--force'], { cwd });
    expect(forced.stdout).toMatch(/^replaced +\.gitlab\/wfsync\.gitlab-ci\.yml$/m);
    expect(readFileSync(jobs, 'utf8')).toBe(generated);
    expect(readFileSync(join(cwd, '.gitlab-ci.yml'), 'utf8')).toBe(mine);
  });
});
