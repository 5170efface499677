/**
 * The parts of a plan comment's workflow block that show what the workflow does rather than which fields differ:
 * the flowchart of its steps (a Mermaid block GitHub draws, collapsed) and its changed messages rendered on both
 * sides. Each part has a short note that stands in for it when the comment must shrink (markdown-fit.ts).
 */
import type * as Diff from 'diff';
import { onFirstUse } from '../../derive/first-use.js';
import { canonicalJson } from '../../json.js';
import type { RenderedChanges, RenderedStepChange, RenderedText, StepFlow } from '../../plan/types.js';
import { escapeMarkdown } from '../github-summary.js';
import { htmlToText } from '../preview/html-text.js';
import { sanitizeTerminalText } from '../terminal-text.js';
import { fencedBlock, inlineCode } from './markdown-text.js';
import { buildMermaidFlowchart } from './mermaid.js';
import { truncateText } from './text.js';

/** jsdiff, loaded the first time a diff is made: a plan with nothing differing never needs it. */
const diffLib = onFirstUse<typeof Diff>('diff');

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

/** Message steps shown rendered in a comment, and the longest side's text kept per step (characters). */
const RENDERED_STEPS_MAX = 5;
const RENDERED_SIDE_MAX = 1_500;
const PAYLOAD_MAX = 300;

/**
 * A differing workflow's changed messages as a recipient reads them: per step, a line diff of the service's
 * rendering (`-`) against the file's (`+`), email HTML read as text, with the sample payload both were rendered with.
 */
export function renderedPart(rendered: RenderedChanges, where: string): OptionalPart {
  const count = rendered.steps.length === 1 ? '1 message' : `${rendered.steps.length} messages`;
  const lines = [
    `**Rendered (service → file), ${count}**, with the sample payload ${inlineCode(truncateText(canonicalJson(rendered.payload), PAYLOAD_MAX))}:`,
    '',
  ];
  for (const step of rendered.steps.slice(0, RENDERED_STEPS_MAX)) {
    const side =
      step.before === undefined
        ? ' (only in the file)'
        : step.after === undefined
          ? ' (only on the service)'
          : '';
    lines.push(
      `- ${escapeMarkdown(step.type)} ${inlineCode(truncateText(step.name, 80))}${side}`,
      '',
      indent(fencedBlock(sideDiff(step), 'diff')),
    );
  }
  const more = rendered.steps.length - RENDERED_STEPS_MAX;
  if (more > 0) lines.push(`- … and ${more} more (see the plan artifact)`);
  return {
    shown: lines.join('\n'),
    omitted: `_Rendered messages left out to fit ${where}; see the plan artifact._`,
  };
}

/** The two renderings as one line diff: unchanged lines with two spaces, the service's `-`, the file's `+`. */
function sideDiff(step: RenderedStepChange): string[] {
  const before = step.before === undefined ? [] : readable(step.before);
  const after = step.after === undefined ? [] : readable(step.after);
  const out: string[] = [];
  let differs = false;
  for (const part of diffLib().diffArrays(before, after)) {
    const mark = part.added ? '+' : part.removed ? '-' : ' ';
    differs ||= mark !== ' ';
    for (const line of part.value) out.push(`${mark} ${line}`.trimEnd());
  }
  // Rendered differently, read the same (markup, attributes, a dropped script): say so rather than show no change.
  if (!differs) out.push('! reads the same as text; the rendered markup differs (see the plan artifact)');
  return out;
}

/** A rendering as the recipient reads it: the headers, then the body (email HTML as text), capped; terminal-safe. */
function readable(text: RenderedText): string[] {
  const head: string[] = [];
  if (text.senderName !== undefined) head.push(`from: ${text.senderName}`);
  if (text.subject !== undefined) head.push(`subject: ${text.subject}`);
  if (text.preheader !== undefined) head.push(`preheader: ${text.preheader}`);
  if (text.title !== undefined) head.push(`title: ${text.title}`);
  const body =
    text.content === undefined ? '' : text.contentType === 'html' ? htmlToText(text.content) : text.content;
  const cta = text.cta;
  const tail: string[] = [];
  if (cta?.label !== undefined) tail.push(`button: ${cta.label}`);
  if (cta?.url !== undefined) tail.push(`link: ${cta.url}`);
  for (const button of cta?.buttons ?? []) tail.push(`button (${button.type}): ${button.content}`);
  if (text.error !== undefined) tail.push(`error: ${text.error}`);
  const all = [...head.map(oneLine), ...(body === '' ? [] : body.split(/\r\n|\r|\n/)), ...tail.map(oneLine)];
  const lines: string[] = [];
  let size = 0;
  for (const line of all) {
    if (size >= RENDERED_SIDE_MAX) {
      lines.push('…');
      break;
    }
    const kept = truncateText(line, RENDERED_SIDE_MAX - size);
    size += kept.length + 1;
    lines.push(sanitizeTerminalText(kept, '\t').replace(/\t/g, ' '));
  }
  if (text.truncated && lines.at(-1) !== '…') lines.push('…');
  return lines;
}

function oneLine(text: string): string {
  return text.replace(/\r\n|\r|\n/g, ' ');
}

/** A block as an item's continuation: every line indented under the `- ` of its list item. */
function indent(block: string): string {
  return block
    .split('\n')
    .map((line) => (line === '' ? '' : `  ${line}`))
    .join('\n');
}
