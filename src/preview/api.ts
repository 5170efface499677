/**
 * The page's two questions, answered from the store: the workflows (with their steps, problems and named previews),
 * and one workflow rendered with the data the page sends (the payload editor). Pure over the store's state.
 */
import type { Diagnostic } from '../diagnostic.js';
import { isRecord } from '../json.js';
import type { PreviewWorkflow } from '../report/preview/document.js';
import {
  checkDataShape,
  type DataKind,
  type DataOverrides,
  type Json,
  parseJsonText,
} from './preview-input.js';
import { previewWorkflow } from './preview-project.js';
import type { PreviewStore, ServedStep } from './store.js';

export interface WorkflowListing {
  version: number;
  allowImages: boolean;
  workflows: Array<{
    file: string;
    identifier?: string;
    name?: string;
    broken: boolean;
    steps: ServedStep[];
    previews: string[];
    diagnostics: Diagnostic[];
  }>;
}

export function buildListing(store: PreviewStore, allowImages: boolean): WorkflowListing {
  return {
    version: store.version,
    allowImages,
    workflows: store.list().map((w) => ({
      file: w.file,
      ...(w.identifier === undefined ? {} : { identifier: w.identifier }),
      ...(w.name === undefined ? {} : { name: w.name }),
      broken: w.broken,
      steps: w.steps,
      previews: [...w.previews.keys()],
      diagnostics: w.diagnostics,
    })),
  };
}

export type RenderAnswer =
  | {
      status: 200;
      body: { version: number; broken: boolean; diagnostics: Diagnostic[]; workflow?: PreviewWorkflow };
    }
  | { status: 400 | 404; body: { error: string } };

/** A POST to /api/render: `{ file, preview?, payload?, subscriber?, events? }`. */
export function answerRender(store: PreviewStore, text: string): RenderAnswer {
  const parsed = parseJsonText(text, 'request');
  if (!('value' in parsed) || !isRecord(parsed.value))
    return { status: 400, body: { error: 'the request is not a JSON object' } };
  const request = parsed.value;
  const entry = typeof request.file === 'string' ? store.get(request.file) : undefined;
  if (entry === undefined) return { status: 404, body: { error: 'no such workflow file' } };
  const overrides: DataOverrides = {};
  for (const kind of ['payload', 'subscriber', 'events'] as DataKind[]) {
    const value = request[kind];
    if (value === undefined || value === null) continue;
    const problem = checkDataShape(kind, value, 'request');
    if (problem) return { status: 400, body: { error: problem.message } };
    (overrides as Record<string, unknown>)[kind] = value as Json;
  }
  const name = typeof request.preview === 'string' ? request.preview : undefined;
  const named = name === undefined ? undefined : entry.previews.get(name);
  const errors = entry.diagnostics.filter((d) => d.severity === 'error');
  const base = { version: store.version, broken: entry.broken, diagnostics: entry.diagnostics };
  if (entry.broken || entry.definition === undefined) return { status: 200, body: { ...base, broken: true } };
  const workflow = previewWorkflow(entry.definition, {
    overrides,
    rules: store.rulesFor(entry.file),
    ...(named === undefined || name === undefined ? {} : { preview: { name, overrides: named } }),
  });
  return {
    status: 200,
    body: {
      ...base,
      broken: errors.length > 0,
      workflow: { ...workflow, diagnostics: [...entry.diagnostics, ...workflow.diagnostics] },
    },
  };
}
