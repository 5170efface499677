/**
 * The plan artifact's previews (`plan --previews <dir>`): one standalone, script-free HTML file per created or
 * differing workflow (report/preview/html.ts), its steps rendered with the sample built from the file's variables;
 * a differing one also shows the service's version, rendered with the same sample. An index.html links them.
 * File names come from identifiers (untrusted): slugged to `[a-z0-9-]`, capped, never `index`, made unique. Pure.
 */
import type { WorkflowDefinition } from '../../generated/workflow.js';
import type { PlanAction } from '../../plan/types.js';
import { renderWorkflow, sampleData } from '../../render/index.js';
import { buildPreviewCsp } from '../preview/csp.js';
import { buildPreviewDocument, buildPreviewWorkflow, type PreviewWorkflow } from '../preview/document.js';
import { escapeHtml, escapeLabel } from '../preview/escape.js';
import { renderPreviewHtml } from '../preview/html.js';

export interface PreviewSource {
  identifier: string;
  /** The definition file (display path). */
  file: string;
  action: PlanAction;
  /** The file's version. */
  workflow: WorkflowDefinition;
  /** The service's version, for a differing workflow (plan/rendered-changes.ts: serviceDefinition). */
  service?: WorkflowDefinition;
}

export interface PreviewFile {
  /** A bare file name (`order-shipped.html`): no separator, no dot in front, `[a-z0-9-]` and `.html`. */
  name: string;
  text: string;
}

/** The index's name; no workflow's file takes it. */
export const PREVIEW_INDEX = 'index.html';
const SLUG_MAX = 80;
/** Names Windows keeps for devices, whatever the extension. */
const RESERVED = /^(con|prn|aux|nul|com[0-9]|lpt[0-9]|index)$/;

export function buildPreviewFiles(sources: readonly PreviewSource[]): PreviewFile[] {
  const taken = new Set<string>();
  const files: PreviewFile[] = [];
  const listed: Array<{ source: PreviewSource; name: string }> = [];
  for (const source of sources) {
    const name = `${uniqueSlug(source.identifier, taken)}.html`;
    const data = sampleData(source.workflow);
    const version = (workflow: WorkflowDefinition, label: string): PreviewWorkflow =>
      buildPreviewWorkflow({
        identifier: source.identifier,
        file: source.file,
        name: label,
        rendered: renderWorkflow(workflow, data),
        data,
        steps: workflow.steps,
        diagnostics: [],
      });
    const title = source.workflow.name;
    const workflows = [version(source.workflow, source.service ? `${title} (this change)` : title)];
    if (source.service) workflows.push(version(source.service, `${title} (on the service now)`));
    const text = renderPreviewHtml(buildPreviewDocument(workflows), {
      title: `wfsync plan · ${source.identifier} (${source.action})`,
    });
    files.push({ name, text });
    listed.push({ source, name });
  }
  return [...files, { name: PREVIEW_INDEX, text: indexHtml(listed) }];
}

/** `Order_Shipped!` → `order-shipped`; never empty, never a reserved name, unique among `taken` (which it extends). */
export function uniqueSlug(identifier: string, taken: Set<string>): string {
  const base =
    identifier
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, SLUG_MAX)
      .replace(/-+$/, '') || 'workflow';
  const safe = RESERVED.test(base) ? `${base}-workflow` : base;
  let slug = safe;
  for (let n = 2; taken.has(slug); n++) slug = `${safe}-${n}`;
  taken.add(slug);
  return slug;
}

function indexHtml(listed: ReadonlyArray<{ source: PreviewSource; name: string }>): string {
  const csp = buildPreviewCsp();
  const items = listed.map(
    ({ source, name }) =>
      `<li><a href="${escapeHtml(name)}">${escapeLabel(source.identifier)}</a> · ${escapeHtml(source.action)} · ${escapeLabel(source.file)}</li>`,
  );
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">`,
    '<meta name="referrer" content="no-referrer">',
    '<title>wfsync plan previews</title>',
    '</head>',
    '<body>',
    '<h1>wfsync plan previews</h1>',
    items.length === 0 ? '<p>No workflow to create or differing.</p>' : `<ul>\n${items.join('\n')}\n</ul>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
