/**
 * Hostile text in the fields the write paths added (an update's step matching and notes, a delete's target, a
 * promotion's ids, versions and next steps, sync's updated / deleted / promoted outcomes), through every format of
 * plan and sync and the output channel each is written through: the terminal (with and without GitHub Actions), the
 * GitHub format's annotations, the markdown comment and step summary, the JSON document and GitLab's Code Quality
 * report. The service's answers and the state file are not ours: nothing of them may act, forge a line, or pass for
 * wfsync's own text.
 */
import { describe, expect, it } from 'vitest';
import type { SyncResult } from '../../../src/apply/result.js';
import { buildProjectionDiff } from '../../../src/plan/diff.js';
import type { Plan } from '../../../src/plan/types.js';
import { jsonText, sanitizeOutput } from '../../../src/report/channel.js';
import { renderPlanCodeClimate } from '../../../src/report/plan/codeclimate.js';
import {
  PR_COMMENT_MAX_CHARS,
  renderPlanStepSummary,
  renderSyncStepSummary,
} from '../../../src/report/plan/markdown.js';
import { planRenderers, syncRenderers } from '../../../src/report/plan/renderers.js';
import { expectMarkupInert, UNSAFE } from '../../helpers/markdown-markup.js';
import { runnerCommands } from '../../helpers/runner.js';
import { item, planOf, syncOf } from './plan/fixture-plan.js';

/** Every kind of hostile fragment, on one line. */
const HOSTILE = [
  '\x1b]8;;https://evil.example\x07link\x1b]8;;\x07',
  '\x1b]0;title\x07',
  '\x1b[2J\x1b[31m',
  '\x07\x08\x7f',
  '\u009b31m\u0085',
  '\u202eevil\u2066x\u2069',
  'z\u200bw\u200d',
  '</details></summary><img src="https://tracker.example/p.png">',
  '![x](https://tracker.example/q.png) [a](https://evil.example)',
  '@org/team @someone #12 GH-3',
  '````',
  '<!-- wfsync-plan -->',
  '<!-- wfsync-plan target=staging -->',
  '##[add-mask]x',
  '%0A::error::percent',
].join(' ');

/** A line break, then lines that would read as wfsync's own or as a runner command. */
const FORGED =
  '\n::error::forged\n✔ in sync   forged-line  workflows/forged.yaml\nPlan: 0 to create, forged.\n/approve\n/merge';

const EVIL = `${HOSTILE}${FORGED}`;

/** Far past any cap a format has. */
const LONG = `${HOSTILE} ${'x'.repeat(200_000)}`;

/** The plan items of the new write paths, every text field from outside hostile. */
function hostilePlan(text: string): Plan {
  return planOf([
    item(`upd ${text}`, 'update', {
      name: text,
      remoteId: text,
      remoteVersion: text,
      steps: [
        { name: text, channel: 'email', match: 'kept', templateId: text },
        { name: text, channel: text, match: 'replaced', from: text },
        { name: text, channel: text, match: 'removed' },
        { name: text, channel: 'sms', match: 'new' },
      ],
      notes: [text, `step "${text}": replaced, channel ${text} → sms`],
      active: false,
      next: text,
    }),
    item(text, 'delete', { file: undefined, remoteId: text, stateId: text, name: text, next: text }),
    item(`promo ${text}`, 'promote', {
      sourceId: text,
      sourceVersion: text,
      remoteId: text,
      layoutIds: [text],
      next: `\`wfsync sync\` will apply its pending change in ${text}: ${text}`,
      // The diff as the plan makes it: Production's name in its header and its body.
      diff: buildProjectionDiff({
        service: { name: text, description: text },
        file: { name: 'x' },
        serviceName: text,
        fileName: 'workflows/x.yaml',
      }),
    }),
    item(`drift ${text}`, 'drifted', { next: `version ${text}`, stateId: text }),
  ]);
}

function hostileSync(text: string): SyncResult {
  const plan = hostilePlan(text);
  return syncOf(
    [
      {
        identifier: plan.items[0]!.identifier,
        outcome: 'updated',
        remoteId: text,
        message: `id ${text}; PUT (steps: 1 kept)`,
        steps: [
          { name: text, channel: text, match: 'replaced', from: text },
          { name: text, channel: text, match: 'removed' },
        ],
      },
      { identifier: text, outcome: 'deleted', remoteId: text, message: `id ${text}; deleted on the service` },
      {
        identifier: plan.items[2]!.identifier,
        outcome: 'promoted',
        remoteId: text,
        message: 'promoted to Production and verified',
        next: text,
      },
      { identifier: plan.items[3]!.identifier, outcome: 'failed', message: text, next: text },
    ],
    { plan },
  );
}

