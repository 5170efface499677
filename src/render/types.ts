/** The renderer's public shapes (see src/render/index.ts). */

/** What a step is rendered with: the service's context for one subscriber and one trigger. */
export interface RenderData {
  payload: Record<string, unknown>;
  /** firstName, lastName, email, phone, locale, avatar, data, subscriberId… */
  subscriber: Record<string, unknown>;
  /** For steps after a digest: the events it collected (trigger payloads), as the service passes them. */
  events?: Record<string, unknown>[];
  branding?: { logo?: string; color?: string };
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

export interface RenderedStep {
  /** Position in steps[]. */
  index: number;
  /** The step's name (or its type and position when it has none). */
  name: string;
  /** The step template's type: email, sms, push, chat, in_app, digest, delay, trigger, custom… */
  type: string;
  /** Email: rendered and trimmed as the service does. */
  subject?: string;
  preheader?: string;
  senderName?: string;
  /** Push (and in-app where it has one). */
  title?: string;
  /** Rendered text; for email the HTML body (customHtml as is, editor blocks laid out). */
  content?: string;
  contentType?: 'html' | 'text';
  /** In-app. */
  cta?: { label?: string; url?: string; buttons?: Array<{ type: string; content: string }> };
  /** Set when the service would fail to render this step: its message, as the service would say it. */
  error?: string;
}

export interface RenderedWorkflow {
  steps: RenderedStep[];
  findings: RenderFinding[];
}

export interface RenderOptions {
  /** A step name or a 0-based index: render that step only. */
  step?: string | number;
}
