/**
 * The Markdown renderer on small views, asserted as whole strings: the head, each detail block, the caps on listed
 * changes and diagnostics (at the cap, one over, far over), the in-sync list and the notices of `fitMarkdown`.
 */
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../../../src/diagnostic.js';
import type { FieldChange } from '../../../../src/plan/types.js';
import { STEP_SUMMARY_MAX_BYTES } from '../../../../src/report/github-summary.js';
import {
  PR_COMMENT_MAX_CHARS,
  renderPlanMarkdown,
  renderPlanStepSummary,
  renderSyncMarkdown,
  renderSyncStepSummary,
  renderViewMarkdown,
  type ViewMarkdownOptions,
} from '../../../../src/report/plan/markdown.js';
import { fitMarkdown } from '../../../../src/report/plan/markdown-fit.js';
import { fencedBlock, inlineCode } from '../../../../src/report/plan/markdown-text.js';
import { MAX_CHANGES_LISTED } from '../../../../src/report/plan/text.js';
import type { ReportView, ViewEntry } from '../../../../src/report/plan/view.js';
import { change, item, planOf, syncOf } from './fixture-plan.js';

const MAX_DIAGNOSTICS_LISTED = 20;

/** A roomy budget measured in characters. */
const roomy: ViewMarkdownOptions = {
  markers: [],
  limit: 100_000,
  measure: (t) => t.length,
  where: 'a test',
};

function entry(fields: Partial<ViewEntry> = {}): ViewEntry {
  return {
    symbol: '~',
    label: 'drifted',
    tone: 'warn',
    annotation: 'warning',
    identifier: 'wf',
    changes: [],
    diagnostics: [],
    ...fields,
  };
}

function viewOf(entries: ViewEntry[], fields: Partial<ReportView> = {}): ReportView {
  return {
    command: 'plan',
    title: 'wfsync plan',
    target: { name: 't', baseUrl: 'u' },
    entries,
    inSync: [],
    counts: [],
    total: 0,
    closing: 'C.',
    notes: [],
    ignoredFields: [],
    ...fields,
  };
}

const HEAD =
  '## wfsync plan · t\n\nService: `u`\n\n**C.**\n\n| Action | Count |\n| --- | ---: |\n| **Total** | **0** |';
// A drifted workflow needs a person: its block is open.
const SUMMARY = '<details open>\n<summary>&#126; drifted · <code>wf</code></summary>';

/** The output after the fixed head, for views that leave the head alone. */
function body(view: ReportView, options: ViewMarkdownOptions = roomy): string {
  const out = renderViewMarkdown(view, options);
  expect(out.startsWith(`${HEAD}\n\n`)).toBe(true);
  return out.slice(HEAD.length + 2);
}

function changes(count: number): FieldChange[] {
  return Array.from({ length: count }, (_, i) => change(`f${i + 1}`, `/f${i + 1}`, i, i + 1));
}

function changeLines(count: number): string {
  return Array.from({ length: count }, (_, i) => `- \`f${i + 1}\`: \`${i}\` → \`${i + 1}\``).join('\n');
}

function diagnostics(count: number): Diagnostic[] {
  return Array.from({ length: count }, (_, i) => ({
    file: 'w.yaml',
    line: i + 1,
    column: 2,
    endLine: i + 1,
    endColumn: 3,
    severity: 'error',
    code: 'c',
    message: `m${i + 1}`,
    pointer: '',
  }));
}

function diagnosticLines(count: number): string {
  return Array.from({ length: count }, (_, i) => `- \`w.yaml:${i + 1}:2\` **error** m${i + 1} (\`c\`)`).join(
    '\n',
  );
}

