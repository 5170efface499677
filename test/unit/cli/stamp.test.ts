import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readStamp } from '../../../src/cli/stamp.js';
import { git } from '../../helpers/git.js';
import { useTempProjects } from '../../helpers/temp-project.js';

const HEAD = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
const MERGE = 'ffffeeee00001111222233334444555566667777';
const EPOCH = { SOURCE_DATE_EPOCH: '1700000000' };

const tempProject = useTempProjects('wfsync-stamp-');

/** A folder that is no git repository (so the git fallback finds nothing) holding an event file. */
function eventFile(content: string): { cwd: string; path: string } {
  const cwd = tempProject({ 'event.json': content });
  return { cwd, path: join(cwd, 'event.json') };
}

describe('readStamp', () => {
  it('on a pull request, the head of its branch, not the temporary merge commit GITHUB_SHA names', async () => {
    const { cwd, path } = eventFile(JSON.stringify({ pull_request: { head: { sha: HEAD }, title: 'x' } }));
    const env = { ...EPOCH, GITHUB_SHA: MERGE, GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: path };
    expect(await readStamp(env, cwd)).toEqual({ time: '2023-11-14T22:13:20.000Z', commit: 'a1b2c3d' });
  });

  it('GITHUB_SHA on other events, and when the event file is missing, damaged or holds no commit', async () => {
    const { cwd, path } = eventFile(JSON.stringify({ pull_request: { head: { sha: HEAD } } }));
    const push = { ...EPOCH, GITHUB_SHA: MERGE, GITHUB_EVENT_NAME: 'push', GITHUB_EVENT_PATH: path };
    expect((await readStamp(push, cwd)).commit).toBe('ffffeee');
    for (const content of [
      '{',
      JSON.stringify({ pull_request: { head: { sha: 'not a sha; rm -rf' } } }),
      '[]',
    ]) {
      writeFileSync(path, content);
      const env = { ...EPOCH, GITHUB_SHA: MERGE, GITHUB_EVENT_NAME: 'pull_request', GITHUB_EVENT_PATH: path };
      expect((await readStamp(env, cwd)).commit).toBe('ffffeee');
    }
    const gone = {
      ...EPOCH,
      GITHUB_SHA: MERGE,
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: `${path}.x`,
    };
    expect((await readStamp(gone, cwd)).commit).toBe('ffffeee');
  });

  it('no commit at all outside a repository without GITHUB_SHA', async () => {
    const { cwd } = eventFile('{}');
    expect(await readStamp({ ...EPOCH }, cwd)).toEqual({ time: '2023-11-14T22:13:20.000Z' });
  });

  it("else HEAD of the folder's repository, git run with the run's environment (a GIT_DIR elsewhere ignored)", async () => {
    const repo = (dir: string) => {
      git(dir, 'init', '-q');
      git(dir, 'commit', '-q', '--allow-empty', '-m', dir);
      return git(dir, 'rev-parse', '--short=7', 'HEAD').trim();
    };
    const { cwd } = eventFile('{}');
    const project = repo(cwd);
    const decoy = tempProject();
    repo(decoy);
    const env = { ...EPOCH, PATH: process.env.PATH, GIT_DIR: join(decoy, '.git'), GIT_WORK_TREE: decoy };
    expect((await readStamp(env, cwd)).commit).toBe(project);
    // No git on the run's PATH: no commit (the process's PATH is not used).
    expect((await readStamp({ ...EPOCH, PATH: '/nonexistent' }, cwd)).commit).toBeUndefined();
  });
});
