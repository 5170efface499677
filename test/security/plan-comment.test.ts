/**
 * The plan comment's new parts (the rendered before/after and the flowchart) fed text a contributor's branch or the
 * service controls: nothing may leave its code block, ping anyone, load anything, or pass for wfsync's marker.
 */
import { describe, expect, it } from 'vitest';
import type { RenderedChanges, StepFlow } from '../../src/plan/types.js';
import { neutralizeMarkdown } from '../../src/report/channel.js';
import { flowchartPart, renderedPart } from '../../src/report/plan/markdown-flow.js';
import { markupLines } from '../helpers/markdown-markup.js';

const HOSTILE = [
  '````',
  '~~~',
  '</details></summary><img src="https://tracker.example/p.png">',
  '![x](https://tracker.example/q.png) [link](https://evil.example)',
  '@octocat @org/team #12 GH-3',
  '<!-- wfsync-plan target=development -->',
  '```mermaid',
  '%%{init: {"securityLevel": "loose"}}%%',
  'click s0 "https://evil.example"',
].join('\n');

describe('the plan comment: rendered messages and flowcharts', () => {
  it('a hostile rendering stays inside its diff block; mentions, references and markers are broken', () => {
    const rendered: RenderedChanges = {
      payload: { note: HOSTILE },
      steps: [
        {
          index: 0,
          name: HOSTILE,
          type: 'sms',
          before: { content: 'old' },
          after: { content: HOSTILE, cta: { url: HOSTILE } },
        },
        {
          index: 1,
          name: 'mail',
          type: 'email',
          before: { content: '<p>old</p>', contentType: 'html' },
          after: {
            content: `<p>${HOSTILE}</p><a href="https://evil.example/\`\`\`\`">x</a>`,
            contentType: 'html',
          },
        },
      ],
    };
    const text = neutralizeMarkdown(renderedPart(rendered, 'the comment').shown);
    for (const line of markupLines(text)) {
      expect(line).not.toMatch(/<img|<\/details>|!\[|\]\(|<!--/);
    }
    expect(text).not.toMatch(/(?<![A-Za-z0-9_])@(?=[A-Za-z0-9])/);
    expect(text).not.toContain('<!-- wfsync-plan');
    expect(text).not.toMatch(/#\d/);
  });

  it('a hostile step name, type and filter stay inside the quoted labels of the Mermaid block', () => {
    const flow: StepFlow = {
      trigger: HOSTILE,
      steps: [
        { index: 0, name: HOSTILE, type: HOSTILE, conditions: [HOSTILE, HOSTILE], detail: HOSTILE },
        { index: 1, name: HOSTILE, type: 'delay', inactive: true },
      ],
    } as unknown as StepFlow;
    const text = neutralizeMarkdown(flowchartPart(flow, 'the comment').shown);
    const lines = text.split('\n');
    const open = lines.findIndex((l) => /^`{3,}mermaid$/.test(l));
    const fence = lines[open]?.replace('mermaid', '') ?? '';
    const close = lines.indexOf(fence, open + 1);
    expect(open).toBeGreaterThan(-1);
    expect(close).toBeGreaterThan(open);
    // Inside the block: only our own node and edge lines, each label one quoted string without a quote inside.
    for (const line of lines.slice(open + 2, close)) {
      expect(line).toMatch(
        /^ {4}(\w+ (-->|-\.->)(\|(yes|no)\|)? \w+|\w+(\(\[|\[\[|\[|\{\{|\{)"[^"]*"(\]\)|\]\]|\]|\}\}|\}))$/,
      );
      expect(line).not.toMatch(/%%|click|<img|<\/?details|`/);
    }
    expect(markupLines(text).join('\n')).not.toMatch(/<img|!\[|<!--/);
  });
});
