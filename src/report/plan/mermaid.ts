/**
 * A workflow's steps as a Mermaid flowchart (`flowchart TD`) for the plan's Markdown: the trigger, each step in
 * order (a rectangle per message, a hexagon per delay or digest, a subroutine per action), a diamond before a step
 * that has filters (`yes` into the step, a dotted `no` past it), dotted edges around an inactive step, then the end.
 *
 * Step names and filter values are untrusted. Node ids are ours (`t`, `s0`, `c0`, `more`, `e`); every label is one
 * quoted string whose text has controls and line breaks removed, is capped, and writes every character Mermaid,
 * HTML or the fence could read as syntax as one of Mermaid's named entity codes (`#quot;`, `#lt;`, `#num;`…), so a
 * label cannot end its string, start a directive (`%%{init}%%`), a `click`/`style` line or an edge, hold HTML, or
 * close the fence. Named codes, never numeric ones: the Markdown channel breaks `#` before a digit (issue links).
 */
import type { FlowStep, StepFlow } from '../../plan/types.js';
import { truncateText } from './text.js';

/** Longest line of a label, in characters of the source text (before escaping); the rest is cut with `…`. */
export const MERMAID_LINE_MAX = 60;
/** Steps drawn; the rest are counted in one node. */
export const MERMAID_STEPS_MAX = 40;
/** Filter groups written in one diamond; the rest are counted. */
const CONDITIONS_MAX = 3;

/** Characters with a meaning to Mermaid, HTML, Markdown or KaTeX, and the name Mermaid's `#name;` codes give them. */
const NAMED: Readonly<Record<string, string>> = {
  '"': 'quot',
  '#': 'num',
  '&': 'amp',
  '<': 'lt',
  '>': 'gt',
  '`': 'grave',
  "'": 'apos',
  '[': 'lsqb',
  ']': 'rsqb',
  '{': 'lcub',
  '}': 'rcub',
  '|': 'verbar',
  '\\': 'bsol',
  '%': 'percnt',
  ';': 'semi',
  ':': 'colon',
  $: 'dollar',
};
const SPECIAL = new RegExp(
  `[${Object.keys(NAMED)
    .map((ch) => `\\${ch}`)
    .join('')}]`,
  'g',
);
/** Controls, format characters (bidi, zero-width), private use, surrogates, unassigned, line/paragraph separators. */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}\p{Cn}\p{Zl}\p{Zp}]+/gu;

/**
 * One line of label text from outside: invisible characters and line breaks become spaces, runs of spaces one, cut
 * to `max` characters, then every special character written as a named code. Never holds `"`, a line break, a
 * backtick, `<`, `>`, `&`, `#` other than in a code, `%`, `[`, `]`, `{`, `}`, `|` or `;` other than ending a code.
 */
export function mermaidText(text: string, max = MERMAID_LINE_MAX): string {
  const plain = text.replace(INVISIBLE, ' ').replace(/\s+/gu, ' ').trim();
  return truncateText(plain, max).replace(SPECIAL, (ch) => `#${NAMED[ch]};`);
}

/** The flowchart's lines (no fence): `flowchart TD`, then the nodes, then the edges, each indented. */
export function buildMermaidFlowchart(flow: StepFlow): string[] {
  const nodes: string[] = [`t(["${label(['trigger', mermaidText(flow.trigger)])}"])`];
  const edges: string[] = [];
  /** Where the flow goes on from: each open end and how its edge is drawn. */
  let exits: Exit[] = [{ from: 't', arrow: '-->' }];
  const link = (to: string, dotted = false) => {
    for (const exit of exits) {
      const arrow = dotted ? '-.->' : exit.arrow;
      edges.push(`${exit.from} ${arrow}${exit.label === undefined ? '' : `|${exit.label}|`} ${to}`);
    }
  };
  for (const step of flow.steps.slice(0, MERMAID_STEPS_MAX)) {
    const id = `s${step.index}`;
    const dotted = step.inactive === true;
    if (step.conditions !== undefined && step.conditions.length > 0) {
      const condition = `c${step.index}`;
      nodes.push(`${condition}{"${label(conditionLines(step.conditions))}"}`);
      link(condition, dotted);
      exits = [{ from: condition, arrow: '-->', label: 'yes' }];
      link(id, dotted);
      exits = [
        { from: id, arrow: dotted ? '-.->' : '-->' },
        { from: condition, arrow: '-.->', label: 'no' },
      ];
    } else {
      link(id, dotted);
      exits = [{ from: id, arrow: dotted ? '-.->' : '-->' }];
    }
    nodes.push(stepNode(id, step));
  }
  const hidden = flow.steps.length - MERMAID_STEPS_MAX;
  if (hidden > 0) {
    nodes.push(`more["${label([`… ${hidden} more ${hidden === 1 ? 'step' : 'steps'}`])}"]`);
    link('more');
    exits = [{ from: 'more', arrow: '-->' }];
  }
  nodes.push('e(["end"])');
  link('e');
  return ['flowchart TD', ...[...nodes, ...edges].map((line) => `    ${line}`)];
}

interface Exit {
  from: string;
  arrow: '-->' | '-.->';
  label?: 'yes' | 'no';
}

/** Lines of a label, already escaped, joined with Mermaid's line break. */
function label(lines: readonly string[]): string {
  return lines.join('<br/>');
}

function stepNode(id: string, step: FlowStep): string {
  const head = [mermaidText(step.type, 20)];
  if (step.changed) head.push('changed');
  if (step.inactive) head.push('inactive, skipped');
  const lines = [head.join(' · '), mermaidText(step.name)];
  if (step.detail !== undefined) lines.push(mermaidText(step.detail));
  if (step.variants !== undefined)
    lines.push(`+ ${step.variants} ${step.variants === 1 ? 'variant' : 'variants'}`);
  const text = label(lines);
  switch (shapeOf(step.type)) {
    case 'wait':
      return `${id}{{"${text}"}}`;
    case 'action':
      return `${id}[["${text}"]]`;
    default:
      return `${id}["${text}"]`;
  }
}

function shapeOf(type: string): 'message' | 'wait' | 'action' {
  if (type === 'delay' || type === 'digest') return 'wait';
  if (type === 'trigger' || type === 'custom') return 'action';
  return 'message';
}

/** The filter groups a step runs on (any may pass), capped: `payload.amount > 100`, `or: …`. */
function conditionLines(conditions: readonly string[]): string[] {
  const lines = conditions
    .slice(0, CONDITIONS_MAX)
    .map((text, i) => (i === 0 ? mermaidText(text) : `or ${mermaidText(text)}`));
  const more = conditions.length - CONDITIONS_MAX;
  if (more > 0) lines.push(`or ${more} more ${more === 1 ? 'group' : 'groups'}`);
  return ['runs if', ...lines];
}
