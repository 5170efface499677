/**
 * Markdown for a pull-request comment (`--format markdown`) and for `$GITHUB_STEP_SUMMARY`, for a reviewer: the
 * summary first (with the stamp: commit, time, target), then one `<details>` per workflow: the deletes first and
 * expanded, then those that need a person, expanded, then the creates, collapsed; then the in-sync ones in one collapsed list; then the next steps
 * ("Before merging: …", "After merging, main's sync will …"), with the `--target` the command was given.
 */

import type { SyncResult } from '../../apply/result.js';
import { SYNC_OUTCOMES } from '../../apply/result.js';
import { PLAN_ACTIONS } from '../../plan/actions.js';
import { commandLine } from '../../plan/command-line.js';
import type { CreatePreview, Plan } from '../../plan/types.js';
import { buildMarkdownDocument, neutralizeMarkdown } from '../channel.js';
import { escapeMarkdown, STEP_SUMMARY_MAX_BYTES, utf8Length } from '../github-summary.js';
import { type FitBlock, fitMarkdown } from './markdown-fit.js';
import { flowchartPart, type OptionalPart, renderedPart } from './markdown-flow.js';
import { escapeHtml, escapeProse, fencedBlock, inlineCode } from './markdown-text.js';
import { buildNextSteps } from './next-steps-markdown.js';
import { previewParts } from './preview-text.js';
import { type CommentContext, renderStampLine } from './stamp.js';
import {
  diffLines,
  fileAt,
  MAX_CHANGES_LISTED,
  NOT_SET,
  PROJECTION_NOTE,
  summarizeChange,
  truncateText,
} from './text.js';
import { activeLine, MAX_STEP_TEXT } from './update-text.js';
import type { PlanRenderOptions } from './view.js';
import { buildPlanView, buildSyncView, type ReportView, type ViewEntry } from './view.js';

/** First line of every plan comment: finds wfsync's comments among a PR's. */
export const PR_COMMENT_MARKER = '<!-- wfsync-plan -->';
/** First line of a sync result rendered as Markdown (a different comment from the plan's). */
export const SYNC_COMMENT_MARKER = '<!-- wfsync-sync -->';

/** Second line of a plan comment: the comment for one target (two targets, two comments). */
export function prCommentMarker(target: string): string {
  return targetMarker('wfsync-plan', target);
}

/** GitHub rejects a comment body over 65,536 characters; stay under with a margin. */
export const PR_COMMENT_MAX_CHARS = 65_000;

/** Longest message or next step kept in Markdown (characters). */
const MAX_MESSAGE_LENGTH = 2_000;
const MAX_DIAGNOSTICS_LISTED = 20;

/** What the plan and sync comments are told: the render options, the stamp and the `--target` given. */
export type MarkdownOptions = Omit<PlanRenderOptions, 'color'> & CommentContext;

/** What a step summary is told: the comment's context, and the run its suggested commands repeat. */
export type StepSummaryContext = CommentContext & Pick<PlanRenderOptions, 'run'>;

/** The markers of a plan comment: the plan's, then the target's when it is known. */
export function planCommentMarkers(target: string | undefined): string[] {
  return target === undefined ? [PR_COMMENT_MARKER] : [PR_COMMENT_MARKER, prCommentMarker(target)];
}

/** The markers of a sync comment: the sync's, then the target's when it is known. */
export function syncCommentMarkers(target: string | undefined): string[] {
  return target === undefined
    ? [SYNC_COMMENT_MARKER]
    : [SYNC_COMMENT_MARKER, targetMarker('wfsync-sync', target)];
}

export function renderPlanMarkdown(plan: Plan, options: MarkdownOptions): string {
  const view = buildPlanView(plan, options.command, options.run);
  const markers = planCommentMarkers(plan.target.name);
  return renderViewMarkdown(view, { ...options, markers, nextSteps: 'plan', ...COMMENT_BUDGET });
}

export function renderSyncMarkdown(result: SyncResult, options: MarkdownOptions): string {
  const view = buildSyncView(result, options.run);
  const markers = syncCommentMarkers(result.plan.target.name);
  return renderViewMarkdown(view, { ...options, markers, nextSteps: 'sync', ...COMMENT_BUDGET });
}

