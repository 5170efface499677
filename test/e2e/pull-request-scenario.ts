import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { git } from '../helpers/git.js';
import { startTarget, type Target, type TargetOptions } from './plan-sync-target.js';

/**
 * The pull request of issue 13's scenario, for test/e2e/pr-scenario*.test.ts: 3 workflows committed on main and
 * synced (state not committed), a branch `change` that edits order-shipped and adds password-changed (which names
 * `group:transactional`), while someone edits trial-ending in the dashboard (the emulator's PUT).
 */

const KEEP = ['order-shipped', 'password-reset', 'trial-ending'];
const EDITED = 'content: Order {{orderNumber}} is on its way with {{carrier}}.';
/** The line of password-changed.yaml that names the group, and the column where the name starts. */
export const ADDED_GROUP_POSITION = { file: 'workflows/password-changed.yaml', line: 6, column: 22 };

export async function pullRequest(
  options: TargetOptions = {},
): Promise<{ target: Target; mergeBase: string }> {
  const target = await startTarget(options);
  const { cwd } = target;
  for (const name of execFileSync('ls', [join(cwd, 'workflows')], { encoding: 'utf8' }).split('\n')) {
    if (name !== '' && !KEEP.some((k) => name.startsWith(k)))
      rmSync(join(cwd, 'workflows', name), { recursive: true });
  }
  writeFileSync(join(cwd, '.gitignore'), '.wfsync/\n');
  git(cwd, 'init', '-q', '-b', 'main');
  git(cwd, 'add', '-A');
  git(cwd, 'commit', '-q', '-m', 'three workflows');
  const synced = await target.run(['sync', '--quiet']);
  expect(synced.status, synced.stderr).toBe(0);
  expect(target.stored()).toEqual(KEEP);
  // The state stays on the machine that synced: the pull request's checkout has none.
  rmSync(join(cwd, '.wfsync/state'), { recursive: true, force: true });

  git(cwd, 'checkout', '-q', '-b', 'change');
  const shipped = join(cwd, 'workflows/order-shipped.yaml');
  const text = readFileSync(shipped, 'utf8');
  expect(text).toContain('content: Order {{orderNumber}} has shipped with {{carrier}}.');
  writeFileSync(
    shipped,
    text.replace('content: Order {{orderNumber}} has shipped with {{carrier}}.', EDITED),
  );
  const added = readFileSync(join(cwd, 'workflows/password-reset.yaml'), 'utf8')
    .replace('name: password reset', 'name: password changed')
    .replace('identifier: password-reset', 'identifier: password-changed')
    .replace('active: true\n', 'active: true\nnotificationGroupId: group:transactional\n');
  expect(added.split('\n')[ADDED_GROUP_POSITION.line - 1]).toBe('notificationGroupId: group:transactional');
  writeFileSync(join(cwd, ADDED_GROUP_POSITION.file), added);
  git(cwd, 'add', '-A');
  git(cwd, 'commit', '-q', '-m', 'edit one, add one');

  // Meanwhile someone edits trial-ending in the dashboard.
  const { _id } = target.emulator.workflows().find((w) => w.triggers[0]!.identifier === 'trial-ending')!;
  const edit = await fetch(`${target.emulator.url}/v1/workflows/${_id}`, {
    method: 'PUT',
    headers: { authorization: `ApiKey ${target.emulator.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ description: 'Edited in the dashboard.' }),
  });
  expect(edit.status).toBe(200);
  return { target, mergeBase: git(cwd, 'rev-parse', 'main').trim() };
}
