import { describe, expect, it } from 'vitest';
import {
  PR_COMMENT_MARKER,
  prCommentMarker,
  renderPlanMarkdown,
  renderSyncMarkdown,
} from '../../../../src/report/plan/markdown.js';
import { renderStampLine } from '../../../../src/report/plan/stamp.js';
import { buildFixturePlan, buildFixtureSync, item, planOf } from './fixture-plan.js';

/** The PR comment as a reviewer reads it: the stamp, what needs them first, the creates, the next steps. */

const STAMP = { time: '2026-11-26T02:30:34.120Z', commit: '1a2b3c4' };

/** The `<summary>` labels of the detail blocks, in order, with whether each is open. */
function blocks(markdown: string): string[] {
  return [...markdown.matchAll(/<details( open)?>\n<summary>([^<]*)/g)].map(
    (m) => `${m[1] ? 'open ' : ''}${m[2]!.trim()}`,
  );
}

const occurrences = (text: string, part: string) => text.split(part).length - 1;

describe('the plan comment', () => {
  it('puts the stamp (commit, time, target) under the title', () => {
    const out = renderPlanMarkdown(buildFixturePlan(), { command: 'plan', stamp: STAMP });
    expect(out.split('\n').slice(2, 5)).toEqual([
      '## wfsync plan · staging',
      '',
      '<sub>Commit `1a2b3c4` · 2026-11-26 02:30 UTC · target `staging`</sub>',
    ]);
  });

  it('has no stamp line when it is not given, and no commit when none is known', () => {
    expect(renderPlanMarkdown(buildFixturePlan(), { command: 'plan' })).not.toContain('<sub>');
    expect(renderStampLine({ time: STAMP.time }, 'prod')).toBe(
      '<sub>2026-11-26 02:30 UTC · target `prod`</sub>',
    );
  });

  it('lists what needs a person first and open, then the creates, then the in-sync list, collapsed', () => {
    const plan = planOf([
      item('a-new', 'create'),
      item('b-same', 'in-sync'),
      item('c-drift', 'drifted'),
      item('d-new', 'create'),
      item('e-conflict', 'conflict'),
      item('f-error', 'error', { error: 'boom' }),
    ]);
    expect(blocks(renderPlanMarkdown(plan, { command: 'plan' }))).toEqual([
      'open &#126; drifted ·',
      'open ✖ conflict ·',
      'open ✖ error ·',
      '+ create ·',
      '+ create ·',
      '✔ 1 in sync',
    ]);
  });

  it('ends with the reviewer’s next steps, repeating the --target given', () => {
    const plan = planOf([item('a-new', 'create'), item('c-drift', 'drifted'), item('f-error', 'error')]);
    const out = renderPlanMarkdown(plan, { command: 'plan', targetFlag: 'production' });
    expect(out.slice(out.indexOf('### Next steps'))).toBe(
      [
        '### Next steps',
        '',
        '- Before merging: 1 workflow needs a person (listed first, open): do what each one\'s "Next" says, then run the plan again. Sync will not change it, so after merging, main\'s sync will report it again until someone does.',
        '- Before merging: 1 workflow could not be checked on the service: run `wfsync plan --target production` again.',
        "- After merging, main's sync (`wfsync sync --target production`) will create 1 workflow: `a-new`.",
        '',
      ].join('\n'),
    );
  });

  it('says that merging changes nothing when everything is in sync, and names no --target when none was given', () => {
    const out = renderPlanMarkdown(planOf([item('b-same', 'in-sync')]), { command: 'plan' });
    expect(out).toContain(
      "\n- After merging, main's sync will have nothing to do: every workflow is in sync.\n",
    );
    const creates = renderPlanMarkdown(planOf([item('a', 'create')]), { command: 'plan' });
    expect(creates).toContain("main's sync (`wfsync sync`) will create 1 workflow: `a`.");
  });

  it("speaks of a sync with the plan's --allow, not of main's, when the plan was given --allow", () => {
    // Main's CI may allow less than the flag did: the comment must not promise that main's sync will delete.
    const plan = planOf([item('gone', 'delete'), item('c-drift', 'drifted')]);
    const run = { target: 'dev', targetIsDefault: false, allow: ['delete' as const] };
    const out = renderPlanMarkdown(plan, { command: 'plan', run });
    expect(out).toContain(
      "- After merging, a sync with this plan's `--allow` (`wfsync sync --target dev --allow delete`) will DELETE 1 workflow on the service: `gone`",
    );
    expect(out).toContain("so after merging, a sync with this plan's `--allow` will report it again");
    expect(out).not.toContain("main's sync");
    const configured = renderPlanMarkdown(plan, { command: 'plan', run: { ...run, allow: [] } });
    expect(configured).toContain(
      "- After merging, main's sync (`wfsync sync --target dev`) will DELETE 1 workflow",
    );
  });

  it('holds each marker exactly once, even when a workflow is named after it', () => {
    const plan = planOf([item(PR_COMMENT_MARKER, 'drifted', { name: prCommentMarker('staging') })]);
    const out = renderPlanMarkdown(plan, { command: 'plan', stamp: STAMP });
    expect(occurrences(out, PR_COMMENT_MARKER)).toBe(1);
    expect(occurrences(out, prCommentMarker('staging'))).toBe(1);
  });
});

describe('the sync comment', () => {
  it('lists what needs a person first and open, the created ones after, and says what is left', () => {
    const out = renderSyncMarkdown(buildFixtureSync(), { command: 'sync', targetFlag: 'prod' });
    const order = blocks(out);
    expect(order.at(-2)).toBe('+ created ·');
    expect(order.slice(0, -2).every((label) => label.startsWith('open '))).toBe(true);
    expect(out).toContain(
      'then run `wfsync sync --target prod` again (it creates only what is still missing).',
    );
  });
});
