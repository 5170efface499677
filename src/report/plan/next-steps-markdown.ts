/**
 * The closing section of a plan or sync comment: what the reader does next. For a plan, a reviewer's: what must
 * happen before merging (workflows that need a person, workflows that could not be checked) and what main's sync
 * will do after merging. For a sync result, what is left. Suggested commands are the run's own (its target, config
 * and state file; a plan's base): `options.run`, else the `--target` given. Pure.
 */

import { PLAN_ACTIONS } from '../../plan/actions.js';
import { commandLine, type RunContext } from '../../plan/command-line.js';
import { plural } from '../../text.js';
import { escapeProse } from './markdown-text.js';
import type { CommentContext } from './stamp.js';
import { truncateText } from './text.js';
import type { PlanRenderOptions, ReportView } from './view.js';

const MAX_NAMED = 10;
/** Longest identifier named (characters). */
const MAX_NAMED_LENGTH = 100;

export interface NextStepsOptions extends CommentContext, Pick<PlanRenderOptions, 'run'> {
  kind: 'plan' | 'sync';
}

export function buildNextSteps(view: ReportView, options: NextStepsOptions): string {
  // The statuses plan and sync share that a person must act on (sync will not change those workflows).
  const people = view.counts.reduce((sum, row) => sum + (row.needsPerson ? row.count : 0), 0);
  const run: RunContext | undefined =
    options.run ?? (options.targetFlag ? { target: options.targetFlag, targetIsDefault: false } : undefined);
  const commands = { plan: commandLine(run, 'plan', { withBase: true }), sync: commandLine(run, 'sync') };
  const steps =
    options.kind === 'plan' ? planSteps(view, people, commands, run) : syncSteps(view, people, commands);
  return ['### Next steps', '', ...steps.map((step) => `- ${escapeProse(step)}`)].join('\n');
}

function planSteps(
  view: ReportView,
  people: number,
  commands: Commands,
  run: RunContext | undefined,
): string[] {
  const row = (key: string) => view.counts.find((r) => r.key === key)?.count ?? 0;
  const creates = view.entries.filter((e) => e.label === PLAN_ACTIONS.create.label).map((e) => e.identifier);
  const promotes = view.entries
    .filter((e) => e.label === PLAN_ACTIONS.promote.label)
    .map((e) => e.identifier);
  const updates = view.entries.filter((e) => e.label === PLAN_ACTIONS.update.label).map((e) => e.identifier);
  const deleting = view.entries.filter((e) => e.label === PLAN_ACTIONS.delete.label);
  const deletes = deleting.map((e) => e.identifier);
  // A promoted target deletes by applying Development's pending deletes (their `sourceId`).
  const where = deleting.some((e) => e.sourceId !== undefined)
    ? 'in Production (by applying their pending deletes in Development, nothing else)'
    : 'on the service';
  const errors = row('error');
  const sync = view.command === 'plan' ? afterMerging(run) : 'This sync';
  const steps: string[] = [];
  // First: what cannot be undone by another change.
  if (deletes.length > 0) {
    steps.push(
      `${sync} (\`${commands.sync}\`) will DELETE ${plural(deletes.length, 'workflow')} ${where}: ${named(deletes)} ` +
        '(listed first, open; their files were removed).',
    );
  }
  if (people > 0) {
    steps.push(
      `Before merging: ${plural(people, 'workflow')} ${people === 1 ? 'needs' : 'need'} a person (listed first, open): ` +
        `do what each one's "Next" says, then run the plan again. Sync will not change ${people === 1 ? 'it' : 'them'}, so ` +
        `${sync.charAt(0).toLowerCase()}${sync.slice(1)} will report ${people === 1 ? 'it' : 'them'} again until someone does.`,
    );
  }
  if (errors > 0) {
    steps.push(
      `Before merging: ${plural(errors, 'workflow')} could not be checked on the service: run \`${commands.plan}\` again.`,
    );
  }
  if (updates.length > 0) {
    steps.push(
      `${sync} (\`${commands.sync}\`) will update ${plural(updates.length, 'workflow')} (the service's copy replaced by the file's, kept steps keeping their templates): ${named(updates)}.`,
    );
  }
  if (creates.length > 0) {
    steps.push(
      `${sync} (\`${commands.sync}\`) will create ${plural(creates.length, 'workflow')}: ${named(creates)}.`,
    );
  }
  if (promotes.length > 0) {
    const by = view.command === 'plan' ? 'Once approved, ' : '';
    const verb = view.command === 'plan' ? 'will promote' : 'promotes';
    steps.push(
      `${by}\`${commands.sync}\` ${verb} ${plural(promotes.length, 'workflow')} to Production (their pending changes only): ${named(promotes)}.`,
    );
  }
  const writes = creates.length + updates.length + deletes.length + promotes.length;
  if (writes === 0 && people === 0 && errors === 0) {
    steps.push(
      view.total === 0
        ? `${sync} will have nothing to do: there are no workflow definitions.`
        : `${sync} will have nothing to do: every workflow is in sync.`,
    );
  }
  return steps;
}

/**
 * Who acts after merging. Main's sync does what this plan says only with the same writes allowed: a plan run with
 * `--allow` speaks of a sync given that flag too (its command, shown beside, carries it), not of main's sync, whose
 * CI may allow less (the target's `allow` in the config is what both read).
 */
function afterMerging(run: RunContext | undefined): string {
  return run?.allow !== undefined && run.allow.length > 0
    ? "After merging, a sync with this plan's `--allow`"
    : "After merging, main's sync";
}

function syncSteps(view: ReportView, people: number, commands: Commands): string[] {
  const row = (key: string) => view.counts.find((r) => r.key === key)?.count ?? 0;
  const unfinished = row('failed') + row('skipped');
  const steps: string[] = [];
  if (people > 0) {
    steps.push(
      `${plural(people, 'workflow')} ${people === 1 ? 'needs' : 'need'} a person (listed first, open): do what each one's ` +
        `"Next" says; sync will not change ${people === 1 ? 'it' : 'them'}.`,
    );
  }
  if (unfinished > 0) {
    steps.push(
      `${plural(unfinished, 'workflow')} ${unfinished === 1 ? 'was' : 'were'} not created: fix what each one says, then run ` +
        `\`${commands.sync}\` again (it creates only what is still missing).`,
    );
  }
  if (steps.length === 0) steps.push('Nothing left to do.');
  return steps;
}

/** The exact commands the steps suggest. */
interface Commands {
  plan: string;
  sync: string;
}

/**
 * `\`a\`, \`b\`` and `… and 3 more` past MAX_NAMED, each cut to MAX_NAMED_LENGTH: the footer always stays in the
 * comment, and a delete's identifier comes from state or the base, of any length.
 */
function named(identifiers: readonly string[]): string {
  const shown = identifiers
    .slice(0, MAX_NAMED)
    .map((id) => `\`${truncateText(id, MAX_NAMED_LENGTH).replace(/`/g, "'")}\``);
  const more = identifiers.length - MAX_NAMED;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}
