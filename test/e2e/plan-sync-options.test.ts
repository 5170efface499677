import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseJsonOutput } from '../helpers/json-output.js';
import { EXAMPLE_IDENTIFIERS, startTarget } from './plan-sync-target.js';

/** sync --plan, --only, --dry-run and the output formats of plan and sync. */

describe('sync --plan (a reviewed plan)', () => {
  it('applies a fresh plan', async () => {
    const target = await startTarget();
    const plan = await target.run(['plan', '--out', 'plan.json', '--quiet']);
    expect(plan.status).toBe(2);
    const saved = parseJsonOutput('plan', readFileSync(join(target.cwd, 'plan.json'), 'utf8'));
    expect(saved.schemaVersion).toBe(4);
    expect(saved.summary.create).toBe(9);

    const sync = await target.run(['sync', '--plan', 'plan.json']);
    expect(sync.stdout).toContain('Sync: 9 created, 0 in sync, 0 drifted, 0 failed, 0 skipped.');
    expect(sync.status).toBe(0);
    expect(sync.posts).toBe(9);
    expect(target.stored()).toEqual(EXAMPLE_IDENTIFIERS);
  });

  it('refuses a plan made before a file was edited: exit 2 and nothing sent', async () => {
    const target = await startTarget();
    expect((await target.run(['plan', '--out', 'plan.json', '--quiet'])).status).toBe(2);
    const file = join(target.cwd, 'workflows/trial-ending.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('Upgrade to keep your data.', 'Upgrade now.'));

    const sync = await target.run(['sync', '--plan', 'plan.json']);
    expect(sync.status).toBe(2);
    expect(sync.stderr).toContain('wfsync: the reviewed plan plan.json is stale; nothing was sent.');
    expect(sync.stderr).toContain('trial-ending');
    expect(sync.stderr).not.toMatch(/\n\s+at /);
    expect(sync.posts).toBe(0);
    expect(target.stored()).toEqual([]);
    expect(target.state()?.workflows ?? {}).toEqual({});
  });
});

describe('selecting and previewing', () => {
  it('--only creates the matching workflows only; --dry-run sends no POST', async () => {
    const target = await startTarget();
    const dry = await target.run(['sync', '--dry-run']);
    expect(dry.status).toBe(2);
    expect(dry.stdout).toContain('Plan: 9 to create, 0 in sync.');
    expect(dry.posts).toBe(0);
    expect(target.state()).toBeUndefined();

    const only = await target.run(['sync', '--only', 'order-*', 'password-reset']);
    expect(only.status).toBe(0);
    expect(only.stdout).toContain('Sync: 2 created, 0 in sync, 0 drifted, 0 failed, 0 skipped.');
    expect(only.posts).toBe(2);
    expect(target.stored()).toEqual(['order-shipped', 'password-reset']);
    expect(Object.keys(target.state()!.workflows).sort()).toEqual(['order-shipped', 'password-reset']);

    const rest = await target.run(['plan', '--only', 'order-*']);
    expect(rest.status).toBe(0);
    expect(rest.stdout).toContain('No changes. 1 workflow');
    const all = await target.run(['plan']);
    expect(all.status).toBe(2);
    expect(all.stdout).toContain('Plan: 7 to create, 2 in sync.');
    expect(rest.posts + all.posts).toBe(0);
  });
});

describe('output formats', () => {
  it('--format json: plan and sync reports are versioned JSON', async () => {
    const target = await startTarget();
    const plan = await target.run(['plan', '--format', 'json']);
    expect(plan.status).toBe(2);
    const planned = parseJsonOutput('plan', plan.stdout);
    expect(planned.schemaVersion).toBe(4);
    expect(planned.target.name).toBe('dev');
    expect(planned.summary).toMatchObject({ create: 9, inSync: 0, error: 0 });
    expect(planned.items.map((i: { identifier: string }) => i.identifier).sort()).toEqual(
      EXAMPLE_IDENTIFIERS,
    );

    const sync = await target.run(['sync', '--format', 'json']);
    expect(sync.status).toBe(0);
    const synced = parseJsonOutput('sync', sync.stdout);
    expect(synced.schemaVersion).toBe(4);
    expect(synced.status).toBe('ok');
    expect(synced.summary).toMatchObject({ created: 9, failed: 0 });
    const ids = Object.fromEntries(
      target.emulator.workflows().map((w) => [w.triggers[0]!.identifier, w._id]),
    );
    for (const outcome of synced.outcomes) {
      expect(outcome.outcome).toBe('created');
      expect(outcome.remoteId).toBe(ids[outcome.identifier]);
    }
    expect(synced.outcomes).toHaveLength(9);
  });

  it('sync --out: the JSON document --format json prints, whatever the format; --dry-run --out, the plan', async () => {
    const target = await startTarget();
    const dry = await target.run(['sync', '--dry-run', '--out', 'dry.json', '--quiet']);
    expect(dry.status).toBe(2);
    const plan = parseJsonOutput('plan', readFileSync(join(target.cwd, 'dry.json'), 'utf8'));
    expect(plan.summary.create).toBe(9);
    expect(target.stored()).toEqual([]);

    const human = await target.run(['sync', '--out', 'sync.json']);
    expect(human.status).toBe(0);
    expect(human.stdout).toContain('Sync: 9 created, 0 in sync, 0 drifted, 0 failed, 0 skipped.');
    const written = readFileSync(join(target.cwd, 'sync.json'), 'utf8');
    const result = parseJsonOutput('sync', written);
    expect(result.summary).toMatchObject({ created: 9, inSync: 0, failed: 0, skipped: 0 });
    expect(result.plan.summary.create).toBe(9);
    expect(result.status).toBe('ok');

    const json = await target.run(['sync', '--format', 'json', '--out', 'again.json', '--quiet']);
    expect(json.status).toBe(0);
    expect(readFileSync(join(target.cwd, 'again.json'), 'utf8')).toBe(json.stdout);
    expect(parseJsonOutput('sync', json.stdout).summary.inSync).toBe(9);
  });

  it('--format markdown: the sticky-comment marker and a <details> per workflow', async () => {
    const target = await startTarget();
    const plan = await target.run(['plan', '--format', 'markdown']);
    expect(plan.status).toBe(2);
    expect(plan.stdout).toMatch(/^<!-- wfsync-plan[^\n]*-->\n/);
    expect(plan.stdout).toContain('<details>');
    expect(plan.stdout).toContain('<code>weekly-activity-digest</code>');
    // One block per workflow, each holding its collapsed flowchart.
    expect(plan.stdout.match(/^<details>\n<summary>[^\n]*<code>/gm)).toHaveLength(9);
    expect(plan.stdout.match(/^<summary>Flowchart \(\d+ steps?\)<\/summary>$/gm)).toHaveLength(9);
    expect(plan.posts).toBe(0);
  });

  it("a create carries its definition's lines: from its first key to its last line", async () => {
    const target = await startTarget();
    const plan = await target.run(['plan', '--format', 'json', '--quiet']);
    expect(plan.status).toBe(2);
    const { items } = parseJsonOutput('plan', plan.stdout) as { items: Array<Record<string, unknown>> };
    for (const item of items) {
      const lines = readFileSync(join(target.cwd, String(item.file)), 'utf8')
        .trimEnd()
        .split('\n');
      const first = lines.findIndex((line) => line !== '' && !line.startsWith('#')) + 1;
      expect([item.action, item.line, item.endLine], String(item.identifier)).toEqual([
        'create',
        first,
        lines.length,
      ]);
    }
  });

  it('--format github: annotations on stdout and the report in $GITHUB_STEP_SUMMARY', async () => {
    const target = await startTarget();
    const summary = join(target.cwd, 'step-summary.md');
    const plan = await target.run(['plan', '--format', 'github'], { GITHUB_STEP_SUMMARY: summary });
    expect(plan.status).toBe(2);
    expect(plan.stdout).toMatch(
      /^::notice file=workflows\/order-shipped\.yaml,line=\d+,endLine=\d+,title=wfsync plan \(create\)::/m,
    );
    const planSummary = readFileSync(summary, 'utf8');
    expect(planSummary).toContain('order-shipped');

    const sync = await target.run(['sync', '--format', 'github'], { GITHUB_STEP_SUMMARY: summary });
    expect(sync.status).toBe(0);
    expect(sync.stdout).toMatch(
      /^::notice file=workflows\/order-shipped\.yaml,line=\d+,endLine=\d+,title=wfsync sync \(created\)::/m,
    );
    const both = readFileSync(summary, 'utf8');
    // Appended, as GitHub expects from every step writing the summary.
    expect(both.startsWith(planSummary)).toBe(true);
    expect(both.length).toBeGreaterThan(planSummary.length);
    expect(target.stored()).toEqual(EXAMPLE_IDENTIFIERS);
  });
});
