/**
 * The terminal format of `wfsync plan` and `wfsync sync`, like `terraform plan`:
 *
 * ```
 * wfsync plan · target staging (https://api.example.com)
 *
 * ✔ in sync          order-shipped  workflows/order-shipped.yaml
 *
 * ~ drifted          welcome  workflows/welcome.yaml:6
 *     fields (service → file):
 *       critical: true → false
 *     --- service: Welcome
 *     +++ workflows/welcome.yaml
 *     @@ -3,7 +3,7 @@
 *     …
 *     next: …
 *
 * Action              Count
 * ✔ in sync               1
 * ~ drifted               1
 * Total                   2
 *
 * Plan: 0 to create, 1 in sync, 1 drifted.
 * ```
 *
 * Without `color` it adds no escape code; text from outside comes through as it is, for the output channel
 * (channel.ts) to make safe where it is written.
 */

import type { SyncResult } from '../../apply/result.js';
import type { Plan } from '../../plan/types.js';
import { renderDiagnostics } from '../human.js';
import { createStyle, type Paint, type Style } from '../style.js';
import { previewLines } from './preview-text.js';
import {
  diffLines,
  fileAt,
  formatChange,
  MAX_CHANGES_LISTED,
  messageLines,
  oneLine,
  PROJECTION_NOTE,
} from './text.js';
import { updateLines } from './update-text.js';
import type { PlanRenderOptions } from './view.js';
import { buildPlanView, buildSyncView, type ReportView, type Tone, type ViewEntry } from './view.js';

/** Up to this many in-sync workflows get a line each; more are counted on one line. */
export const MAX_IN_SYNC_LINES = 20;

const INDENT = '    ';

export function renderPlanHuman(plan: Plan, options: PlanRenderOptions): string {
  return renderViewHuman(buildPlanView(plan, options.command, options.run), options);
}

export function renderSyncHuman(result: SyncResult, options: PlanRenderOptions): string {
  return renderViewHuman(buildSyncView(result, options.run), options);
}

export function renderViewHuman(
  view: ReportView,
  options: Pick<PlanRenderOptions, 'color' | 'showIgnored'>,
): string {
  const style = createStyle(options.color);
  const target = `${view.target.name} (${view.target.baseUrl})`;
  const out = [style.bold(`${view.title} · target ${target}`), ''];

  const listed = view.inSync.length <= MAX_IN_SYNC_LINES ? view.inSync : [];
  const width = Math.max(0, ...[...listed, ...view.entries].map((e) => statusText(e).length));
  if (view.inSync.length > 0) {
    if (listed.length > 0) out.push(...listed.map((e) => headline(e, width, style)));
    else out.push(tonePaint('ok', style)(`✔ ${view.inSync.length} workflows in sync`));
    out.push('');
  }
  for (const entry of view.entries) out.push(...entryLines(entry, width, style, options.color), '');

  if (options.showIgnored) {
    const fields = view.ignoredFields.join(', ');
    out.push(style.dim(`Ignored (server-managed, never compared): ${fields === '' ? '(none)' : fields}`), '');
  }
  out.push(...countTable(view, style), '', style.bold(view.closing), ...view.notes.map((n) => style.dim(n)));
  return `${out.join('\n')}\n`;
}

function statusText(entry: Pick<ViewEntry, 'symbol' | 'label'>): string {
  return `${entry.symbol} ${entry.label}`;
}

/** `~ drifted          welcome  workflows/welcome.yaml:12` (the line of the first change, when known) */
function headline(entry: ViewEntry, width: number, style: Style): string {
  const status = tonePaint(entry.tone, style)(statusText(entry).padEnd(width));
  const file = entry.file === undefined ? '' : `  ${style.dim(oneLine(fileAt(entry.file, entry)))}`;
  return `${status}  ${style.bold(oneLine(entry.identifier))}${file}`;
}

function entryLines(entry: ViewEntry, width: number, style: Style, color: boolean): string[] {
  const out = [headline(entry, width, style)];
  // The id: what a person looks for in the dashboard.
  if (entry.remoteId !== undefined) out.push(`${INDENT}id: ${oneLine(entry.remoteId)}`);
  else if (entry.stateId !== undefined) out.push(`${INDENT}id in state: ${oneLine(entry.stateId)}`);
  if (entry.message !== undefined) {
    const [first = '', ...rest] = messageLines(entry.message);
    // A failure says so in its color; other outcomes' messages are plain notes.
    const lead = entry.tone === 'error' ? `${tonePaint(entry.tone, style)(`${entry.label}:`)} ` : '';
    out.push(`${INDENT}${lead}${first}`, ...rest.map((l) => `${INDENT}  ${l}`));
  }
  if (entry.diagnostics.length > 0) {
    // The shared diagnostic lines (`file:line:col severity message [code]`); no code frame, no blank lines.
    const text = renderDiagnostics(entry.diagnostics, new Map(), { color });
    out.push(
      ...text
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => INDENT + l),
    );
  }
  if (entry.changes.length > 0) {
    out.push(`${INDENT}fields (service → file):`);
    for (const change of entry.changes.slice(0, MAX_CHANGES_LISTED))
      out.push(`${INDENT}  ${formatChange(change)}`);
    const more = entry.changes.length - MAX_CHANGES_LISTED;
    if (more > 0) out.push(style.dim(`${INDENT}  … and ${more} more (see the diff)`));
  }
  if (entry.preview !== undefined) out.push(...previewLines(entry.preview).map((line) => INDENT + line));
  out.push(...updateLines(entry).map((line) => INDENT + line));
  if (entry.diff !== undefined && entry.diff !== '') {
    if (entry.diffKind === 'projection') out.push(style.dim(`${INDENT}${PROJECTION_NOTE}:`));
    out.push(...diffLines(entry.diff).map((line) => INDENT + paintDiffLine(line, style)));
  }
  if (entry.next !== undefined && entry.next !== '') {
    const [first = '', ...rest] = messageLines(entry.next);
    out.push(`${INDENT}${style.cyan('next:')} ${first}`, ...rest.map((l) => `${INDENT}  ${l}`));
  }
  return out;
}

function paintDiffLine(line: string, style: Style): string {
  if (line.startsWith('---') || line.startsWith('+++')) return style.bold(line);
  if (line.startsWith('@@')) return style.cyan(line);
  if (line.startsWith('-')) return style.red(line);
  if (line.startsWith('+')) return style.green(line);
  return line;
}

/** `Action | Count` as aligned text: one row per non-zero status, then the total. */
function countTable(view: ReportView, style: Style): string[] {
  const rows = view.counts.map((row) => ({
    text: statusText(row),
    count: String(row.count),
    tone: row.tone,
  }));
  const total = String(view.total);
  const labelWidth = Math.max('Action'.length, 'Total'.length, ...rows.map((r) => r.text.length));
  const countWidth = Math.max('Count'.length, total.length, ...rows.map((r) => r.count.length));
  const line = (label: string, count: string) => `${label.padEnd(labelWidth)}  ${count.padStart(countWidth)}`;
  return [
    style.dim(line('Action', 'Count')),
    ...rows.map((r) => tonePaint(r.tone, style)(line(r.text, r.count))),
    style.bold(line('Total', total)),
  ];
}

function tonePaint(tone: Tone, style: Style): Paint {
  return { add: style.green, ok: style.green, warn: style.yellow, error: style.red, muted: style.dim }[tone];
}
