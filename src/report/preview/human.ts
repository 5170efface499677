/**
 * `wfsync preview` (human): each step as its recipient would see it. Email as text (subject, preheader, sender, the
 * HTML read as text), SMS, push, chat and in-app text (in-app with its call to action), then the workflow's findings
 * with code frames. Every rendered string is text from outside: control characters are made visible here, before
 * any colour is added, so a template cannot pass for one of our escape sequences (the stream's channel does the
 * rest).
 */
import { sanitizeTerminal } from '../channel.js';
import { renderDiagnostics } from '../human.js';
import { createStyle, type Style } from '../style.js';
import {
  type PreviewDocument,
  type PreviewStep,
  type PreviewWorkflow,
  SILENT_STEP_TYPES,
} from './document.js';
import { htmlToText } from './html-text.js';

export interface PreviewHumanOptions {
  color: boolean;
  /** Texts of the files the diagnostics point into, for code frames. */
  sources: ReadonlyMap<string, string>;
}

const safe = (text: string): string => sanitizeTerminal(text, false);

export function renderPreviewHuman(doc: PreviewDocument, options: PreviewHumanOptions): string {
  const style = createStyle(options.color);
  const blocks = doc.workflows.map((workflow) => workflowBlock(workflow, style, options));
  return blocks.join('\n');
}

function workflowBlock(workflow: PreviewWorkflow, style: Style, options: PreviewHumanOptions): string {
  const data = workflow.preview === undefined ? '' : style.dim(` · preview "${safe(workflow.preview)}"`);
  const lines = [
    `${style.bold(safe(workflow.identifier))} ${style.dim(`(${safe(workflow.file)})`)}${data}`,
    '',
  ];
  for (const step of workflow.steps) lines.push(...stepLines(step, style), '');
  let text = `${lines.join('\n')}`;
  if (workflow.diagnostics.length > 0)
    text += renderDiagnostics(workflow.diagnostics, options.sources, options);
  return text;
}

function stepLines(step: PreviewStep, style: Style): string[] {
  const head = style.cyan(`── #${step.index} ${safe(step.name)} · ${safe(step.type)} ──`);
  if (step.error !== undefined)
    return [head, `   ${style.red('✖ the service would fail to render this step:')} ${safe(step.error)}`];
  if (SILENT_STEP_TYPES.has(step.type)) return [head, style.dim('   (no message: this step sends nothing)')];
  const fields: Array<[string, string | undefined]> = [
    ['From', step.senderName],
    ['Subject', step.subject],
    ['Preheader', step.preheader],
    ['Title', step.title],
    ['Layout', step.layout],
  ];
  const lines = [head];
  for (const [label, value] of fields) {
    if (value !== undefined && value !== '')
      lines.push(`   ${style.dim(`${label}:`.padEnd(11))}${safe(value)}`);
  }
  const body = bodyText(step);
  if (lines.length > 1 && body !== '') lines.push('');
  if (body === '') lines.push(style.dim('   (empty)'));
  else lines.push(...body.split('\n').map((line) => (line === '' ? '' : `   ${line}`)));
  lines.push(...ctaLines(step, style));
  return lines;
}

function bodyText(step: PreviewStep): string {
  const content = step.content ?? '';
  return safe(step.contentType === 'html' ? htmlToText(content) : content.trim());
}

function ctaLines(step: PreviewStep, style: Style): string[] {
  const cta = step.cta;
  if (cta === undefined) return [];
  const lines: string[] = [];
  if (cta.url !== undefined && cta.url !== '')
    lines.push(`   ${style.dim('Opens:'.padEnd(11))}${safe(cta.url)}`);
  for (const button of cta.buttons ?? [])
    lines.push(
      `   ${style.dim('Button:'.padEnd(11))}[ ${safe(button.content)} ] ${style.dim(`(${safe(button.type)})`)}`,
    );
  if (cta.label !== undefined && cta.label !== '')
    lines.push(`   ${style.dim('Action:'.padEnd(11))}${safe(cta.label)}`);
  return lines.length > 0 ? ['', ...lines] : [];
}
