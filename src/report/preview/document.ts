/**
 * The preview document: what `wfsync preview --format json` prints, what the HTML file and the local page show, and
 * what the PR's plan artifact reuses. Pure: built from what the renderer returned and the data it was given.
 */
import type { Diagnostic } from '../../diagnostic.js';
import type {
  ErrorOutput,
  PreviewOutput,
  PreviewStep,
  PreviewWorkflow,
} from '../../generated/preview-output.js';
import { SCHEMA_VERSION } from '../../plan/schema-version.js';
import type { RenderData, RenderedStep, RenderedWorkflow } from '../../render/index.js';

/**
 * The document's parts, typed from schemas/preview-output.schema.json (through `npm run gen`): a step as its recipient
 * would see it (the rendered strings exactly as the service would produce them, the layout an email goes into, the
 * payload it was rendered with), and a workflow with the data it was rendered with and its findings.
 */
export type { PreviewStep, PreviewWorkflow };

export type PreviewDocument = Exclude<PreviewOutput, ErrorOutput>;

export interface PreviewWorkflowInput {
  identifier: string;
  file: string;
  name: string;
  rendered: RenderedWorkflow;
  data: RenderData;
  diagnostics: Diagnostic[];
  preview?: string;
  /** The definition's steps, by the rendered steps' index: what an email step's `layoutId` says. */
  steps?: readonly StepTemplate[];
}

/** What the preview reads of a definition's step beyond the rendered text. */
interface StepTemplate {
  template?: { layoutId?: string };
}

const STEP_STRINGS = ['subject', 'title', 'preheader', 'senderName', 'content', 'contentType'] as const;

export function buildPreviewWorkflow(input: PreviewWorkflowInput): PreviewWorkflow {
  const { data } = input;
  const steps = input.rendered.steps.map((step) =>
    buildPreviewStep(step, data.payload, input.steps?.[step.index]?.template?.layoutId),
  );
  return {
    identifier: input.identifier,
    file: input.file,
    name: input.name,
    ...(input.preview === undefined ? {} : { preview: input.preview }),
    subscriber: data.subscriber,
    ...(data.events === undefined ? {} : { events: data.events }),
    steps,
    diagnostics: input.diagnostics,
  };
}

/** Key by key, in the document's order; absent values stay absent. */
function buildPreviewStep(
  step: RenderedStep,
  payload: Record<string, unknown>,
  layoutId: string | undefined,
): PreviewStep {
  const out: Record<string, unknown> = { index: step.index, name: step.name, type: step.type };
  for (const key of STEP_STRINGS) if (step[key] !== undefined) out[key] = step[key];
  if (step.cta !== undefined) out.cta = step.cta;
  if (step.type === 'email') out.layout = buildLayoutNote(layoutId);
  out.payload = payload;
  if (step.error !== undefined) out.error = step.error;
  return out as unknown as PreviewStep;
}

/**
 * The service (`CompileEmailTemplate` of @novu/application-generic) renders an email's body, then renders the layout
 * with the body as its `{{{body}}}`: the layout `layoutId` names, else the default one. The layouts live in the
 * environment, out of wfsync's reach, so the preview shows the body alone and says so.
 */
export function buildLayoutNote(layoutId: string | undefined): string {
  const which =
    layoutId === undefined || layoutId === ''
      ? "the environment's default layout, if it has one"
      : `layout ${JSON.stringify(layoutId)}`;
  return `not shown: the service puts this body into ${which} (wfsync cannot read layouts)`;
}

export function buildPreviewDocument(workflows: PreviewWorkflow[]): PreviewDocument {
  return { schemaVersion: SCHEMA_VERSION, workflows };
}

/** Step types that carry no message (nothing reaches a recipient from them). */
export const SILENT_STEP_TYPES: ReadonlySet<string> = new Set(['digest', 'delay', 'trigger', 'custom']);
