import { describe, expect, it } from 'vitest';
import type { PlanItem, RenderedChanges, StepFlow } from '../../../../src/plan/types.js';
import { renderPlanJson } from '../../../../src/report/plan/json.js';
import { PR_COMMENT_MAX_CHARS, renderPlanMarkdown } from '../../../../src/report/plan/markdown.js';
import { jsonOutputProblems } from '../../../helpers/json-output.js';
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

const RENDERED: RenderedChanges = {
  payload: { orderNumber: 'A-1042', carrier: 'DHL' },
  steps: [
    {
      index: 0,
      name: 'Receipt',
      type: 'email',
      before: {
        subject: 'Order A-1042',
        content:
          '<html><head><style>p{}</style></head><body><p>Order A-1042 has shipped.</p><p>Thanks</p></body></html>',
        contentType: 'html',
      },
      after: {
        subject: 'Order A-1042',
        content: '<p>Order A-1042 is on its way with DHL.</p><p>Thanks</p>',
        contentType: 'html',
      },
    },
    {
      index: 2,
      name: 'Text',
      type: 'sms',
      after: { content: '```\n</details>\n<!-- x --> @team #12', contentType: 'text' },
    },
  ],
};

describe('the rendered messages in the plan comment', () => {
  it('shows each changed message as a line diff of what the recipient reads, with the sample payload', () => {
    const plan = planOf([
      item('order-shipped', 'changed-locally', {
        changes: [change('steps[0].template.content', '/steps/0/template/content', 'a', 'b')],
        rendered: RENDERED,
        flow: flowOf('order-shipped', 1),
      }),
    ]);
    const block = blocksOf(renderPlanMarkdown(plan, options)).get('order-shipped')!;
    expect(block).toContain(
      '**Rendered (service → file), 2 messages**, with the sample payload `{"carrier":"DHL","orderNumber":"A-1042"}`:',
    );
    expect(block).toContain(
      [
        '- email `Receipt`',
        '',
        '  ```diff',
        '    subject: Order A-1042',
        '  - Order A-1042 has shipped.',
        '  + Order A-1042 is on its way with DHL.',
        '',
        '    Thanks',
        '  ```',
      ].join('\n'),
    );
    // Text from outside stays inside its fence, which is longer than any backtick run in it.
    expect(block).toContain('- sms `Text` (only in the file)\n\n  ````diff\n  + ```\n  + </details>');
    expect(block).not.toContain('<!-- x');
    expect(block).not.toContain('@team');
    // The rendered messages come before the flowchart, and both before the next step.
    expect(block.indexOf('**Rendered')).toBeLessThan(block.indexOf('<summary>Flowchart'));
  });

  it('the JSON plan carries the flow and the renderings, and validates against the schema', () => {
    const plan = planOf([
      item('order-shipped', 'changed-locally', { rendered: RENDERED, flow: flowOf('order-shipped', 3) }),
      item('welcome', 'create', { flow: flowOf('welcome', 1) }),
    ]);
    const json = JSON.parse(renderPlanJson(plan));
    expect(json.items[0].rendered).toEqual(RENDERED);
    expect(json.items[0].flow.steps).toHaveLength(3);
    expect(jsonOutputProblems('plan', json)).toEqual([]);
    const spoiled = { ...json, items: [{ ...json.items[0], rendered: { ...RENDERED, extra: 1 } }] };
    expect(jsonOutputProblems('plan', spoiled)).not.toEqual([]);
  });
});
