import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FlowStep, StepFlow } from '../../../../src/plan/types.js';
import { neutralizeMarkdown } from '../../../../src/report/channel.js';
import { fencedBlock } from '../../../../src/report/plan/markdown-text.js';
import {
  buildMermaidFlowchart,
  MERMAID_LINE_MAX,
  MERMAID_STEPS_MAX,
  mermaidText,
} from '../../../../src/report/plan/mermaid.js';
import { assertProperty } from '../../../helpers/fc-assert.js';
import { runs } from '../../../helpers/fc-runs.js';

/**
 * A structural reading of the flowchart we write (not a Mermaid parser): each line after `flowchart TD` is either a
 * node (our id, one shape, one quoted label) or an edge (our ids, an arrow, an optional yes/no label). A line that is
 * neither fails the test, so a label that escaped its string shows here.
 */
interface Parsed {
  nodes: Map<string, { shape: string; lines: string[] }>;
  edges: string[];
}

const SHAPES: Record<string, string> = { '(["': '"])', '[["': '"]]', '{{"': '"}}', '["': '"]', '{"': '"}' };
const NODE = /^ {4}([a-z][a-z0-9]*)(\(\["|\[\["|\{\{"|\["|\{")([^"]*)("\]\)|"\]\]|"\}\}|"\]|"\})$/;
const EDGE = /^ {4}([a-z][a-z0-9]*) (-->|-\.->)(\|(?:yes|no)\|)? ([a-z][a-z0-9]*)$/;
/** Label text: no character with a meaning to Mermaid/HTML except our line break and `#name;` codes. */
const LABEL_LINE = /^(?:[^"<>&#%`[\]{}|\\;$:'\r\n]|#[a-z]+;)*$/;
const DECODE: Record<string, string> = {
  quot: '"',
  num: '#',
  amp: '&',
  lt: '<',
  gt: '>',
  grave: '`',
  apos: "'",
  lsqb: '[',
  rsqb: ']',
  lcub: '{',
  rcub: '}',
  verbar: '|',
  bsol: '\\',
  percnt: '%',
  semi: ';',
  colon: ':',
  dollar: '$',
};

function parse(lines: readonly string[]): Parsed {
  expect(lines[0]).toBe('flowchart TD');
  const nodes: Parsed['nodes'] = new Map();
  const edges: string[] = [];
  for (const line of lines.slice(1)) {
    const node = NODE.exec(line);
    if (node) {
      const [, id, open, text, close] = node;
      expect(SHAPES[open!], line).toBe(close);
      expect(nodes.has(id!), `node ${id} twice`).toBe(false);
      const parts = text!.split('<br/>');
      for (const part of parts) expect(part, line).toMatch(LABEL_LINE);
      nodes.set(id!, { shape: open!, lines: parts.map(decode) });
      continue;
    }
    const edge = EDGE.exec(line);
    expect(edge, `not a node or an edge: ${JSON.stringify(line)}`).not.toBeNull();
    edges.push(`${edge![1]} ${edge![2]}${edge![3] ?? ''} ${edge![4]}`);
  }
  for (const edge of edges) {
    const [from, , to] = edge.split(' ');
    expect(nodes.has(from!) && nodes.has(to!), edge).toBe(true);
  }
  return { nodes, edges };
}

function decode(text: string): string {
  return text.replace(/#([a-z]+);/g, (_, name: string) => {
    expect(DECODE[name], name).toBeDefined();
    return DECODE[name]!;
  });
}

/** The nodes and edges a flow must give, worked out step by step from the model. */
function expected(flow: StepFlow): { nodes: string[]; edges: string[] } {
  const nodes = ['t'];
  const edges: string[] = [];
  let exits = ['t -->'];
  const link = (to: string, dotted: boolean) => {
    for (const exit of exits) {
      const [from, arrow] = exit.split(' ');
      const [bare, label] = arrow!.split('|');
      const drawn = dotted ? '-.->' : bare;
      edges.push(`${from} ${drawn}${label === undefined ? '' : `|${label}|`} ${to}`);
    }
  };
  for (const step of flow.steps.slice(0, MERMAID_STEPS_MAX)) {
    const dotted = step.inactive === true;
    const s = `s${step.index}`;
    const arrow = dotted ? '-.->' : '-->';
    if (step.conditions?.length) {
      const c = `c${step.index}`;
      nodes.push(c);
      link(c, dotted);
      exits = [`${c} -->|yes`];
      link(s, dotted);
      exits = [`${s} ${arrow}`, `${c} -.->|no`];
    } else {
      link(s, dotted);
      exits = [`${s} ${arrow}`];
    }
    nodes.push(s);
  }
  if (flow.steps.length > MERMAID_STEPS_MAX) {
    nodes.push('more');
    link('more', false);
    exits = ['more -->'];
  }
  nodes.push('e');
  link('e', false);
  return { nodes, edges };
}

/** What a label line says once the escaping is undone: the text with invisibles gone, spaces collapsed, cut. */
function shown(text: string, max = MERMAID_LINE_MAX): string {
  const plain = text
    .replace(/[\p{Cc}\p{Cf}\p{Co}\p{Cs}\p{Cn}\p{Zl}\p{Zp}]+/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
  const chars = Array.from(plain);
  return chars.length <= max ? plain : `${chars.slice(0, max - 1).join('')}…`;
}

const step = (index: number, extra: Partial<FlowStep> = {}): FlowStep => ({
  index,
  name: `step ${index + 1}`,
  type: 'email',
  ...extra,
});

describe('buildMermaidFlowchart', () => {
  it('draws the trigger, each step in order by its shape, filters as diamonds, and the end', () => {
    const flow: StepFlow = {
      trigger: 'order-shipped',
      steps: [
        step(0, { name: 'Inbox', type: 'in_app' }),
        step(1, { name: 'Wait', type: 'delay', detail: '2 hours' }),
        step(2, { name: 'Roll up', type: 'digest', detail: '1 hour, by orderId' }),
        step(3, { name: 'Big orders', conditions: ['payload.amount > 100'], changed: true }),
        step(4, { name: 'Old', type: 'sms', inactive: true }),
        step(5, { name: 'Hook', type: 'custom', variants: 2 }),
      ],
    };
    expect(buildMermaidFlowchart(flow)).toEqual([
      'flowchart TD',
      '    t(["trigger<br/>order-shipped"])',
      '    s0["in_app<br/>Inbox"]',
      '    s1{{"delay<br/>Wait<br/>2 hours"}}',
      '    s2{{"digest<br/>Roll up<br/>1 hour, by orderId"}}',
      '    c3{"runs if<br/>payload.amount #gt; 100"}',
      '    s3["email · changed<br/>Big orders"]',
      '    s4["sms · inactive, skipped<br/>Old"]',
      '    s5[["custom<br/>Hook<br/>+ 2 variants"]]',
      '    e(["end"])',
      '    t --> s0',
      '    s0 --> s1',
      '    s1 --> s2',
      '    s2 --> c3',
      '    c3 -->|yes| s3',
      '    s3 -.-> s4',
      '    c3 -.->|no| s4',
      '    s4 -.-> s5',
      '    s5 --> e',
    ]);
  });

  it('a filtered last step: its "no" goes to the end; several groups are alternatives, capped', () => {
    const flow: StepFlow = {
      trigger: 'x',
      steps: [step(0, { conditions: ['a = 1', 'b = 2', 'c = 3', 'd = 4', 'e = 5'] })],
    };
    const parsed = parse(buildMermaidFlowchart(flow));
    expect(parsed.nodes.get('c0')!.lines).toEqual([
      'runs if',
      'a = 1',
      'or b = 2',
      'or c = 3',
      'or 2 more groups',
    ]);
    expect(parsed.edges).toEqual(['t --> c0', 'c0 -->|yes| s0', 's0 --> e', 'c0 -.->|no| e']);
  });

  it('draws at most MERMAID_STEPS_MAX steps and counts the rest in one node', () => {
    const flow: StepFlow = {
      trigger: 'x',
      steps: Array.from({ length: MERMAID_STEPS_MAX + 3 }, (_, i) => step(i)),
    };
    const parsed = parse(buildMermaidFlowchart(flow));
    expect(parsed.nodes.get('more')!.lines).toEqual(['… 3 more steps']);
    expect(parsed.nodes.has(`s${MERMAID_STEPS_MAX}`)).toBe(false);
    expect(parsed.edges.slice(-2)).toEqual([`s${MERMAID_STEPS_MAX - 1} --> more`, 'more --> e']);
  });

  it('escapes the classic injections: a label cannot end its string, start a line or hold HTML', () => {
    const hostile = [
      'x"] --> evil["pwned',
      '%%{init: {"securityLevel": "loose"}}%%',
      'a\nclick s0 call alert(1)\nstyle s0 fill:#f00',
      '<img src=x onerror=alert(1)>',
      '```\n# heading',
      '`**markdown**`',
      '#quot; #35; &quot;',
      'a|b; c:d $$x^2$$',
      '\u202eevil\u200b\u0007',
    ];
    for (const name of hostile) {
      const lines = buildMermaidFlowchart({ trigger: name, steps: [step(0, { name, conditions: [name] })] });
      const parsed = parse(lines);
      expect(parsed.nodes.get('s0')!.lines[1]).toBe(shown(name));
      expect(parsed.nodes.get('t')!.lines[1]).toBe(shown(name));
      expect(parsed.nodes.get('c0')!.lines[1]).toBe(shown(name));
    }
  });

  it('property: for any names, trigger and filter text, the block parses to exactly the expected graph', () => {
    const text = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 80 }),
      fc.string({ unit: 'binary', maxLength: 80 }),
      fc.stringMatching(
        /^[\s"'`<>[\]{}()|#%;:&\\$-]{0,30}(click|style|classDef|%%|-->|```|end)?[a-z ]{0,10}$/,
      ),
    );
    const aStep = fc.record(
      {
        name: text,
        type: fc.oneof(
          fc.constantFrom('email', 'sms', 'in_app', 'chat', 'push', 'digest', 'delay', 'custom'),
          text,
        ),
        detail: text,
        conditions: fc.array(text, { maxLength: 5 }),
        inactive: fc.constant(true as const),
        variants: fc.integer({ min: 1, max: 5 }),
        changed: fc.constant(true as const),
      },
      { requiredKeys: ['name', 'type'] },
    );
    assertProperty(
      fc.property(text, fc.array(aStep, { maxLength: MERMAID_STEPS_MAX + 2 }), (trigger, raw) => {
        const flow: StepFlow = { trigger, steps: raw.map((s, index) => ({ ...s, index })) };
        const lines = buildMermaidFlowchart(flow);
        // As the comment writes it: fenced, then through the Markdown channel.
        const block = neutralizeMarkdown(fencedBlock(lines, 'mermaid'));
        const written = block.split('\n');
        expect(written[0]).toBe('```mermaid');
        expect(written.at(-1)).toBe('```');
        const inner = written.slice(1, -1);
        // The channel only breaks mentions and issue links with a zero-width space (labels hold none of their own).
        expect(inner.map((line) => line.replaceAll('\u200b', ''))).toEqual(lines);
        for (const line of inner) {
          expect(line).not.toMatch(/^\s*(%%|click\b|style\b|classDef\b|linkStyle\b|class\b|```)/);
          expect(line).not.toContain('`');
        }
        const parsed = parse(lines);
        const want = expected(flow);
        expect([...parsed.nodes.keys()]).toEqual(want.nodes);
        expect(parsed.edges).toEqual(want.edges);
        for (const s of flow.steps.slice(0, MERMAID_STEPS_MAX))
          expect(parsed.nodes.get(`s${s.index}`)!.lines[1]).toBe(shown(s.name));
        expect(parsed.nodes.get('t')!.lines[1]).toBe(shown(trigger));
      }),
      { numRuns: runs(150) },
    );
  });
});

describe('mermaidText', () => {
  it('cuts long text to the cap with an ellipsis, counted in characters', () => {
    expect(mermaidText('é'.repeat(100), 10)).toBe(`${'é'.repeat(9)}…`);
    expect(mermaidText('short', 10)).toBe('short');
  });

  it('writes named codes only: the Markdown channel leaves them alone', () => {
    const text = mermaidText('#1 "a" <b> & c; 50%');
    expect(text).toBe('#num;1 #quot;a#quot; #lt;b#gt; #amp; c#semi; 50#percnt;');
    expect(neutralizeMarkdown(text)).toBe(text);
  });
});
