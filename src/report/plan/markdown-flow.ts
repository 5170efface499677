/**
 * The parts of a plan comment's workflow block that show what the workflow does rather than what differs: the
 * flowchart of its steps (a Mermaid block GitHub draws, collapsed). Each part has a short note that stands in for
 * it when the comment must shrink (markdown-fit.ts).
 */
import type { StepFlow } from '../../plan/types.js';
import { fencedBlock } from './markdown-text.js';
import { buildMermaidFlowchart } from './mermaid.js';

/** One optional part of a workflow's block, and what is written instead when it is left out to save space. */
export interface OptionalPart {
  shown: string;
  omitted: string;
}

/** The flowchart of a workflow's steps, collapsed: Mermaid in a fenced block (GitHub renders it as a diagram). */
export function flowchartPart(flow: StepFlow, where: string): OptionalPart {
  const count = flow.steps.length === 1 ? '1 step' : `${flow.steps.length} steps`;
  return {
    shown: [
      `<details>\n<summary>Flowchart (${count})</summary>`,
      fencedBlock(buildMermaidFlowchart(flow), 'mermaid'),
      '</details>',
    ].join('\n\n'),
    omitted: `_Flowchart left out to fit ${where}; see the plan artifact._`,
  };
}
