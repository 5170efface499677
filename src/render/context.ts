/**
 * The data the service renders a step's strings with (docs/rendering.md, "Context"): the trigger payload spread at
 * the top level, then `subscriber` and `step` (digest, events, total_count) over it; in-app and email add `branding`
 * (color defaulting to #f47373), email also `preheader` (the raw preheader template) and `blocks`.
 */
import type { RenderData } from './types.js';

/** The service's branding color when the organization has none. */
export const DEFAULT_BRAND_COLOR = '#f47373';

/** The context every channel starts from (SMS, push and chat render with exactly this). */
export function baseContext(data: RenderData): Record<string, unknown> {
  const events = data.events;
  return {
    ...copy(data.payload),
    subscriber: copy(data.subscriber),
    step: {
      digest: !!events?.length,
      events: events === undefined ? undefined : copy(events),
      total_count: events?.length,
    },
  };
}

/** The context of a step of `type` (a fresh copy: helpers like sortBy sort the payload's arrays in place). */
export function stepContext(
  type: string,
  data: RenderData,
  raw: { preheader?: unknown } = {},
): Record<string, unknown> {
  const context = baseContext(data);
  if (type !== 'in_app' && type !== 'email') return context;
  context.branding = { logo: data.branding?.logo, color: data.branding?.color || DEFAULT_BRAND_COLOR };
  if (type === 'email') {
    context.preheader = raw.preheader;
    context.blocks = [];
  }
  return context;
}

function copy<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}
