import { describe, expect, it } from 'vitest';
import type { PlanAction } from '../../../../src/plan/types.js';
import { sanitizeOutput } from '../../../../src/report/channel.js';
import { ANNOTATIONS_PER_KIND } from '../../../../src/report/github.js';
import { renderPlanGithub, renderSyncGithub } from '../../../../src/report/plan/github.js';
import { renderPlanHuman } from '../../../../src/report/plan/human.js';
import { runnerCommands } from '../../../helpers/runner.js';
import { buildFixturePlan, change, diagnostic, item, planOf, syncOf, yamlDiff } from './fixture-plan.js';

const options = { command: 'plan' } as const;
const commands = (text: string) => text.split('\n').filter((l) => l.startsWith('::'));

describe('renderPlanGithub', () => {
  it('annotates each item needing attention with the kind its action calls for', () => {
    const kinds: Record<Exclude<PlanAction, 'in-sync'>, string> = {
      create: 'notice',
      update: 'notice',
      delete: 'warning',
      promote: 'notice',
      drifted: 'warning',
      'changed-locally': 'warning',
      'missing-remotely': 'warning',
      conflict: 'warning',
      orphaned: 'notice',
      error: 'error',
    };
    for (const [action, kind] of Object.entries(kinds)) {
      const out = renderPlanGithub(planOf([item('wf', action as PlanAction)]), options);
      expect(commands(out)[0], action).toMatch(
        new RegExp(`^::${kind} file=workflows/wf.yaml,title=wfsync plan \\(`),
      );
    }
    expect(commands(renderPlanGithub(planOf([item('wf', 'in-sync')]), options))).toEqual([]);
  });

  it('writes the identifier, the changes and the next step into one escaped annotation', () => {
    const plan = planOf([
      item('welcome', 'drifted', {
        file: 'dir/a,b:c.yaml',
        changes: [change('critical', '/critical', true, false)],
        next: '100% sure: change it back.',
      }),
    ]);
    expect(commands(renderPlanGithub(plan, options))).toEqual([
      '::warning file=dir/a%2Cb%3Ac.yaml,title=wfsync plan (drifted)::welcome: drifted%0Acritical: true → false%0ANext: 100%25 sure: change it back.',
    ]);
  });

  it('leaves the file out for an orphaned entry', () => {
    const plan = planOf([item('old', 'orphaned', { file: undefined, next: 'Delete it.' })]);
    expect(commands(renderPlanGithub(plan, options))).toEqual([
      '::notice title=wfsync plan (orphaned)::old: orphaned%0ANext: Delete it.',
    ]);
  });

  it('follows the annotations with the human output, without color', () => {
    const plan = buildFixturePlan();
    const out = renderPlanGithub(plan, options);
    const human = renderPlanHuman(plan, { color: false, command: 'plan' });
    expect(out.endsWith(`\n${human}`)).toBe(true);
    expect(out).not.toContain('\x1b');
  });

  it('keeps 10 annotations per kind, and one notice counts the rest (taking a notice slot)', () => {
    const items = [
      ...Array.from({ length: 12 }, (_, i) => item(`drift-${i}`, 'drifted')),
      ...Array.from({ length: 11 }, (_, i) => item(`new-${i}`, 'create')),
      ...Array.from({ length: 3 }, (_, i) => item(`err-${i}`, 'error')),
    ];
    const lines = commands(renderPlanGithub(planOf(items), options));
    expect(lines.filter((l) => l.startsWith('::warning'))).toHaveLength(ANNOTATIONS_PER_KIND);
    expect(lines.filter((l) => l.startsWith('::error'))).toHaveLength(3);
    const notices = lines.filter((l) => l.startsWith('::notice'));
    expect(notices).toHaveLength(ANNOTATIONS_PER_KIND);
    expect(notices.at(-1)).toBe(
      '::notice::2 more warnings and 2 more notices not shown as annotations; see the log',
    );
  });

  it('cannot be made to emit a workflow command through a diff or a message', () => {
    const plan = planOf([
      item('x', 'drifted', {
        // Context lines start with a space: the payload sits in them, unchanged on both sides.
        diff: yamlDiff(
          'x',
          'x.yaml',
          { a: 'x\n::add-mask::secret\n##[group]x', b: 1 },
          { a: 'x\n::add-mask::secret\n##[group]x', b: 2 },
        ),
        next: 'line\n::error::forged',
        error: '  ::set-output name=a::b',
      }),
    ]);
    // As the CLI writes it under GitHub Actions: through the channel, our own lines marked.
    const text = renderPlanGithub(plan, { ...options, commandMark: () => 'M:' });
    const out = sanitizeOutput(text, { color: false, actions: true, mark: 'M:' });
    // Only the one real annotation is a command to the runner.
    expect(runnerCommands(out)).toHaveLength(1);
    expect(out).toContain(':\uff1aadd-mask::secret');
    expect(out).not.toContain('M:');
  });
});

describe('renderSyncGithub', () => {
  it('annotates a failure and each of its diagnostics at their line', () => {
    const result = syncOf([
      {
        identifier: 'p',
        outcome: 'failed',
        file: 'workflows/p.yaml',
        message: 'Rejected.',
        diagnostics: [diagnostic()],
      },
      { identifier: 'n', outcome: 'created', file: 'workflows/n.yaml' },
      { identifier: 's', outcome: 'skipped', file: 'workflows/s.yaml' },
    ]);
    expect(commands(renderSyncGithub(result, { command: 'sync' }))).toEqual([
      '::error file=workflows/p.yaml,title=wfsync sync (failed)::p: failed%0ARejected.',
      '::error file=workflows/payment-failed.yaml,line=14,col=18,endLine=14,endColumn=31,title=wfsync (service-rejected)::Failed to extract variables: Parse error on line 1: expecting ID, got INVALID',
      '::notice file=workflows/n.yaml,title=wfsync sync (created)::n: created',
      '::warning file=workflows/s.yaml,title=wfsync sync (skipped)::s: skipped',
    ]);
  });
});
