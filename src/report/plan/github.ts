/**
 * `--format github` for plan and sync: one annotation per workflow needing attention (and one per diagnostic the
 * service's answer was mapped to), then the human output without color for the log.
 *
 * ```
 * ::warning file=workflows/welcome.yaml,line=6,endLine=6,title=wfsync plan (drifted)::welcome: drifted%0Acritical: true → false%0A…
 * ```
 */

import type { SyncResult } from '../../apply/result.js';
import type { Plan } from '../../plan/types.js';
import {
  ANNOTATION_OF_SEVERITY,
  capAnnotations,
  escapeData,
  escapeProperty,
  formatAnnotation,
} from '../github.js';
import { renderViewHuman } from './human.js';
import { previewLines } from './preview-text.js';
import { formatChange, truncateText } from './text.js';
import {
  type AnnotationKind,
  buildPlanView,
  buildSyncView,
  type PlanRenderOptions,
  type ReportView,
  type ViewEntry,
} from './view.js';

/** Field changes quoted in one annotation; the log below has them all. */
const CHANGES_PER_ANNOTATION = 5;
const MAX_MESSAGE_LENGTH = 1_000;

type GithubOptions = Omit<PlanRenderOptions, 'color'>;

export function renderPlanGithub(plan: Plan, options: GithubOptions): string {
  return renderViewGithub(buildPlanView(plan, options.command, options.run), options);
}

export function renderSyncGithub(result: SyncResult, options: GithubOptions): string {
  return renderViewGithub(buildSyncView(result, options.run), options);
}

interface Annotation {
  kind: AnnotationKind;
  text: string;
}

export function renderViewGithub(
  view: ReportView,
  options: Pick<GithubOptions, 'showIgnored' | 'commandMark'>,
): string {
  const mark = options.commandMark?.() ?? '';
  const annotations: Annotation[] = [];
  for (const entry of view.entries) {
    annotations.push({ kind: entry.annotation, text: mark + entryAnnotation(entry, view) });
    for (const d of entry.diagnostics)
      annotations.push({ kind: ANNOTATION_OF_SEVERITY[d.severity], text: formatAnnotation(d, mark) });
  }
  // The log below lists in full what the annotations leave out.
  const { shown, notice } = capAnnotations(annotations, {
    kindOf: (a) => a.kind,
    kinds: ['error', 'warning', 'notice'],
    where: 'the log',
    mark,
  });
  const human = renderViewHuman(view, { color: false, showIgnored: options.showIgnored });
  // The log part holds text from outside at line starts: only marked lines pass the output channel as commands.
  return [...shown.map((a) => a.text), ...notice, human].join('\n');
}

/** `::warning file=…,title=wfsync plan (drifted)::welcome: drifted%0A<changes>%0ANext: …` */
function entryAnnotation(entry: ViewEntry, view: ReportView): string {
  const props: string[] = [];
  if (entry.file !== undefined && entry.file !== '') {
    props.push(`file=${escapeProperty(entry.file)}`);
    // On the changed lines of the file: the first hunk's.
    if (entry.line !== undefined) props.push(`line=${entry.line}`, `endLine=${entry.endLine ?? entry.line}`);
  }
  props.push(`title=${escapeProperty(`${view.title} (${entry.label})`)}`);
  const lines = [`${entry.identifier}: ${entry.label}`];
  if (entry.message !== undefined) lines.push(truncateText(entry.message, MAX_MESSAGE_LENGTH));
  for (const change of entry.changes.slice(0, CHANGES_PER_ANNOTATION)) lines.push(formatChange(change));
  if (entry.changes.length > CHANGES_PER_ANNOTATION) {
    lines.push(`… and ${entry.changes.length - CHANGES_PER_ANNOTATION} more changes (see the log)`);
  }
  if (entry.preview !== undefined) lines.push(...previewLines(entry.preview));
  if (entry.next !== undefined && entry.next !== '') lines.push(`Next: ${entry.next}`);
  // Line breaks survive as %0A; the output channel shows controls and escape codes as symbols.
  return `::${entry.annotation} ${props.join(',')}::${escapeData(lines.join('\n'))}`;
}
