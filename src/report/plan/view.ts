/**
 * One view of a plan or a sync result that every text format (human, markdown, github) renders: which items need a
 * person, how each is labelled, the count rows and the closing sentence. Built once so the formats cannot disagree.
 */

import { SYNC_OUTCOME_NAMES, SYNC_OUTCOMES, type SyncResult, syncOutcomeMeta } from '../../apply/result.js';
import type { Diagnostic } from '../../diagnostic.js';
import { PLAN_ACTION_NAMES, PLAN_ACTIONS, type StatusMeta, type Tone } from '../../plan/actions.js';
import { commandLine, type RunContext } from '../../plan/command-line.js';
import type { FieldChange, Plan, PlanItemFields } from '../../plan/types.js';
import { plural } from '../../text.js';

export type { AnnotationKind, Tone } from '../../plan/actions.js';

/** A row of the plan's actions or sync's outcomes: how it reads, and whether it needs a person. */
interface StatusRow extends StatusMeta {
  needsPerson: boolean;
}

/** How a status reads, from its table's row. */
function shown(row: StatusMeta): StatusMeta {
  const { symbol, label, tone, annotation } = row;
  return { symbol, label, tone, annotation };
}

/** What the plan and sync renderers are told. */
export interface PlanRenderOptions {
  /** ANSI colors; only the human format uses them (github's log part never does). */
  color: boolean;
  /** List the server-managed fields that are never compared. */
  showIgnored?: boolean;
  /** The command printing: `sync` prints its plan without telling the reader to run sync. */
  command: 'plan' | 'sync';
  /**
   * Asked for the mark to put in front of each workflow command the github format makes (see report/channel.ts),
   * only by the renderers that make some (the CLI's is made on first use); none by default.
   */
  commandMark?: () => string;
  /**
   * What the commands the output suggests must repeat of the run (its target, config and state file): made by the
   * CLI from argv, the environment and the config, never read here. None: the bare `wfsync <command>`.
   */
  run?: RunContext;
}

/**
 * What a plan item carries for a reviewer: the line of its first change, what its diff compares, a create's preview,
 * the flow of its steps, its changed messages rendered.
 */
type ReviewDetails = Pick<
  PlanItemFields,
  | 'line'
  | 'endLine'
  | 'diffKind'
  | 'preview'
  | 'flow'
  | 'rendered'
  | 'steps'
  | 'notes'
  | 'active'
  | 'sourceId'
>;

export interface ViewEntry extends StatusMeta, ReviewDetails {
  identifier: string;
  file?: string;
  remoteId?: string;
  /** The id state records (shown when the service's is unknown: missing remotely, orphaned). */
  stateId?: string;
  /** Why it failed (plan `error`, sync `failed`…). */
  message?: string;
  changes: FieldChange[];
  diff?: string;
  diagnostics: Diagnostic[];
  next?: string;
}

export interface CountRow {
  /** The PlanAction or SyncOutcome counted. */
  key: string;
  symbol: string;
  label: string;
  tone: Tone;
  /** The workflows counted wait on a person (the statuses plan and sync share). */
  needsPerson: boolean;
  /** The label takes a plural (StatusMeta). */
  noun?: true;
  count: number;
}

export interface ReportView {
  command: 'plan' | 'sync';
  /** `wfsync plan` / `wfsync sync`: what produced the result. */
  title: string;
  target: { name: string; baseUrl: string };
  /** Everything but in-sync, in the input's order: each gets its own block. */
  entries: ViewEntry[];
  /** In sync: one compact line each. */
  inSync: ViewEntry[];
  /** Non-zero counts, in summary order. */
  counts: CountRow[];
  total: number;
  /** `Plan: 2 to create, 7 in sync, 1 drifted. Run "wfsync sync" to create.` */
  closing: string;
  /** Further sentences after the closing line (attention needed, interrupted…). */
  notes: string[];
  ignoredFields: string[];
}

/** The view of a plan. `command` is the command printing it: `sync` prints its plan without telling to run sync. */
export function buildPlanView(plan: Plan, command: 'plan' | 'sync', run?: RunContext): ReportView {
  const s = plan.summary;
  const counts = countRows(
    PLAN_ACTION_NAMES.map((action) => [action, PLAN_ACTIONS[action]]),
    (action) => s[PLAN_ACTIONS[action].summaryKey],
  );
  let closing: string;
  if (counts.length === 0) closing = 'No changes. No workflow definitions and nothing in state.';
  else if (counts.every((row) => row.key === 'in-sync'))
    closing = `No changes. ${plural(s.inSync, 'workflow')} in sync.`;
  else {
    // A promoted target's plan promotes where others create (a delete it promotes carries `sourceId`): its first
    // count says so.
    const promoted =
      s.promote > 0 || plan.items.some((i) => i.action === 'delete' && i.sourceId !== undefined);
    const verb = promoted ? 'promote' : 'create';
    const parts = [`${s[verb]} to ${verb}`, `${s.inSync} in sync`];
    if (s.delete > 0) parts.splice(1, 0, `${s.delete} to delete`);
    if (s.update > 0) parts.splice(1, 0, `${s.update} to update`);
    for (const row of counts) {
      if (row.key !== verb && row.key !== 'update' && row.key !== 'delete' && row.key !== 'in-sync')
        parts.push(countPhrase(row, row.count));
    }
    const writes = [s[verb] > 0 ? verb : '', s.update > 0 ? 'update' : '', s.delete > 0 ? 'delete' : '']
      .filter(Boolean)
      .join(' and ');
    const hint =
      writes !== '' && command === 'plan' ? ` Run "${commandLine(run, 'sync')}" to ${writes}.` : '';
    closing = `Plan: ${parts.join(', ')}.${hint}`;
  }
  const notes = attentionNotes(counts);
  if (s.error > 0)
    notes.push(`${plural(s.error, 'workflow')} could not be checked on the service (see each error).`);
  const entries = plan.items.map((planned) => {
    const item: PlanItemFields = planned;
    return {
      ...shown(PLAN_ACTIONS[item.action]),
      ...item,
      message: item.error,
      diagnostics: item.diagnostics ?? [],
    };
  });
  return assemble(command, plan, entries, counts, closing, notes);
}

