import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PlanItem } from '../../../../src/plan/types.js';
import { STEP_SUMMARY_MAX_BYTES, utf8Length } from '../../../../src/report/github-summary.js';
import {
  PR_COMMENT_MARKER,
  PR_COMMENT_MAX_CHARS,
  prCommentMarker,
  renderPlanMarkdown,
  renderPlanStepSummary,
  renderSyncMarkdown,
  renderSyncStepSummary,
  SYNC_COMMENT_MARKER,
} from '../../../../src/report/plan/markdown.js';
import { runs } from '../../../helpers/fc-runs.js';
import { aPlanItem } from '../../../helpers/plan-item.js';
import {
  buildFixturePlan,
  buildFixtureSync,
  change,
  item,
  planOf,
  TARGET,
  yamlDiff,
} from './fixture-plan.js';

const options = { command: 'plan' } as const;

/**
 * A drifted item whose diff is about `size` characters (every line changed: two lines of ~40 characters). Written
 * out by hand in the unified format: diffing thousands of changed lines takes jsdiff seconds, and the renderer only
 * reads the lines.
 */
function bigItem(identifier: string, size: number): PlanItem {
  const lines = Array.from({ length: Math.ceil(size / 80) }, (_, i) => `  - line ${i} ${'x'.repeat(30)}`);
  const n = lines.length;
  const diff = [
    `--- service: ${identifier}`,
    `+++ workflows/${identifier}.yaml`,
    `@@ -1,${n + 1} +1,${n + 1} @@`,
    ' lines:',
    ...lines.map((l) => `-${l}`),
    ...lines.map((l) => `+${l}!`),
    '',
  ].join('\n');
  return item(identifier, 'drifted', {
    changes: [change('description', '/description', 'old', 'new')],
    diff,
    next: 'Change it back in the dashboard.',
  });
}

/** The `<details>` blocks of a comment, by identifier, with whether each kept its diff. */
function detailsOf(markdown: string): Array<{ identifier: string; diff: boolean }> {
  return [
    ...markdown.matchAll(/<details(?: open)?>\n<summary>[^<]*<code>([^<]+)<\/code>[\s\S]*?<\/details>/g),
  ].map((m) => ({
    identifier: m[1] ?? '',
    diff: m[0].includes('```diff'),
  }));
}

