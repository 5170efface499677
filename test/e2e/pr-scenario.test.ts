import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTarget, type Target } from './plan-sync-target.js';

/**
 * The pull request a team adopting wfsync opens: 3 workflows committed on main and synced (state not committed), a
 * branch that edits one and adds one, while someone edits a third in the dashboard (the emulator's PUT). The plan
 * against the base tells each apart, in every format, and exits 6; without a base it says what it cannot know.
 */

const KEEP = ['order-shipped', 'password-reset', 'trial-ending'];
const EDITED = 'content: Order {{orderNumber}} is on its way with {{carrier}}.';

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@e',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@e',
    },
  });
}

async function pullRequest(): Promise<{ target: Target; mergeBase: string }> {
  const target = await startTarget();
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
  writeFileSync(
    join(cwd, 'workflows/password-changed.yaml'),
    readFileSync(join(cwd, 'workflows/password-reset.yaml'), 'utf8')
      .replace('name: password reset', 'name: password changed')
      .replace('identifier: password-reset', 'identifier: password-changed'),
  );
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

interface JsonItem {
  identifier: string;
  action: string;
  attribution?: string;
  next: string;
}

describe('a pull request planned against its base', () => {
  it('each workflow in its class, with advice that keeps the change, in every format; exit 6', async () => {
    const { target, mergeBase } = await pullRequest();

    const human = await target.run(['plan', '--base', 'main', '--verbose']);
    expect(human.status, human.stderr).toBe(6);
    expect(human.stderr).toContain(`wfsync: base: main, compared at the merge-base ${mergeBase}\n`);
    expect(human.stdout).toMatch(/^! changed locally +order-shipped {2}workflows\/order-shipped\.yaml:\d+$/m);
    expect(human.stdout).toMatch(/^~ drifted +trial-ending {2}workflows\/trial-ending\.yaml:\d+$/m);
    expect(human.stdout).toMatch(/^\+ create +password-changed {2}workflows\/password-changed\.yaml$/m);
    expect(human.stdout).toMatch(/^✔ in sync +password-reset /m);
    expect(human.stdout).toContain(
      "next: this change edits the file, and the service still holds the base's version, which sync cannot update",
    );
    expect(human.stdout).toContain(
      "next: this change does not touch the file, but the service's workflow differs (edited in the dashboard?): " +
        'accept it into the file with `wfsync pull trial-ending` in a change of its own',
    );
    expect(human.stdout).not.toContain('wfsync pull order-shipped');
    expect(human.stdout).toContain('Plan: 1 to create, 1 in sync, 1 drifted, 1 changed locally.');
    expect(human.stdout).toContain('2 workflows need a person (exit 6)');
    expect(human.posts).toBe(0);

    const json = await target.run(['plan', '--base', 'main', '--format', 'json']);
    expect(json.status).toBe(6);
    const plan = JSON.parse(json.stdout);
    expect(plan.base).toEqual({ ref: 'main', commit: mergeBase });
    const byId = Object.fromEntries((plan.items as JsonItem[]).map((i) => [i.identifier, i]));
    expect(byId['order-shipped']).toMatchObject({ action: 'changed-locally', attribution: 'base' });
    expect(byId['trial-ending']).toMatchObject({ action: 'drifted', attribution: 'base' });
    expect(byId['password-changed']!.action).toBe('create');
    expect(byId['password-changed']!.attribution).toBeUndefined();
    expect(byId['password-reset']!.action).toBe('in-sync');

    const markdown = await target.run(['plan', '--base', 'main', '--format', 'markdown']);
    expect(markdown.status).toBe(6);
    expect(markdown.stdout).toContain('<code>order-shipped</code>');
    expect(markdown.stdout).toContain('changed locally');
    expect(markdown.stdout).toContain('drifted');
    expect(markdown.stdout).toContain('2 workflows need a person (exit 6)');
    expect(markdown.stdout).not.toContain('wfsync pull order-shipped');

    const github = await target.run(['plan', '--base', 'main', '--format', 'github']);
    expect(github.status).toBe(6);
    expect(github.stdout).toMatch(/^::warning file=workflows\/order-shipped\.yaml[^\n]*changed locally/m);
    expect(github.stdout).toMatch(/^::warning file=workflows\/trial-ending\.yaml[^\n]*drifted/m);
    expect(github.stdout).not.toContain('wfsync pull order-shipped');

    // In CI the base comes from GITHUB_BASE_REF (no origin remote here, so the branch itself).
    const ci = await target.run(['plan', '--format', 'json'], { GITHUB_BASE_REF: 'main' });
    expect(ci.status).toBe(6);
    const fromEnv = JSON.parse(ci.stdout);
    expect(fromEnv.base).toEqual({ ref: 'main', commit: mergeBase });
    expect(fromEnv.items).toEqual(plan.items);
  });

  it('without a base or state: both differing workflows are conflicts that say what cannot be known; exit 6', async () => {
    const { target } = await pullRequest();
    const run = await target.run(['plan', '--format', 'json']);
    expect(run.status).toBe(6);
    const plan = JSON.parse(run.stdout);
    expect(plan.base).toBeUndefined();
    const differing = (plan.items as JsonItem[]).filter((i) => i.action === 'conflict');
    expect(differing.map((i) => [i.identifier, i.attribution])).toEqual([
      ['order-shipped', 'unknown'],
      ['trial-ending', 'unknown'],
    ]);
    for (const item of differing) {
      expect(item.next).toContain('wfsync cannot tell whether the file or the service changed');
      expect(item.next).toContain('`wfsync plan --base <branch>`');
      expect(item.next).not.toContain('wfsync pull');
    }
    const human = await target.run(['plan']);
    expect(human.status).toBe(6);
    expect(human.stdout).toContain('run `wfsync plan --base <branch>`');
  });

  it('a base git does not know: exit 64 with one line, nothing asked of the service', async () => {
    const { target } = await pullRequest();
    const run = await target.run(['plan', '--base', 'no-such-branch']);
    expect(run.status).toBe(64);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe('wfsync: --base no-such-branch: git knows no commit by that name.\n');
    expect(run.requests).toEqual([]);
  });
});