/** The view of a sync result: same layout, outcomes instead of actions. */
export function buildSyncView(result: SyncResult, run?: RunContext): ReportView {
  const s = result.summary;
  // Some always listed, so scripts and eyes find them in the same place; the rest only when they happened.
  const parts = SYNC_OUTCOME_NAMES.filter(
    (outcome) => syncOutcomeMeta(outcome).alwaysCounted || s[outcome] > 0,
  ).map((outcome) => countPhrase(syncOutcomeMeta(outcome), s[outcome]));
  const counts = countRows(
    SYNC_OUTCOME_NAMES.map((outcome) => [outcome, SYNC_OUTCOMES[outcome]]),
    (outcome) => s[outcome],
  );

  const notes: string[] = [];
  if (result.interrupted) {
    notes.push(
      `Interrupted: no create was started after the signal. Run "${commandLine(run, 'sync')}" again to finish.`,
    );
  }
  if (result.status === 'auth') {
    notes.push('Stopped: the service refused the API key for this target (see the failure above).');
  } else if (result.status === 'rate-limited') {
    notes.push(
      `Stopped: the service kept rate-limiting requests. Run "${commandLine(run, 'sync')}" again later.`,
    );
  }
  notes.push(...attentionNotes(counts));
  const entries = result.outcomes.map((item) => ({
    ...shown(SYNC_OUTCOMES[item.outcome]),
    ...item,
    message: withoutRepeatedId(item.message, item.remoteId),
    changes: item.changes ?? [],
    diagnostics: item.diagnostics ?? [],
  }));
  return assemble('sync', result.plan, entries, counts, `Sync: ${parts.join(', ')}.`, notes);
}

/** What both views build the same way: in-sync entries apart from the rest, the total, the target. */
function assemble(
  command: 'plan' | 'sync',
  plan: Plan,
  all: ViewEntry[],
  counts: CountRow[],
  closing: string,
  notes: string[],
): ReportView {
  const inSync = (entry: ViewEntry) => entry.label === PLAN_ACTIONS['in-sync'].label;
  return {
    command,
    title: `wfsync ${command}`,
    target: plan.target,
    entries: all.filter((entry) => !inSync(entry)),
    inSync: all.filter(inSync),
    counts,
    total: counts.reduce((sum, row) => sum + row.count, 0),
    closing,
    notes,
    ignoredFields: plan.ignoredFields,
  };
}

/** The table's rows with a count, in its order. */
function countRows<K extends string>(
  rows: ReadonlyArray<readonly [K, StatusRow]>,
  count: (key: K) => number,
): CountRow[] {
  return rows
    .map(([key, row]) => {
      const { symbol, label, tone, needsPerson, noun } = row;
      return { key, symbol, label, tone, needsPerson, ...(noun ? { noun } : {}), count: count(key) };
    })
    .filter((row) => row.count > 0);
}

/** `2 conflicts`, `1 error`, but `2 drifted`: only the labels that are nouns take a plural. */
function countPhrase(row: Pick<StatusMeta, 'label' | 'noun'>, count: number): string {
  return row.noun ? plural(count, row.label) : `${count} ${row.label}`;
}

/** The note when workflows need a person (exit 6): the statuses plan and sync share for that. */
function attentionNotes(counts: readonly CountRow[]): string[] {
  const count = counts.reduce((sum, row) => sum + (row.needsPerson ? row.count : 0), 0);
  if (count === 0) return [];
  const needs = count === 1 ? '1 workflow needs' : `${count} workflows need`;
  const them = count === 1 ? 'it' : 'them';
  return [
    `${needs} a person (exit 6): sync will not change ${them}, so a person must act (see each "next").`,
  ];
}

/** Apply's messages start with `id <id>` for progress lines; the report already shows the id on its own line. */
function withoutRepeatedId(message: string | undefined, remoteId: string | undefined): string | undefined {
  if (message === undefined || remoteId === undefined) return message;
  const prefix = `id ${remoteId}`;
  if (!message.startsWith(prefix)) return message;
  const rest = message.slice(prefix.length).replace(/^;\s*/, '');
  return rest === '' ? undefined : rest;
}
