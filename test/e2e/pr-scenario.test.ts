import { describe, expect, it } from 'vitest';
import { pullRequest } from './pull-request-scenario.js';

/**
 * The pull request a team adopting wfsync opens: 3 workflows committed on main and synced (state not committed), a
 * branch that edits one and adds one, while someone edits a third in the dashboard (the emulator's PUT). The plan
 * against the base tells each apart, in every format, and exits 6; without a base it says what it cannot know.
 */

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
    expect(human.stdout).toMatch(/^! changed locally +order-shipped {2}workflows\/order-shipped\.yaml:27$/m);
    expect(human.stdout).toMatch(/^~ drifted +trial-ending {2}workflows\/trial-ending\.yaml:3$/m);
    expect(human.stdout).toMatch(/^\+ create +password-changed {2}workflows\/password-changed\.yaml:\d+$/m);
    expect(human.stdout).toMatch(/^✔ in sync +password-reset /m);
    expect(human.stdout).toContain(
      "next: this change edits the file, and the service still holds the base's version, but this target does not allow updates",
    );
    expect(human.stdout).toContain(
      "next: this change does not touch the file, but the service's workflow differs (edited in the dashboard?): " +
        'accept it into the file with `wfsync pull trial-ending --target dev` in a change of its own',
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
    expect(github.stdout).toMatch(
      /^::warning file=workflows\/order-shipped\.yaml,line=27,[^\n]*changed locally/m,
    );
    expect(github.stdout).toMatch(/^::warning file=workflows\/trial-ending\.yaml,line=3,[^\n]*drifted/m);
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
      expect(item.next).toContain('`wfsync plan --base <branch> --target dev`');
      expect(item.next).not.toContain('wfsync pull');
    }
    const human = await target.run(['plan']);
    expect(human.status).toBe(6);
    expect(human.stdout).toContain('run `wfsync plan --base <branch> --target dev`');
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