/** Markdown for `$GITHUB_STEP_SUMMARY`: the comment's content, no marker, within the step summary's 1 MiB. */
export function renderPlanStepSummary(plan: Plan, context: StepSummaryContext = {}): string {
  const view = buildPlanView(plan, 'plan', context.run);
  return renderViewMarkdown(view, { ...context, markers: [], nextSteps: 'plan', ...STEP_SUMMARY_BUDGET });
}

export function renderSyncStepSummary(result: SyncResult, context: StepSummaryContext = {}): string {
  const view = buildSyncView(result, context.run);
  return renderViewMarkdown(view, { ...context, markers: [], nextSteps: 'sync', ...STEP_SUMMARY_BUDGET });
}

interface Budget {
  limit: number;
  measure: (text: string) => number;
  /** Where the limit comes from, for the notes. */
  where: string;
}

const COMMENT_BUDGET: Budget = {
  limit: PR_COMMENT_MAX_CHARS,
  measure: (text) => text.length,
  where: 'a comment',
};
const STEP_SUMMARY_BUDGET: Budget = {
  limit: STEP_SUMMARY_MAX_BYTES,
  measure: utf8Length,
  where: 'a step summary',
};

export interface ViewMarkdownOptions extends Budget, CommentContext, Pick<PlanRenderOptions, 'run'> {
  markers: readonly string[];
  showIgnored?: boolean;
  /** The closing next steps: for a plan (a reviewer's), for a sync result, or none. */
  nextSteps?: 'plan' | 'sync';
}

export function renderViewMarkdown(view: ReportView, options: ViewMarkdownOptions): string {
  const planCommand = commandLine(options.run, 'plan', { withBase: true });
  const local =
    view.command === 'sync' ? 'the sync log' : `the plan artifact, or run \`${planCommand}\` locally`;
  // What merging deletes comes first, open: it cannot be taken back by a later change. Then what a person must act
  // on, open; then what merging updates, open too (it changes what the service sends), then what it creates; in-sync
  // ones last, in one list.
  const labelled = (labels: ReadonlySet<string>) => view.entries.filter((entry) => labels.has(entry.label));
  const [deletes, updates, creates] = [labelled(DELETES), labelled(UPDATES), labelled(CREATES)];
  const people = view.entries.filter((entry) => ![DELETES, UPDATES, CREATES].some((l) => l.has(entry.label)));
  const details = [
    ...[...deletes, ...people, ...updates].map((entry) =>
      expanded(detailsBlock(entry, options.where, planCommand)),
    ),
    ...creates.map((entry) => detailsBlock(entry, options.where, planCommand)),
  ];
  const footer = options.nextSteps && buildNextSteps(view, { ...options, kind: options.nextSteps });
  return fitMarkdown({
    // The markdown channel (channel.ts) on each part before fitting, so the sizes measured are the sizes written.
    head: buildMarkdownDocument(options.markers, buildHead(view, options)),
    details: details.map(neutralizeBlock),
    inSync: view.inSync.length > 0 ? neutralizeBlock(inSyncBlock(view.inSync)) : undefined,
    ...(footer ? { footer: neutralizeMarkdown(footer) } : {}),
    notice: (n) =>
      `_… ${n} ${n === 1 ? 'workflow' : 'workflows'} not shown to fit ${options.where}; see ${local}._`,
    limit: options.limit,
    measure: options.measure,
  });
}

/** The labels of a delete, an update and a create: the plan's and the sync result's. */
const labelsOf = (...rows: ReadonlyArray<{ label: string }>) => new Set(rows.map((row) => row.label));
const DELETES = labelsOf(PLAN_ACTIONS.delete, SYNC_OUTCOMES.deleted);
const UPDATES = labelsOf(PLAN_ACTIONS.update, SYNC_OUTCOMES.updated);
const CREATES = labelsOf(PLAN_ACTIONS.create, SYNC_OUTCOMES.created);

/** A detail block shown open: the reader sees what needs them without a click. */
function expanded(block: FitBlock): FitBlock {
  return eachForm(block, (text) => text.replace(/^<details>/, '<details open>'));
}

function neutralizeBlock(block: FitBlock): FitBlock {
  return eachForm(block, neutralizeMarkdown);
}