describe('the head', () => {
  it('is the markers, title, service, closing line and count table, nothing else for an empty view', () => {
    expect(renderViewMarkdown(viewOf([]), { ...roomy, markers: ['<!-- a -->', '<!-- b -->'] })).toBe(
      `<!-- a -->\n<!-- b -->\n${HEAD}\n`,
    );
  });

  it('escapes the target name (also `#`), the closing line, notes and count labels', () => {
    const view = viewOf([], {
      target: { name: 'a#b *c* <d>', baseUrl: 'https://x`y' },
      closing: 'Plan: *1*',
      notes: ['note _one_', 'note <two>'],
      counts: [
        { key: 'drifted', symbol: '~', label: 'drifted', tone: 'warn', needsPerson: true, count: 2 },
        { key: 'error', symbol: '✖', label: 'err|or', tone: 'error', needsPerson: false, count: 1 },
      ],
      total: 3,
    });
    expect(renderViewMarkdown(view, roomy)).toBe(
      [
        '## wfsync plan · a\\#b \\*c\\* &lt;d&gt;',
        '',
        'Service: ``https://x`y``',
        '',
        '**Plan: \\*1\\***',
        '',
        'note \\_one\\_<br>\nnote &lt;two&gt;',
        '',
        '| Action | Count |',
        '| --- | ---: |',
        '| \\~ drifted | 2 |',
        '| ✖ err\\|or | 1 |',
        '| **Total** | **3** |',
        '',
      ].join('\n'),
    );
  });

  it('cuts the target name at 100 characters and the service URL at 200', () => {
    const name = 'n'.repeat(101);
    const url = 'u'.repeat(201);
    const out = renderViewMarkdown(viewOf([], { target: { name, baseUrl: url } }), roomy);
    expect(out.split('\n').slice(0, 3)).toEqual([
      `## wfsync plan · ${'n'.repeat(99)}…`,
      '',
      `Service: \`${'u'.repeat(199)}…\``,
    ]);
    const exact = renderViewMarkdown(
      viewOf([], { target: { name: name.slice(1), baseUrl: url.slice(1) } }),
      roomy,
    );
    expect(exact.split('\n').slice(0, 3)).toEqual([
      `## wfsync plan · ${'n'.repeat(100)}`,
      '',
      `Service: \`${'u'.repeat(200)}\``,
    ]);
  });

  it('lists the ignored fields only when asked, and says (none) for none', () => {
    const view = viewOf([], { ignoredFields: ['_id', '__v'] });
    expect(renderViewMarkdown(view, { ...roomy, showIgnored: true })).toBe(
      `${HEAD}\n\nIgnored (server-managed, never compared): \`_id\`, \`__v\`\n`,
    );
    expect(renderViewMarkdown(viewOf([]), { ...roomy, showIgnored: true })).toBe(
      `${HEAD}\n\nIgnored (server-managed, never compared): (none)\n`,
    );
    expect(renderViewMarkdown(view, { ...roomy, showIgnored: false })).toBe(`${HEAD}\n`);
    expect(renderViewMarkdown(view, roomy)).toBe(`${HEAD}\n`);
  });
});

describe('a detail block', () => {
  it('is only the summary when the entry has nothing else (no next, empty next)', () => {
    expect(body(viewOf([entry()]))).toBe(`${SUMMARY}\n\n</details>\n`);
    expect(body(viewOf([entry({ next: '' })]))).toBe(`${SUMMARY}\n\n</details>\n`);
    expect(body(viewOf([entry({ diff: '' })]))).toBe(`${SUMMARY}\n\n</details>\n`);
  });

  it('shows the file, the service id, the message, the next step, in that order, each escaped', () => {
    const out = body(
      viewOf([
        entry({
          label: 'fail*ed',
          file: 'a<b>&c.yaml',
          identifier: 'x`y',
          remoteId: 'id`1',
          message: 'boom <b> *x*',
          next: 'run `wfsync pull a|b` then *go*',
        }),
      ]),
    );
    expect(out).toBe(
      [
        '<details open>\n<summary>&#126; fail&#42;ed · <code>x&#96;y</code> · a&#60;b&#62;&#38;c.yaml</summary>',
        'Service id: ``id`1``',
        '**fail\\*ed:** boom &lt;b&gt; \\*x\\*',
        '**Next:** run `wfsync pull a|b` then \\*go\\*',
        '</details>\n',
      ].join('\n\n'),
    );
  });

  it('cuts the message and the next step at 2,000 characters', () => {
    const long = 'm'.repeat(2_001);
    const out = body(viewOf([entry({ message: long, next: long })]));
    expect(out).toBe(
      [SUMMARY, `**drifted:** ${'m'.repeat(1_999)}…`, `**Next:** ${'m'.repeat(1_999)}…`, '</details>\n'].join(
        '\n\n',
      ),
    );
    const exact = body(viewOf([entry({ message: long.slice(1), next: long.slice(1) })]));
    expect(exact).toBe(
      [SUMMARY, `**drifted:** ${'m'.repeat(2_000)}`, `**Next:** ${'m'.repeat(2_000)}`, '</details>\n'].join(
        '\n\n',
      ),
    );
  });

  it('lists the diagnostics before the changes, and the diff after them', () => {
    const out = body(
      viewOf([
        entry({
          diagnostics: diagnostics(1),
          changes: [
            change('a', '/a', 'x', undefined),
            change('b', '/b', undefined, 'y'),
            change('', '', 1, 2),
          ],
          diff: '===\n--- a\n+++ b\n-x\n+y\n',
          next: 'Go.',
        }),
      ]),
    );
    expect(out).toBe(
      [
        SUMMARY,
        diagnosticLines(1),
        'Fields (service → file):\n\n- `a`: `"x"` → _(not set)_\n- `b`: _(not set)_ → `"y"`\n- `(whole workflow)`: `1` → `2`',
        '```diff\n--- a\n+++ b\n-x\n+y\n```',
        '**Next:** Go.',
        '</details>\n',
      ].join('\n\n'),
    );
  });

  it('cuts a diagnostic message at 2,000 characters and escapes it as prose', () => {
    const [d] = diagnostics(1);
    const out = body(viewOf([entry({ diagnostics: [{ ...d!, message: `*${'m'.repeat(2_000)}` }] })]));
    expect(out).toBe(
      [SUMMARY, `- \`w.yaml:1:2\` **error** \\*${'m'.repeat(1_998)}… (\`c\`)`, '</details>\n'].join('\n\n'),
    );
  });
});