describe('renderPlanMarkdown', () => {
  it('starts with the marker, then the per-target marker, then the heading', () => {
    const lines = renderPlanMarkdown(buildFixturePlan(), options).split('\n');
    expect(lines.slice(0, 3)).toEqual([
      PR_COMMENT_MARKER,
      prCommentMarker('staging'),
      '## wfsync plan · staging',
    ]);
    expect(PR_COMMENT_MARKER).toBe('<!-- wfsync-plan -->');
    expect(prCommentMarker('staging')).not.toBe(prCommentMarker('prod'));
  });

  it('keeps a hostile target name from ending the marker comment', () => {
    expect(prCommentMarker('x --> <b>y</b>')).toBe(
      '<!-- wfsync-plan target=x%20--%3E%20%3Cb%3Ey%3C%2Fb%3E -->',
    );
  });

  it('puts the summary table before any workflow', () => {
    const out = renderPlanMarkdown(buildFixturePlan(), options);
    expect(out.indexOf('| Action | Count |')).toBeLessThan(out.indexOf('<details>'));
    expect(out).toContain('| **Total** | **9** |\n');
  });

  it('lists in-sync workflows in one collapsed block after the others, before the next steps', () => {
    const out = renderPlanMarkdown(buildFixturePlan(), options);
    expect(out).toContain(
      '- `weekly-digest` · workflows/weekly-digest.yaml\n\n</details>\n\n### Next steps\n',
    );
    expect(out).toContain('<details>\n<summary>✔ 2 in sync</summary>\n');
  });

  it('escapes names, files and messages: no HTML, no broken table, no closed fence', () => {
    const hostile = '<script>alert(1)</script> | **x** ](javascript:y) `';
    const plan = planOf(
      [
        item(hostile, 'error', { file: `${hostile}.yaml`, error: hostile, next: hostile }),
        item('fence', 'drifted', {
          changes: [change('steps[0].template.content', '/steps/0/template/content', '```', '````')],
          diff: yamlDiff('fence', 'f.yaml', { content: 'a\n```\nb' }, { content: '```` </details>' }),
        }),
      ],
      { name: `prod | <b>`, baseUrl: 'https://x.example.com/`' },
    );
    const out = renderPlanMarkdown(plan, options);
    // Code spans show their content literally; outside them no tag may survive.
    const prose = out.replace(/(`+).*?\1/g, '');
    expect(prose).not.toMatch(/<script|<b>|<\/script/);
    expect(out).toContain('## wfsync plan · prod \\| &lt;b&gt;\n');
    // Every table row has exactly three pipes: name cells cannot add columns.
    for (const row of out.split('\n').filter((l) => l.startsWith('| '))) {
      expect(row.replace(/\\\|/g, '').match(/\|/g), row).toHaveLength(3);
    }
    // The diff fence is longer than any backtick run inside, and it is closed by the same fence.
    const fence = out.match(/^(`{3,})diff$/m)?.[1] ?? '';
    expect(fence.length).toBeGreaterThan(4);
    expect(out.split('\n').filter((l) => l === fence)).toHaveLength(1);
    // The "</details>" inside the diff is inside the fence, so exactly two real closers remain outside fences.
    const outsideFences = out.replace(/^(`{3,})diff$[\s\S]*?^\1$/gm, '');
    expect(outsideFences.match(/<\/details>/g)).toHaveLength(2);
  });

  it('keeps the comment under 65,000 characters: diffs go first, from the end', () => {
    // Four items of ~20,000 characters: dropping the last two diffs is enough.
    const plan = planOf(['a', 'b', 'c', 'd'].map((id) => bigItem(id, 20_000)));
    const out = renderPlanMarkdown(plan, options);
    expect(out.length).toBeLessThanOrEqual(PR_COMMENT_MAX_CHARS);
    expect(detailsOf(out)).toEqual([
      { identifier: 'a', diff: true },
      { identifier: 'b', diff: true },
      { identifier: 'c', diff: false },
      { identifier: 'd', diff: false },
    ]);
    expect(out).toContain('_Diff left out to fit a comment; run `wfsync plan` to see it._');
    expect(out).not.toContain('not shown');
  });

  it('then drops whole workflows from the end, with a notice counting them', () => {
    // Changes are listed without the diff, so many items with long change lists overflow even without diffs.
    const changes = Array.from({ length: 30 }, (_, i) =>
      change(`tags[${i}]`, `/tags/${i}`, 'x'.repeat(80), 'y'),
    );
    const items = Array.from({ length: 60 }, (_, i) =>
      item(`wf-${String(i).padStart(2, '0')}`, 'drifted', { changes }),
    );
    const out = renderPlanMarkdown(planOf([...items, item('ok', 'in-sync')]), options);
    expect(out.length).toBeLessThanOrEqual(PR_COMMENT_MAX_CHARS);
    const shown = detailsOf(out).map((d) => d.identifier);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown).toEqual(items.slice(0, shown.length).map((i) => i.identifier));
    const omitted = 60 - shown.length;
    // The notice, then the next steps (always kept).
    const beforeSteps = out.slice(0, out.indexOf('\n\n### Next steps\n'));
    expect(beforeSteps.split('\n').at(-1)).toBe(
      `_… ${omitted} workflows not shown to fit a comment; see the plan artifact, or run \`wfsync plan\` locally._`,
    );
    expect(out).toContain('- Before merging: 60 workflows need a person');
    // The in-sync list gave way to a count before any workflow was dropped.
    expect(out).toContain('1 workflow in sync (not listed, to save space).');
    // The summary still counts everything.
    expect(out).toContain('| \\~ drifted | 60 |');
  });

  it('always fits, whatever the sizes (property)', () => {
    const arbItem = fc.record({
      id: fc.string({ minLength: 1, maxLength: 30 }),
      diffSize: fc.integer({ min: 0, max: 40_000 }),
      action: fc.constantFrom('drifted', 'conflict', 'in-sync', 'error', 'create'),
      message: fc.string({ maxLength: 3_000 }),
    });
    fc.assert(
      fc.property(fc.array(arbItem, { maxLength: 40 }), (specs) => {
        const items = specs.map((s, i): PlanItem => {
          const base = s.diffSize > 0 ? bigItem(`${s.id}-${i}`, s.diffSize) : item(`${s.id}-${i}`, 'drifted');
          return aPlanItem(base.identifier, s.action, { ...base, error: s.message, next: s.message });
        });
        const out = renderPlanMarkdown(planOf(items), options);
        expect(out.length).toBeLessThanOrEqual(PR_COMMENT_MAX_CHARS);
        expect(out.startsWith(`${PR_COMMENT_MARKER}\n`)).toBe(true);
        const shown = detailsOf(out).length;
        const notice = out.match(/_… (\d+) workflows? not shown/);
        const attention = items.filter((i) => i.action !== 'in-sync').length;
        expect(shown + Number(notice?.[1] ?? 0)).toBe(attention);
      }),
      { numRuns: runs(60) },
    );
  });
});

describe('step summaries', () => {
  it('are the comment without the markers', () => {
    const plan = buildFixturePlan();
    const comment = renderPlanMarkdown(plan, options);
    const summary = renderPlanStepSummary(plan);
    expect(summary.startsWith('## wfsync plan · staging\n')).toBe(true);
    expect(comment).toBe(`${PR_COMMENT_MARKER}\n${prCommentMarker('staging')}\n${summary}`);
    expect(summary).not.toContain('<!--');
  });

  it('fit in the step summary byte budget, counting UTF-8 bytes', () => {
    // `€` is 3 UTF-8 bytes and 1 UTF-16 unit: each diff is ~330 KB but ~110,000 characters.
    const items = Array.from({ length: 4 }, (_, i) => {
      const lines = Array.from({ length: 2_000 }, (_, j) => `${j} ${'€'.repeat(50)}`);
      return item(`wf-${i}`, 'drifted', { diff: yamlDiff('w', 'w.yaml', { lines }, { lines: [] }) });
    });
    const summary = renderPlanStepSummary(planOf(items));
    expect(utf8Length(summary)).toBeLessThanOrEqual(STEP_SUMMARY_MAX_BYTES);
    // Three of the four diffs fit in 1 MB of UTF-8; counted in UTF-16 units (~440,000) all four would have.
    expect(detailsOf(summary).map((d) => d.diff)).toEqual([true, true, true, false]);
    expect(summary).toContain('_Diff left out to fit a step summary; run `wfsync plan` to see it._');
    // The comment, measured in characters, drops more.
    expect(renderPlanMarkdown(planOf(items), options).length).toBeLessThanOrEqual(PR_COMMENT_MAX_CHARS);
  });
});

describe('renderSyncMarkdown', () => {
  it('carries its own markers, so it never replaces the plan comment', () => {
    const out = renderSyncMarkdown(buildFixtureSync(), { command: 'sync' });
    expect(out.split('\n').slice(0, 3)).toEqual([
      SYNC_COMMENT_MARKER,
      '<!-- wfsync-sync target=staging -->',
      '## wfsync sync · staging',
    ]);
    expect(out).not.toContain(PR_COMMENT_MARKER);
    expect(renderSyncStepSummary(buildFixtureSync()).startsWith('## wfsync sync · staging\n')).toBe(true);
  });

  it('shows a failure with its diagnostics', () => {
    const out = renderSyncMarkdown(buildFixtureSync(), { command: 'sync' });
    expect(out).toContain('**failed:** The service rejected the definition (400 Bad Request).');
    expect(out).toContain(
      '- `workflows/payment-failed.yaml:14:18` **error** Failed to extract variables: Parse error on line 1: expecting ID, got INVALID (`service-rejected`)',
    );
  });
});

it('uses the target from the plan', () => {
  expect(renderPlanMarkdown(planOf([], { ...TARGET, name: 'prod' }), options)).toContain(
    '## wfsync plan · prod\n',
  );
});