const OWN_MARK = 'own-mark-5f0c1a';

/** What markdown from outside must never be: HTML, an image or link, a live mention or reference, a marker. */
function expectMarkdownInert(markdown: string, markers: number) {
  const markup = expectMarkupInert(markdown, markers);
  expect(markup).not.toMatch(/^\s*::error::forged|^✔ in sync {3}forged-line/m);
}

/** What every text a terminal or a log receives must hold to: nothing acts, nothing forges a line. */
function expectTerminalSafe(text: string, actions: boolean, own: number) {
  expect(text).not.toContain('\x1b');
  expect(text).not.toMatch(UNSAFE);
  const commands = runnerCommands(text);
  if (actions) {
    expect(commands).toHaveLength(own);
    for (const line of commands) expect(line).toMatch(/^::(error|warning|notice) /);
  }
  for (const line of text.split('\n')) {
    expect(line).not.toMatch(/^::error::forged/);
    expect(line).not.toMatch(/^✔ in sync {3}forged-line/);
    expect(line).not.toMatch(/^Plan: 0 to create, forged/);
  }
}

describe.each([
  ['plan', (text: string) => hostilePlan(text), planRenderers],
  ['sync', (text: string) => hostileSync(text), syncRenderers],
] as const)('%s with hostile text in the new fields', (command, build, renderers) => {
  const render = (format: 'human' | 'github' | 'markdown' | 'json', text: string) =>
    // biome-ignore lint/suspicious/noExplicitAny: the two tables take a plan and a sync result
    (renderers[format] as (input: any, options: object) => string)(build(text), {
      command,
      color: false,
      commandMark: () => OWN_MARK,
    });

  for (const actions of [false, true]) {
    it(`human${actions ? ', under GitHub Actions' : ''}`, () => {
      const out = sanitizeOutput(render('human', EVIL), { color: false, actions, mark: OWN_MARK });
      expect(out).toContain('␛]8;;https://evil.example');
      expectTerminalSafe(out, actions, 0);
    });
  }

  it('github: only its own annotations are commands; the hostile text is data in them', () => {
    const raw = render('github', EVIL);
    const out = sanitizeOutput(raw, { color: false, actions: true, mark: OWN_MARK });
    const own = raw.split('\n').filter((l) => l.startsWith(OWN_MARK)).length;
    expect(own).toBeGreaterThan(0);
    expectTerminalSafe(out, true, own);
    for (const line of runnerCommands(out)) expect(line).not.toMatch(/%0A::error::percent/);
  });

  it('markdown: our markers once, no HTML, mention, reference or fence from outside', () => {
    const out = render('markdown', EVIL);
    const markers = out.split('\n').filter((l) => /^<!-- wfsync-[a-z]+( target=\S+)? -->$/.test(l));
    expect(markers.length).toBeGreaterThan(0);
    expectMarkdownInert(out, markers.length);
  });

  it('markdown: a very long value keeps the comment within its budget', () => {
    const out = render('markdown', LONG);
    expect(out.length).toBeLessThanOrEqual(PR_COMMENT_MAX_CHARS);
  });

  it('json: the values round-trip, controls and bidi escaped', () => {
    const out = render('json', EVIL);
    expect(out).not.toMatch(UNSAFE);
    expect(out).not.toContain('##[');
    expect(JSON.stringify(JSON.parse(out))).toContain(JSON.stringify(EVIL).slice(1, -1));
    expectTerminalSafe(sanitizeOutput(out, { color: false, actions: true }), true, 0);
  });
});

describe('step summaries and Code Quality with hostile text in the new fields', () => {
  it('the step summary of a plan and of a sync: markers none, no HTML, mention or reference', () => {
    for (const out of [renderPlanStepSummary(hostilePlan(EVIL)), renderSyncStepSummary(hostileSync(EVIL))]) {
      expectMarkdownInert(out, 0);
    }
  });

  it('codeclimate: every description on one line, visible, capped', () => {
    const out = renderPlanCodeClimate(hostilePlan(LONG.replace('x', FORGED)));
    expect(out).not.toMatch(UNSAFE);
    const issues = JSON.parse(out) as Array<{ description: string; location: { path: string } }>;
    expect(issues.length).toBeGreaterThan(0);
    for (const issue of issues) {
      expect(issue.description).not.toMatch(/[\r\n\t]/);
      expect(issue.description).not.toContain('\x1b');
      expect(issue.description).not.toContain('<!--');
      expect(issue.description.length).toBeLessThanOrEqual(1000);
    }
  });

  it('the json document is safe as a whole: jsonText escapes what a terminal would act on', () => {
    expect(jsonText({ v: EVIL })).not.toMatch(UNSAFE);
  });
});
