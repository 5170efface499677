import { describe, expect, it } from 'vitest';
import { renderPlanCodeClimate } from '../../../../src/report/plan/codeclimate.js';
import { renderPlanGithub } from '../../../../src/report/plan/github.js';
import { renderPlanHuman } from '../../../../src/report/plan/human.js';
import { renderPlanJson } from '../../../../src/report/plan/json.js';
import { renderPlanMarkdown, renderSyncMarkdown } from '../../../../src/report/plan/markdown.js';
import { item, planOf, syncOf } from './fixture-plan.js';

/** A plan that deletes: every format says so, and the PR comment says it first. */

const plan = planOf([
  item('alpha', 'drifted', { next: 'Change it back.' }),
  item('beta', 'create', { next: 'sync will create it.' }),
  item('gone', 'delete', {
    file: undefined,
    remoteId: '6650f0c0ffee00000000b001',
    next: 'sync will delete it on the service and drop it from state.',
  }),
]);

const blocks = (markdown: string) =>
  [...markdown.matchAll(/<details( open)?>\n<summary>([^<]*)/g)].map(
    (m) => `${m[1] ? 'open ' : ''}${m[2]!.trim()}`,
  );

describe('a plan that deletes', () => {
  it('human: the item under its own label, counted in the closing line, sync named for it', () => {
    const out = renderPlanHuman(plan, { command: 'plan', color: false });
    expect(out).toContain('- delete   gone\n');
    expect(out).toContain(
      'Plan: 1 to create, 1 to delete, 0 in sync, 1 drifted. Run "wfsync sync" to create and delete.',
    );
  });

  it('markdown: the delete is the first block, open, and the first next step', () => {
    const out = renderPlanMarkdown(plan, { command: 'plan' });
    expect(blocks(out)).toEqual(['open - delete ·', 'open &#126; drifted ·', '+ create ·']);
    const steps = out
      .slice(out.indexOf('### Next steps'))
      .split('\n')
      .filter((l) => l.startsWith('- '));
    expect(steps[0]).toBe(
      "- After merging, main's sync (`wfsync sync`) will DELETE 1 workflow on the service: `gone` (listed first, open; their files were removed).",
    );
  });

  it('json: action delete, counted under summary.delete; exit 2 when nothing needs a person', () => {
    const document = JSON.parse(renderPlanJson(planOf([item('gone', 'delete', { file: undefined })])));
    expect(document).toMatchObject({
      schemaVersion: 4,
      exitCode: 2,
      needsPerson: [],
      summary: { delete: 1 },
      items: [{ identifier: 'gone', action: 'delete' }],
    });
  });

  it('github: a warning annotation; code climate: an info issue', () => {
    const github = renderPlanGithub(planOf([item('gone', 'delete')]), { command: 'plan' });
    expect(github.split('\n')[0]).toMatch(
      /^::warning file=workflows\/gone.yaml,title=wfsync plan \(delete\)::gone: delete/,
    );
    const issues = JSON.parse(renderPlanCodeClimate(planOf([item('gone', 'delete')])));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ check_name: 'wfsync-plan/delete', severity: 'info' });
  });

  it("sync's comment: the deleted workflow first", () => {
    const result = syncOf([
      { identifier: 'beta', outcome: 'created', remoteId: 'b'.repeat(24) },
      { identifier: 'gone', outcome: 'deleted', remoteId: 'c'.repeat(24), message: 'deleted on the service' },
    ]);
    expect(blocks(renderSyncMarkdown(result, { command: 'sync' })).slice(0, 2)).toEqual([
      'open - deleted ·',
      '+ created ·',
    ]);
  });
});
