import { describe, expect, it } from 'vitest';
import type { RunContext } from '../../../../src/plan/command-line.js';
import { renderPlanGithub } from '../../../../src/report/plan/github.js';
import { renderPlanHuman, renderSyncHuman } from '../../../../src/report/plan/human.js';
import {
  renderPlanMarkdown,
  renderPlanStepSummary,
  renderSyncMarkdown,
} from '../../../../src/report/plan/markdown.js';
import { renderFailureMarkdown } from '../../../../src/report/plan/markdown-failure.js';
import { buildFixtureSync, item, planOf, syncOf } from './fixture-plan.js';

/**
 * The commands the plan and sync reports suggest outside each item's `next` (closing lines, the comment's next steps)
 * come from the run's context given as data: the default target's are bare, another's name it.
 */

const STAGING: RunContext = { target: 'staging', targetIsDefault: false, base: 'origin/main' };
const DEFAULT: RunContext = { target: 'staging', targetIsDefault: true };
const commands = (text: string) => [...text.matchAll(/`(wfsync [^`]*)`/g)].map((m) => m[1]!);

describe('commands outside the items', () => {
  const plan = planOf([item('a-new', 'create'), item('f-error', 'error')]);

  it('human closing line', () => {
    expect(renderPlanHuman(plan, { color: false, command: 'plan', run: STAGING })).toContain(
      'Run "wfsync sync --target staging" to create.',
    );
    expect(renderPlanHuman(plan, { color: false, command: 'plan', run: DEFAULT })).toContain(
      'Run "wfsync sync" to create.',
    );
  });

  it("the comment's next steps: plan again with its base, sync without", () => {
    const out = renderPlanMarkdown(plan, { command: 'plan', run: STAGING });
    const steps = out.slice(out.indexOf('### Next steps'));
    expect(commands(steps)).toEqual([
      'wfsync plan --target staging --base origin/main',
      'wfsync sync --target staging',
    ]);
    // The run's context wins over the --target flag (WFSYNC_TARGET, a config's defaultTarget).
    const both = renderPlanMarkdown(plan, { command: 'plan', run: DEFAULT, targetFlag: 'staging' });
    expect(commands(both.slice(both.indexOf('### Next steps')))).toEqual(['wfsync plan', 'wfsync sync']);
    const summary = renderPlanStepSummary(plan, { run: STAGING });
    expect(commands(summary.slice(summary.indexOf('### Next steps')))).toContain(
      'wfsync sync --target staging',
    );
  });

  it('a sync result: its notes and steps', () => {
    const interrupted = syncOf([], { interrupted: true });
    expect(renderSyncHuman(interrupted, { color: false, command: 'sync', run: STAGING })).toContain(
      'Run "wfsync sync --target staging" again to finish.',
    );
    const out = renderSyncMarkdown(buildFixtureSync(), { command: 'sync', run: STAGING });
    expect(out).toContain('`wfsync sync --target staging` again (it creates only what is still missing)');
  });

  it('github: the log part closes with the exact sync', () => {
    const out = renderPlanGithub(plan, { command: 'plan', run: STAGING });
    expect(out).toContain('Run "wfsync sync --target staging" to create.');
    expect(renderPlanGithub(plan, { command: 'plan', run: DEFAULT })).toContain(
      'Run "wfsync sync" to create.',
    );
  });

  it('a failure comment quotes a --target a shell would expand', () => {
    const failure = { exitCode: 1, code: 'failed' as const, message: 'boom', diagnostics: [] };
    const out = renderFailureMarkdown(failure, {
      command: 'plan',
      markers: [],
      target: 'pre $PROD',
      targetFlag: 'pre $PROD',
    });
    expect(out).toContain("`wfsync plan --target 'pre $PROD' --verbose`");
  });
});