describe('the caps on listed changes and diagnostics', () => {
  const withChanges = (n: number) => body(viewOf([entry({ changes: changes(n) })]));
  const changeBlock = (listed: string) =>
    `${SUMMARY}\n\nFields (service → file):\n\n${listed}\n\n</details>\n`;

  it(`lists all ${MAX_CHANGES_LISTED} changes at the cap, with no "more" line`, () => {
    expect(MAX_CHANGES_LISTED).toBe(30);
    expect(withChanges(30)).toBe(changeBlock(changeLines(30)));
    expect(withChanges(1)).toBe(changeBlock(changeLines(1)));
  });

  it('counts the one change over the cap, and many over it', () => {
    expect(withChanges(31)).toBe(changeBlock(`${changeLines(30)}\n- … and 1 more (see the diff)`));
    expect(withChanges(130)).toBe(changeBlock(`${changeLines(30)}\n- … and 100 more (see the diff)`));
  });

  const withDiagnostics = (n: number) => body(viewOf([entry({ diagnostics: diagnostics(n) })]));
  const diagnosticBlock = (listed: string) => `${SUMMARY}\n\n${listed}\n\n</details>\n`;

  it(`lists all ${MAX_DIAGNOSTICS_LISTED} diagnostics at the cap, with no "more" line`, () => {
    expect(withDiagnostics(20)).toBe(diagnosticBlock(diagnosticLines(20)));
  });

  it('counts the one diagnostic over the cap, and many over it', () => {
    expect(withDiagnostics(21)).toBe(diagnosticBlock(`${diagnosticLines(20)}\n- … and 1 more problems`));
    expect(withDiagnostics(75)).toBe(diagnosticBlock(`${diagnosticLines(20)}\n- … and 55 more problems`));
  });
});

describe('the in-sync list', () => {
  const ok = (identifier: string, file?: string) =>
    entry({ identifier, file, symbol: '✔', label: 'in sync', tone: 'ok', annotation: 'notice' });

  it('names each in-sync workflow, with its file when it has one', () => {
    expect(body(viewOf([], { inSync: [ok('a', 'w/a_b.yaml'), ok('b`c')] }))).toBe(
      '<details>\n<summary>✔ 2 in sync</summary>\n\n- `a` · w/a\\_b.yaml\n- ``b`c``\n\n</details>\n',
    );
  });

  it('shrinks to a count when it does not fit: one workflow, several workflows', () => {
    const limit = `${HEAD}\n`.length + 60;
    const tight = { ...roomy, limit };
    const file = `w/${'x'.repeat(60)}.yaml`;
    expect(body(viewOf([], { inSync: [ok('a', file)] }), tight)).toBe(
      '1 workflow in sync (not listed, to save space).\n',
    );
    expect(body(viewOf([], { inSync: [ok('a', file), ok('b', file)] }), tight)).toBe(
      '2 workflows in sync (not listed, to save space).\n',
    );
  });
});

