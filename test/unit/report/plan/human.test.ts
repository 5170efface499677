import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PlanAction } from '../../../../src/plan/types.js';
import { sanitizeOutput } from '../../../../src/report/channel.js';
import { MAX_IN_SYNC_LINES, renderPlanHuman, renderSyncHuman } from '../../../../src/report/plan/human.js';
import { MAX_CHANGES_LISTED } from '../../../../src/report/plan/text.js';
import { runs } from '../../../helpers/fc-runs.js';
import { buildFixturePlan, change, diagnostic, item, planOf, syncOf, yamlDiff } from './fixture-plan.js';

const plain = { color: false, command: 'plan' } as const;
const lastLines = (text: string, n: number) => text.trimEnd().split('\n').slice(-n);

describe('renderPlanHuman', () => {
  it('starts with the command and the target', () => {
    const out = renderPlanHuman(buildFixturePlan(), plain);
    expect(out.split('\n')[0]).toBe('wfsync plan · target staging (https://api.staging.example.com)');
    expect(renderPlanHuman(buildFixturePlan(), { ...plain, command: 'sync' }).split('\n')[0]).toBe(
      'wfsync sync · target staging (https://api.staging.example.com)',
    );
  });

  it('says "No changes" when everything is in sync', () => {
    const plan = planOf([item('a', 'in-sync'), item('b', 'in-sync')]);
    const out = renderPlanHuman(plan, plain);
    expect(lastLines(out, 1)).toEqual(['No changes. 2 workflows in sync.']);
    expect(out).toContain('✔ in sync  a  workflows/a.yaml\n✔ in sync  b  workflows/b.yaml\n');
    expect(renderPlanHuman(planOf([item('a', 'in-sync')]), plain)).toContain(
      'No changes. 1 workflow in sync.\n',
    );
    expect(lastLines(renderPlanHuman(planOf([]), plain), 1)).toEqual([
      'No changes. No workflow definitions and nothing in state.',
    ]);
  });

  it('tells to run sync only when there is something to create and the command is plan', () => {
    const plan = planOf([item('a', 'create'), item('b', 'create'), item('c', 'in-sync')]);
    expect(lastLines(renderPlanHuman(plan, plain), 1)).toEqual([
      'Plan: 2 to create, 1 in sync. Run "wfsync sync" to create.',
    ]);
    expect(lastLines(renderPlanHuman(plan, { ...plain, command: 'sync' }), 1)).toEqual([
      'Plan: 2 to create, 1 in sync.',
    ]);
    const drifted = planOf([item('a', 'drifted'), item('c', 'in-sync')]);
    expect(lastLines(renderPlanHuman(drifted, plain), 2)).toEqual([
      'Plan: 0 to create, 1 in sync, 1 drifted.',
      '1 workflow needs a person (exit 6): sync will not change it, so a person must act (see each "next").',
    ]);
  });

  it('prints a count table with exact counts and the total', () => {
    const plan = planOf([item('a', 'create'), item('b', 'error', { error: 'boom' }), item('c', 'error')]);
    const out = renderPlanHuman(plan, plain);
    expect(out).toContain('Action    Count\n+ create      1\n✖ error       2\nTotal         3\n');
    // A failed lookup is not something a person must fix in the dashboard: it gets its own note.
    expect(lastLines(out, 2)).toEqual([
      'Plan: 1 to create, 0 in sync, 2 errors. Run "wfsync sync" to create.',
      '2 workflows could not be checked on the service (see each error).',
    ]);
  });

  it('labels every action with its symbol', () => {
    const labels: Record<PlanAction, string> = {
      create: '+ create',
      update: '↑ update',
      delete: '- delete',
      promote: '↑ promote',
      'in-sync': '✔ in sync',
      drifted: '~ drifted',
      'changed-locally': '! changed locally',
      'missing-remotely': '? missing remotely',
      conflict: '✖ conflict',
      orphaned: '- orphaned',
      error: '✖ error',
    };
    for (const [action, label] of Object.entries(labels)) {
      const out = renderPlanHuman(planOf([item('wf', action as PlanAction)]), plain);
      expect(out.split('\n')[2], action).toBe(`${label}  wf  workflows/wf.yaml`);
    }
  });

  it('lists field changes service → file and the next step under the item', () => {
    const plan = planOf([
      item('welcome', 'drifted', {
        changes: [change('critical', '/critical', true, false)],
        next: 'Change it back in the dashboard.',
      }),
    ]);
    expect(renderPlanHuman(plan, plain)).toContain(
      '~ drifted  welcome  workflows/welcome.yaml\n' +
        '    fields (service → file):\n' +
        '      critical: true → false\n' +
        '    next: Change it back in the dashboard.\n',
    );
  });

  it('counts the field changes past the listing limit', () => {
    const changes = Array.from({ length: MAX_CHANGES_LISTED + 7 }, (_, i) =>
      change(`tags[${i}]`, `/tags/${i}`, undefined, `t${i}`),
    );
    const out = renderPlanHuman(planOf([item('a', 'changed-locally', { changes })]), plain);
    expect(out).toContain(
      `      tags[${MAX_CHANGES_LISTED - 1}]: (not set) → "t${MAX_CHANGES_LISTED - 1}"\n`,
    );
    expect(out).not.toContain(`tags[${MAX_CHANGES_LISTED}]:`);
    expect(out).toContain('      … and 7 more (see the diff)\n');
  });

  it('lists in-sync workflows one line each up to the limit, then only counts them', () => {
    const many = (n: number) => planOf(Array.from({ length: n }, (_, i) => item(`wf-${i}`, 'in-sync')));
    const some = renderPlanHuman(many(MAX_IN_SYNC_LINES), plain);
    expect(some.match(/^✔ in sync {2}wf-/gm)).toHaveLength(MAX_IN_SYNC_LINES);
    const lots = renderPlanHuman(many(MAX_IN_SYNC_LINES + 1), plain);
    expect(lots).not.toMatch(/^✔ in sync {2}wf-/m);
    expect(lots).toContain(`\n✔ ${MAX_IN_SYNC_LINES + 1} workflows in sync\n`);
  });

  it('lists the ignored fields only when asked', () => {
    const plan = buildFixturePlan();
    expect(renderPlanHuman(plan, plain)).not.toContain('Ignored');
    expect(renderPlanHuman(plan, { ...plain, showIgnored: true })).toContain(
      '\nIgnored (server-managed, never compared): _id, _environmentId, _organizationId, createdAt, updatedAt, __v\n',
    );
  });

  it('colors the diff only with color: red -, green +, cyan @@', () => {
    const diff = yamlDiff('W', 'w.yaml', { a: 1 }, { a: 2 });
    const plan = planOf([item('w', 'drifted', { diff })]);
    const colored = renderPlanHuman(plan, { ...plain, color: true });
    expect(colored).toContain('    \x1b[31m-a: 1\x1b[39m\n    \x1b[32m+a: 2\x1b[39m\n');
    expect(colored).toContain('    \x1b[36m@@ -1,1 +1,1 @@\x1b[39m\n');
    expect(renderPlanHuman(plan, plain)).toContain('    @@ -1,1 +1,1 @@\n    -a: 1\n    +a: 2\n');
  });

  it('writes no escape code without color, whatever the plan holds (property)', () => {
    const nasty = fc.string({ unit: 'binary' }).map((s) => `${s}\x1b[31m\u009b2J\u202e`);
    fc.assert(
      fc.property(nasty, nasty, nasty, nasty, (identifier, message, diff, value) => {
        const plan = planOf(
          [
            item(identifier, 'error', { error: message, next: message, file: message }),
            item(identifier, 'drifted', { diff, changes: [change(value, '/x', value, message)] }),
            item(identifier, 'in-sync'),
          ],
          { name: value, baseUrl: message },
        );
        // As the CLI writes it: through the output channel (the renderer quotes text from outside as it is).
        for (const out of [
          renderPlanHuman(plan, plain),
          renderPlanHuman(plan, { ...plain, showIgnored: true }),
        ].map((text) => sanitizeOutput(text, { color: false, actions: false }))) {
          // biome-ignore lint/suspicious/noControlCharactersInRegex: the point of the test
          expect(out).not.toMatch(/[\x1b\u009b\u202e]/);
        }
      }),
      { numRuns: runs(200) },
    );
  });

  it('keeps multi-line messages indented under their item', () => {
    const plan = planOf([item('a', 'error', { error: 'first\nsecond', next: 'Retry.' })]);
    expect(renderPlanHuman(plan, plain)).toContain('    error: first\n      second\n    next: Retry.\n');
  });
});

