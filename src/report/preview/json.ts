import { jsonText } from '../channel.js';
import { diagnosticJson } from '../json.js';
import type { PreviewDocument } from './document.js';

/**
 * `wfsync preview --format json` (schemas/preview-output.schema.json): the preview document, diagnostics written
 * key by key as every JSON document writes them. 2-space indent; trailing newline.
 */
export function renderPreviewJson(doc: PreviewDocument): string {
  const output = {
    schemaVersion: doc.schemaVersion,
    workflows: doc.workflows.map((workflow) => ({
      ...workflow,
      diagnostics: workflow.diagnostics.map(diagnosticJson),
    })),
  };
  return `${jsonText(output)}\n`;
}
