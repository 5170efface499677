/**
 * `wfsync preview --format html`: one standalone, script-free HTML file, also the PR's plan artifact. Emails are
 * shown in `<iframe sandbox srcdoc>` (the only place rendered HTML is rendered); every other string is escaped. A
 * Content-Security-Policy meta blocks scripts and remote loads (csp.ts). Pure.
 */
import { buildPreviewCsp } from './csp.js';
import { PREVIEW_CSS } from './css.js';
import {
  type PreviewDocument,
  type PreviewStep,
  type PreviewWorkflow,
  SILENT_STEP_TYPES,
} from './document.js';
import { escapeHtml, escapeLabel } from './escape.js';

export interface PreviewHtmlOptions {
  /** Let emails load remote images (http and https); nothing else remote ever loads. */
  allowImages?: boolean;
  /** The document's title (default: `wfsync preview`). */
  title?: string;
}

export function renderPreviewHtml(doc: PreviewDocument, options: PreviewHtmlOptions = {}): string {
  const title = options.title ?? 'wfsync preview';
  const csp = buildPreviewCsp({ allowImages: options.allowImages === true });
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeLabel(title)}</title>`,
    `<style>${PREVIEW_CSS}</style>`,
    '</head>',
    '<body>',
    `<header class="top"><h1>${escapeLabel(title)}</h1></header>`,
    '<main>',
    ...doc.workflows.map(workflowHtml),
    '</main>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

function workflowHtml(workflow: PreviewWorkflow): string {
  const preview = workflow.preview === undefined ? '' : ` · preview “${escapeLabel(workflow.preview)}”`;
  return [
    `<section class="workflow" data-identifier="${escapeLabel(workflow.identifier)}">`,
    `<h2>${escapeLabel(workflow.name)}</h2>`,
    `<div class="file">${escapeLabel(workflow.identifier)} · ${escapeLabel(workflow.file)}${preview}</div>`,
    diagnosticsHtml(workflow),
    '<div class="steps">',
    ...workflow.steps.map(stepHtml),
    '</div>',
    '</section>',
  ].join('\n');
}

function diagnosticsHtml(workflow: PreviewWorkflow): string {
  if (workflow.diagnostics.length === 0) return '';
  const items = workflow.diagnostics.map(
    (d) =>
      `<li><span class="where">${escapeLabel(`${d.file}:${d.line}:${d.column}`)}</span> ` +
      `<span class="${d.severity}">${d.severity}</span> ${escapeLabel(d.message)} ` +
      `<span class="muted">${escapeLabel(d.code)}</span></li>`,
  );
  return `<ul class="diagnostics">${items.join('')}</ul>`;
}

function stepHtml(step: PreviewStep): string {
  const heading = `<h3>#${step.index} ${escapeLabel(step.name)}<span class="type">${escapeLabel(step.type)}</span></h3>`;
  return `<article class="step ${escapeLabel(step.type)}" data-step="${step.index}">${heading}${stepBody(step)}</article>`;
}

function stepBody(step: PreviewStep): string {
  if (step.error !== undefined) return `<div class="render-error">${escapeLabel(step.error)}</div>`;
  if (SILENT_STEP_TYPES.has(step.type))
    return '<div class="silent">no message: this step sends nothing</div>';
  const text = step.content ?? '';
  const body = (cls: string) =>
    text.trim() === '' ? '<div class="empty">(empty)</div>' : `<div class="${cls}">${escapeHtml(text)}</div>`;
  switch (step.type) {
    case 'email':
      return emailHtml(step);
    case 'sms':
      return `<div class="phone">${body('bubble')}</div>`;
    case 'chat':
      return `<div class="phone">${body('bubble chat')}</div>`;
    case 'push':
      return `<div class="phone"><div class="notification"><div class="title">${escapeHtml(step.title ?? '')}</div>${body('body')}</div></div>`;
    case 'in_app':
      return `<div class="inbox">${step.title ? `<div class="notification-title"><strong>${escapeHtml(step.title)}</strong></div>` : ''}${body('body')}${ctaHtml(step)}</div>`;
    default:
      return `<pre class="text-body">${escapeHtml(text)}</pre>`;
  }
}

function emailHtml(step: PreviewStep): string {
  const meta = (
    [
      ['From', step.senderName],
      ['Subject', step.subject],
      ['Preheader', step.preheader],
      ['Layout', step.layout],
    ] as const
  )
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([label, value]) => `<dt>${label}</dt><dd>${escapeHtml(value ?? '')}</dd>`)
    .join('');
  const content = step.content ?? '';
  const body =
    step.contentType === 'text'
      ? `<pre class="text-body">${escapeHtml(content)}</pre>`
      : // The only place rendered HTML is rendered: no allow-scripts, no allow-same-origin.
        `<iframe class="email-body" sandbox="" referrerpolicy="no-referrer" title="${escapeLabel(`email: ${step.name}`)}" srcdoc="${escapeHtml(content)}"></iframe>`;
  return `${meta === '' ? '' : `<dl class="meta">${meta}</dl>`}${body}`;
}

function ctaHtml(step: PreviewStep): string {
  const cta = step.cta;
  if (cta === undefined) return '';
  const buttons = (cta.buttons ?? []).map(
    (b) => `<span class="button ${b.type === 'primary' ? 'primary' : ''}">${escapeHtml(b.content)}</span>`,
  );
  if (cta.label) buttons.push(`<span class="button primary">${escapeHtml(cta.label)}</span>`);
  const url = cta.url ? `<div class="url">opens ${escapeHtml(cta.url)}</div>` : '';
  return `${buttons.length > 0 ? `<div class="cta">${buttons.join('')}</div>` : ''}${url}`;
}