describe('renderSyncHuman', () => {
  it('ends with exact counts: created, in sync, drifted, failed and skipped always, others when non-zero', () => {
    const result = syncOf([
      { identifier: 'a', outcome: 'created', remoteId: '65f1c0ffee00000000000001' },
      { identifier: 'b', outcome: 'created' },
      { identifier: 'c', outcome: 'in-sync' },
      { identifier: 'd', outcome: 'failed', message: 'The service answered 500.' },
    ]);
    const out = renderSyncHuman(result, { color: false, command: 'sync' });
    expect(lastLines(out, 1)).toEqual(['Sync: 2 created, 1 in sync, 0 drifted, 1 failed, 0 skipped.']);
    expect(out).toContain('+ created  a\n    id: 65f1c0ffee00000000000001\n');
    expect(out).toContain('✖ failed   d\n    failed: The service answered 500.\n');

    const conflict = syncOf([{ identifier: 'a', outcome: 'conflict' }], { status: 'action-needed' });
    expect(renderSyncHuman(conflict, { color: false, command: 'sync' })).toContain(
      'Sync: 0 created, 0 in sync, 0 drifted, 1 conflict, 0 failed, 0 skipped.\n',
    );
    const two = syncOf([
      { identifier: 'a', outcome: 'conflict' },
      { identifier: 'b', outcome: 'conflict' },
      { identifier: 'c', outcome: 'orphaned' },
    ]);
    expect(renderSyncHuman(two, { color: false, command: 'sync' })).toContain(
      'Sync: 0 created, 0 in sync, 0 drifted, 2 conflicts, 1 orphaned, 0 failed, 0 skipped.\n',
    );
  });

  it('shows the diagnostics a failure was mapped to', () => {
    const result = syncOf([
      { identifier: 'p', outcome: 'failed', message: 'Rejected.', diagnostics: [diagnostic()] },
    ]);
    expect(renderSyncHuman(result, { color: false, command: 'sync' })).toContain(
      '    workflows/payment-failed.yaml:14:18 error Failed to extract variables: Parse error on line 1: expecting ID, got INVALID [service-rejected]\n',
    );
  });

  it('says when the run was interrupted or stopped by the service', () => {
    const interrupted = syncOf([{ identifier: 'a', outcome: 'skipped' }], { interrupted: true });
    expect(renderSyncHuman(interrupted, { color: false, command: 'sync' })).toContain(
      '\nInterrupted: no create was started after the signal. Run "wfsync sync" again to finish.\n',
    );
    const auth = syncOf([{ identifier: 'a', outcome: 'failed', message: '401 API Key not found' }], {
      status: 'auth',
    });
    expect(renderSyncHuman(auth, { color: false, command: 'sync' })).toContain(
      'Stopped: the service refused the API key',
    );
    const limited = syncOf([{ identifier: 'a', outcome: 'failed' }], { status: 'rate-limited' });
    expect(renderSyncHuman(limited, { color: false, command: 'sync' })).toContain('kept rate-limiting');
  });
});
