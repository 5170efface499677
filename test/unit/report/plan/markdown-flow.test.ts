import { describe, expect, it } from 'vitest';
import type { PlanItem, StepFlow } from '../../../../src/plan/types.js';
import { PR_COMMENT_MAX_CHARS, renderPlanMarkdown } from '../../../../src/report/plan/markdown.js';
import { change, item, planOf } from './fixture-plan.js';

const options = { command: 'plan' } as const;

function flowOf(identifier: string, steps: number): StepFlow {
  return {
    trigger: identifier,
    steps: Array.from({ length: steps }, (_, index) => ({
      index,
      name: `Step ${index + 1} ${'n'.repeat(40)}`,
      type: index % 2 === 0 ? 'email' : 'delay',
      ...(index % 2 === 1 ? { detail: '2 hours' } : {}),
    })),
  };
}

function drifted(identifier: string, diffSize: number, steps: number): PlanItem {
  const lines = Array.from({ length: Math.ceil(diffSize / 80) }, (_, i) => `  - line ${i} ${'x'.repeat(30)}`);
  const diff = [
    `--- service: ${identifier}`,
    `+++ workflows/${identifier}.yaml`,
    `@@ -1,${lines.length + 1} +1,${lines.length + 1} @@`,
    ' lines:',
    ...lines.map((l) => `-${l}`),
    ...lines.map((l) => `+${l}!`),
    '',
  ].join('\n');
  return item(identifier, 'drifted', {
    changes: [change('description', '/description', 'old', 'new')],
    diff,
    flow: flowOf(identifier, steps),
  });
}

/** Each workflow block of a comment (its nested flowchart block included), by identifier. */
function blocksOf(markdown: string): Map<string, string> {
  const starts = [...markdown.matchAll(/^<details(?: open)?>\n<summary>[^\n]*?<code>([^<]+)<\/code>/gm)];
  return new Map(
    starts.map((m, i) => [m[1]!, markdown.slice(m.index, starts[i + 1]?.index ?? markdown.length)]),
  );
}

describe('the flowchart in the plan comment', () => {
  it('a create shows its steps as a Mermaid flowchart in a collapsed block inside its own collapsed block', () => {
    const plan = planOf([item('welcome', 'create', { flow: flowOf('welcome', 2) })]);
    const markdown = renderPlanMarkdown(plan, options);
    const block = blocksOf(markdown).get('welcome')!;
    expect(block.startsWith('<details>\n')).toBe(true);
    expect(block).toContain(
      [
        '<details>\n<summary>Flowchart (2 steps)</summary>',
        '```mermaid\nflowchart TD\n    t(["trigger<br/>welcome"])',
      ].join('\n\n'),
    );
    expect(block).toContain('    s1{{"delay<br/>Step 2 nnnn');
    expect(block).toMatch(/ {4}s1 --> e\n```\n\n<\/details>\n\n\*\*Next:\*\* Nothing to do\.\n\n<\/details>/);
  });

  it('a workflow that needs a person keeps its block open; the flowchart stays collapsed', () => {
    const plan = planOf([drifted('invoice', 100, 1)]);
    const block = blocksOf(renderPlanMarkdown(plan, options)).get('invoice')!;
    expect(block.startsWith('<details open>\n')).toBe(true);
    expect(block).toContain('<details>\n<summary>Flowchart (1 step)</summary>');
  });

  it('to fit a comment, flowcharts go first (from the last block back), then diffs; the document stays whole', () => {
    // 12 workflows with ~3,000-character diffs and 40-step flowcharts (~4,000 characters each): too much for one.
    const items = Array.from({ length: 12 }, (_, i) => drifted(`w${String(i).padStart(2, '0')}`, 3_000, 40));
    const markdown = renderPlanMarkdown(planOf(items), options);
    expect(markdown.length).toBeLessThanOrEqual(PR_COMMENT_MAX_CHARS);
    const blocks = [...blocksOf(markdown).values()];
    expect(blocks).toHaveLength(12);
    const withFlow = blocks.map((b) => b.includes('```mermaid'));
    const withDiff = blocks.map((b) => b.includes('```diff'));
    // Every diff kept, some flowcharts dropped from the end, each replaced by its note.
    expect(withDiff.every(Boolean)).toBe(true);
    expect(withFlow.some(Boolean)).toBe(true);
    expect(withFlow.some((f) => !f)).toBe(true);
    expect(withFlow).toEqual([...withFlow].sort((a, b) => Number(b) - Number(a)));
    for (const [i, b] of blocks.entries()) {
      if (!withFlow[i]) expect(b).toContain('_Flowchart left out to fit a comment; see the plan artifact._');
    }
    expect(markdown.match(/<details/g)!.length).toBe(markdown.match(/<\/details>/g)!.length);
    expect(markdown.match(/^```/gm)!.length % 2).toBe(0);
  });

  it('when diffs must go too, every flowchart has gone before the first diff does', () => {
    const items = Array.from({ length: 12 }, (_, i) => drifted(`w${String(i).padStart(2, '0')}`, 8_000, 40));
    const markdown = renderPlanMarkdown(planOf(items), options);
    expect(markdown.length).toBeLessThanOrEqual(PR_COMMENT_MAX_CHARS);
    const blocks = [...blocksOf(markdown).values()];
    expect(blocks.some((b) => !b.includes('```diff'))).toBe(true);
    expect(blocks.some((b) => b.includes('```mermaid'))).toBe(false);
    expect(markdown.match(/<details/g)!.length).toBe(markdown.match(/<\/details>/g)!.length);
  });
});