function eachForm(block: FitBlock, map: (text: string) => string): FitBlock {
  return {
    full: map(block.full),
    lite: map(block.lite),
    ...(block.steps === undefined ? {} : { steps: block.steps.map(map) }),
  };
}

function targetMarker(kind: string, target: string): string {
  // Percent-encoding keeps `-->` (and anything else) from ending the comment early.
  return `<!-- ${kind} target=${encodeURIComponent(target)} -->`;
}

function buildHead(view: ReportView, options: ViewMarkdownOptions): string {
  const name = escapeMarkdown(truncateText(view.target.name, 100)).replace(/#/g, '\\#');
  const lines = [`## ${view.title} · ${name}`, ''];
  const stamp = renderStampLine(options.stamp, view.target.name);
  if (stamp !== undefined) lines.push(stamp, '');
  lines.push(
    `Service: ${inlineCode(truncateText(view.target.baseUrl, 200))}`,
    '',
    `**${escapeMarkdown(view.closing)}**`,
  );
  if (view.notes.length > 0) lines.push('', view.notes.map(escapeMarkdown).join('<br>\n'));
  lines.push('', '| Action | Count |', '| --- | ---: |');
  for (const row of view.counts)
    lines.push(`| ${escapeMarkdown(`${row.symbol} ${row.label}`)} | ${row.count} |`);
  lines.push(`| **Total** | **${view.total}** |`);
  if (options.showIgnored) {
    const fields = view.ignoredFields.map((f) => inlineCode(f)).join(', ');
    lines.push('', `Ignored (server-managed, never compared): ${fields === '' ? '(none)' : fields}`);
  }
  return lines.join('\n');
}

/** `planCommand`: the exact `wfsync plan` that shows what was left out. */
function detailsBlock(entry: ViewEntry, where: string, planCommand: string): FitBlock {
  const file = entry.file === undefined ? '' : ` · ${escapeHtml(fileAt(entry.file, entry))}`;
  const summary = `<summary>${escapeHtml(`${entry.symbol} ${entry.label}`)} · <code>${escapeHtml(entry.identifier)}</code>${file}</summary>`;
  const before: string[] = [];
  if (entry.remoteId !== undefined) before.push(`Service id: ${inlineCode(entry.remoteId)}`);
  if (entry.message !== undefined) {
    before.push(
      `**${escapeMarkdown(entry.label)}:** ${escapeMarkdown(truncateText(entry.message, MAX_MESSAGE_LENGTH))}`,
    );
  }
  if (entry.diagnostics.length > 0) before.push(diagnosticList(entry));
  if (entry.changes.length > 0) before.push(changeList(entry));
  if (entry.preview !== undefined) before.push(previewList(entry.preview));
  const update = updateList(entry);
  if (update !== undefined) before.push(update);
  const after =
    entry.next === undefined || entry.next === ''
      ? []
      : [`**Next:** ${escapeProse(truncateText(entry.next, MAX_MESSAGE_LENGTH))}`];
  const open = ['<details>', summary];
  const close = '</details>';
  const hasDiff = entry.diff !== undefined && entry.diff !== '';
  const note = entry.diffKind === 'projection' ? [`_${escapeMarkdown(PROJECTION_NOTE)}:_`] : [];
  const diff: OptionalPart | undefined = hasDiff
    ? {
        shown: [...note, fencedBlock(diffLines(entry.diff ?? ''), 'diff')].join('\n\n'),
        omitted: `_Diff left out to fit ${where}; run \`${planCommand}\` to see it._`,
      }
    : undefined;
  const flow = entry.flow === undefined ? undefined : flowchartPart(entry.flow, where);
  const rendered = entry.rendered === undefined ? undefined : renderedPart(entry.rendered, where);
  // A blank line after </summary> and before </details>, or GitHub renders the Markdown inside as plain text.
  const join = (keep: { flow: boolean; rendered: boolean; diff: boolean }) => {
    const pick = (part: OptionalPart | undefined, shown: boolean) =>
      part === undefined ? [] : [shown ? part.shown : part.omitted];
    const middle = [...pick(rendered, keep.rendered), ...pick(flow, keep.flow), ...pick(diff, keep.diff)];
    return [open.join('\n'), ...before, ...middle, ...after, close].join('\n\n');
  };
  // Leanest last: the flowchart goes first, then the rendered messages, then the diff (markdown-fit.ts takes one
  // step at a time, for every block, before the next).
  return {
    full: join({ flow: true, rendered: true, diff: true }),
    steps: [
      join({ flow: false, rendered: true, diff: true }),
      join({ flow: false, rendered: false, diff: true }),
    ],
    lite: join({ flow: false, rendered: false, diff: false }),
  };
}

function changeList(entry: ViewEntry): string {
  const lines = ['Fields (service → file):', ''];
  for (const change of entry.changes.slice(0, MAX_CHANGES_LISTED)) {
    const { path, actual, desired, note } = summarizeChange(change);
    const more = note === '' ? '' : ` ${escapeMarkdown(note)}`;
    lines.push(`- ${inlineCode(path)}: ${valueCode(actual)} → ${valueCode(desired)}${more}`);
  }
  const more = entry.changes.length - MAX_CHANGES_LISTED;
  if (more > 0) lines.push(`- … and ${more} more (see the diff)`);
  return lines.join('\n');
}

/** What a create makes, as a short list (every name, subject and id in a code span). */
function previewList(preview: CreatePreview): string {
  const parts = previewParts(preview);
  const codes = (items: readonly string[]) => items.map((item) => inlineCode(item)).join(', ');
  return [
    'Will create:',
    '',
    `- Trigger: ${inlineCode(parts.trigger)} · group: ${inlineCode(parts.group)}`,
    `- ${escapeMarkdown(parts.payloadLabel)}: ${codes(parts.payload)} · subscriber: ${codes(parts.subscriber)}`,
    `- Steps: ${codes(parts.steps)}`,
  ].join('\n');
}

/** What an update writes: its steps as matched to the service's, the status, the notes. */
function updateList(entry: ViewEntry): string | undefined {
  const steps = entry.steps ?? [];
  const active = activeLine(entry.active);
  const notes = entry.notes ?? [];
  if (steps.length === 0 && active === undefined && notes.length === 0) return undefined;
  const lines = [entry.label === PLAN_ACTIONS.update.label ? 'Will update:' : 'Updated:', ''];
  if (steps.length > 0) {
    const listed = steps.map((step) => {
      const cut = (text: string) => truncateText(text, MAX_STEP_TEXT);
      const was = step.match === 'replaced' ? ` (was ${escapeMarkdown(cut(step.from ?? ''))})` : '';
      return `${inlineCode(cut(step.name))} ${escapeMarkdown(cut(step.channel))} **${step.match}**${was}`;
    });
    lines.push(`- Steps (matched by name and channel, then position): ${listed.join(' · ')}`);
  }
  if (active !== undefined) lines.push(`- ${escapeMarkdown(active)}`);
  for (const note of notes) lines.push(`- Note: ${escapeProse(truncateText(note, MAX_MESSAGE_LENGTH))}`);
  return lines.join('\n');
}

function valueCode(value: string): string {
  return value === NOT_SET ? `_${NOT_SET}_` : inlineCode(value);
}

function diagnosticList(entry: ViewEntry): string {
  const lines = entry.diagnostics.slice(0, MAX_DIAGNOSTICS_LISTED).map((d) => {
    const where = inlineCode(`${d.file}:${d.line}:${d.column}`);
    const message = escapeProse(truncateText(d.message, MAX_MESSAGE_LENGTH));
    return `- ${where} **${d.severity}** ${message} (${inlineCode(d.code)})`;
  });
  const more = entry.diagnostics.length - MAX_DIAGNOSTICS_LISTED;
  if (more > 0) lines.push(`- … and ${more} more problems`);
  return lines.join('\n');
}

function inSyncBlock(entries: readonly ViewEntry[]): FitBlock {
  const summary = `<summary>${escapeHtml(`✔ ${entries.length} in sync`)}</summary>`;
  const list = entries.map((e) => {
    const file = e.file === undefined ? '' : ` · ${escapeMarkdown(e.file)}`;
    return `- ${inlineCode(e.identifier)}${file}`;
  });
  return {
    full: [`<details>\n${summary}`, list.join('\n'), '</details>'].join('\n\n'),
    lite: `${entries.length === 1 ? '1 workflow' : `${entries.length} workflows`} in sync (not listed, to save space).`,
  };
}