describe('fitting the budget', () => {
  const withDiff = (identifier: string) =>
    entry({ identifier, diff: `--- a\n+++ b\n-${'x'.repeat(100)}\n+y\n` });
  const summaryOf = (identifier: string) =>
    `<details open>\n<summary>&#126; drifted · <code>${identifier}</code></summary>`;

  /** The budget that fits exactly `expected` after the head. */
  const exactly = (expected: string, where = 'a box') => ({
    ...roomy,
    where,
    limit: `${HEAD}\n\n${expected}`.length,
  });

  it('replaces a diff that does not fit with a note naming where it had to fit', () => {
    const lite = `${summaryOf('a')}\n\n_Diff left out to fit a box; run \`wfsync plan\` to see it._\n\n</details>\n`;
    expect(body(viewOf([withDiff('a')]), exactly(lite))).toBe(lite);
  });

  it('counts dropped workflows in a notice: one, several; the plan and the sync point to different places', () => {
    const m = 'm'.repeat(100);
    const entries = [entry({ identifier: 'a', message: m }), entry({ identifier: 'b', message: m })];
    const block = (id: string) => `${summaryOf(id)}\n\n**drifted:** ${m}\n\n</details>`;
    const both = `${block('a')}\n\n${block('b')}\n`;
    expect(body(viewOf(entries), exactly(both))).toBe(both);
    const one = `${block('a')}\n\n_… 1 workflow not shown to fit a box; see the plan artifact, or run \`wfsync plan\` locally._\n`;
    expect(one.length).toBeLessThan(both.length);
    expect(body(viewOf(entries), exactly(one))).toBe(one);
    const none =
      '_… 2 workflows not shown to fit a box; see the plan artifact, or run `wfsync plan` locally._\n';
    expect(body(viewOf(entries), exactly(none))).toBe(none);
    const sync = '_… 2 workflows not shown to fit a box; see the sync log._\n';
    expect(body(viewOf(entries, { command: 'sync' }), exactly(sync))).toBe(sync);
  });
});

describe('the four entry points', () => {
  /** A plan whose one drifted item has a diff of `chars` characters, each `unit` long in UTF-8. */
  function planWithDiff(chars: number, unit: string) {
    return planOf([item('wf', 'drifted', { diff: `--- a\n+++ b\n+${unit.repeat(chars)}\n` })]);
  }

  it('a comment measures characters against 65,000; a step summary UTF-8 bytes against 1,000,000', () => {
    // 40,000 `€`: 40,000 characters (fits a comment) but 120,000 bytes (still fits a step summary).
    const euro = planWithDiff(40_000, '€');
    expect(renderPlanMarkdown(euro, { command: 'plan' })).toContain('```diff');
    expect(renderPlanStepSummary(euro)).toContain('```diff');
    // 70,000 ASCII characters: over a comment's 65,000, within a step summary's 1,000,000 bytes.
    const ascii = planWithDiff(70_000, 'a');
    const comment = renderPlanMarkdown(ascii, { command: 'plan' });
    expect(comment).toContain('_Diff left out to fit a comment; run `wfsync plan` to see it._');
    expect(comment.length).toBeLessThanOrEqual(PR_COMMENT_MAX_CHARS);
    expect(renderPlanStepSummary(ascii)).toContain('```diff');
    // 340,000 `€`: 340,000 characters but 1,020,000 bytes: over the step summary's budget.
    const big = renderPlanStepSummary(planWithDiff(340_000, '€'));
    expect(big).toContain('_Diff left out to fit a step summary; run `wfsync plan` to see it._');
    expect(STEP_SUMMARY_MAX_BYTES).toBe(1_000_000);
  });

  it('a step summary of a plan is the plan command’s view; a sync comment is the sync view', () => {
    const plan = planOf([item('new', 'create', { next: 'Create it.' })]);
    expect(renderPlanStepSummary(plan)).toContain(
      '**Plan: 1 to create, 0 in sync. Run "wfsync sync" to create.**',
    );
    expect(renderPlanMarkdown(plan, { command: 'sync' })).toContain('**Plan: 1 to create, 0 in sync.**');
    const result = syncOf([{ identifier: 'n', outcome: 'created', file: 'n.yaml' }]);
    const comment = renderSyncMarkdown(result, { command: 'sync', showIgnored: true });
    expect(comment).toContain('## wfsync sync · staging\n');
    expect(comment).toContain('Ignored (server-managed, never compared): `_id`');
    expect(renderPlanMarkdown(plan, { command: 'plan', showIgnored: true })).toContain(
      'Ignored (server-managed, never compared): `_id`',
    );
    expect(renderSyncStepSummary(result)).not.toContain('Ignored');
    expect(renderSyncStepSummary(result)).toContain('**Sync: 1 created');
  });
});

describe('the Markdown pieces', () => {
  it('inlineCode writes a tab as a space, and fencedBlock counts backtick runs line by line', () => {
    expect(inlineCode('a\tb')).toBe('`a b`');
    // Two lines of two backticks are runs of 2, not one run of 4: a fence of 3 is enough.
    expect(fencedBlock(['``', '``'], 'diff')).toBe('```diff\n``\n``\n```');
  });

  it('fitMarkdown drops every block when even the head and the notice do not fit, without failing', () => {
    const details = [
      { full: 'a', lite: 'a' },
      { full: 'b', lite: 'b' },
    ];
    const notice = (n: number) => `omitted ${n}`;
    expect(fitMarkdown({ head: 'HEAD', details, notice, limit: 0, measure: (t) => t.length })).toBe(
      'HEAD\n\nomitted 2\n',
    );
  });
});
