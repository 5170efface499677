/** The renderer's public shapes (see src/render/index.ts). */
import type { PreviewStep } from '../generated/preview-output.js';

/** What a step is rendered with: the service's context for one subscriber and one trigger. */
export interface RenderData {
  payload: Record<string, unknown>;
  /** firstName, lastName, email, phone, locale, avatar, data, subscriberId… */
  subscriber: Record<string, unknown>;
  /** For steps after a digest: the events it collected (trigger payloads), as the service passes them. */
  events?: Record<string, unknown>[];
  branding?: { logo?: string; color?: string };
  /** The trigger's tenant, when it names one (`tenant.*` in templates). */
  tenant?: Record<string, unknown>;
  /** The trigger's actor (a subscriber), when it names one (`actor.*` in templates). */
  actor?: Record<string, unknown>;
}

/**
 * A problem the renderer found, positioned by JSON pointer into the definition and, where known, by character
 * offsets inside that template string (the validate layer maps these to file:line:col).
 */
export interface RenderFinding {
  /** 'render-helper-unknown', 'render-helper-arity', 'render-empty', 'render-failed', 'render-surprise' */
  code: string;
  severity: 'error' | 'warning' | 'info';
  message: string;
  /** RFC 6901 into the workflow definition, e.g. /steps/0/template/subject */
  pointer: string;
  /** Offset of the first character in the template string. */
  start?: number;
  /** Offset just after the last character. */
  end?: number;
}

/**
 * One step as the service renders it: the preview document's step (schemas/preview-output.schema.json, through
 * `npm run gen`) without what the preview adds (the email's layout note, the payload it was rendered with).
 */
export type RenderedStep = Omit<PreviewStep, 'layout' | 'payload'>;

export interface RenderedWorkflow {
  steps: RenderedStep[];
  findings: RenderFinding[];
}

export interface RenderOptions {
  /** A step name or a 0-based index: render that step only. */
  step?: string | number;
}
