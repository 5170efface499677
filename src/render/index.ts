/**
 * The renderer: each step of a workflow as the service renders it at send time (Handlebars with the service's
 * helpers, escaping and context), and stable sample data to render it with. PURE (no node:*, no clock, no
 * randomness; the one effect, a TZ of UTC for the span of one date-fns call off UTC, is put back: date-format.ts). The rules, and where each was learned, are in docs/rendering.md.
 */
export { checkWorkflow, renderWorkflow } from './render-workflow.js';
export { sampleData, sampleDataFromVariables, withPayload } from './sample-data.js';
export type { RenderData, RenderedStep, RenderedWorkflow, RenderFinding, RenderOptions } from './types.js';
