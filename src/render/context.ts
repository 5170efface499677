/**
 * The data the service renders a step's strings with (docs/rendering.md, "Context"): the trigger payload spread at
 * the top level, then `subscriber` and `step` (digest, events, total_count) over it; in-app and email add `branding`
 * (color defaulting to #f47373), email also `preheader` (the raw preheader template) and `blocks`.
 */
import type { RenderData } from './types.js';

/** The service's branding color when the organization has none. */
export const DEFAULT_BRAND_COLOR = '#f47373';

/** The context every channel starts from (SMS, push and chat render with exactly this). */
export function baseContext(data: RenderData, fresh = true): Record<string, unknown> {
  const events = data.events;
  const copy = fresh ? deepCopy : same;
  return {
    ...copy(data.payload),
    subscriber: copy(data.subscriber),
    step: {
      digest: !!events?.length,
      events: events === undefined ? undefined : copy(events),
      total_count: events?.length,
    },
    // The worker adds them only when the trigger names them.
    ...(data.tenant ? { tenant: copy(data.tenant) } : {}),
    ...(data.actor ? { actor: copy(data.actor) } : {}),
  };
}

/**
 * The names the service sets over the payload in a step of `type` (`send-message.base.ts` `getCompilePayload` spreads
 * them after it; in-app and email add `branding`, email `preheader` and `blocks`, and its body `subject` and `body`):
 * a payload key of one of these names never renders there. `tenant` and `actor` only when the trigger names them.
 */
export function contextKeys(
  type: string,
  data: RenderData,
  { body = false }: { body?: boolean } = {},
): string[] {
  const keys = ['subscriber', 'step'];
  if (data.tenant) keys.push('tenant');
  if (data.actor) keys.push('actor');
  if (type === 'in_app' || type === 'email') keys.push('branding');
  if (type === 'email') keys.push('preheader', 'blocks', ...(body ? ['subject', 'body'] : []));
  return keys;
}

/** The context of a step of `type` (a fresh copy: helpers like sortBy sort the payload's arrays in place). */
export function stepContext(
  type: string,
  data: RenderData,
  { preheader, fresh = true }: { preheader?: unknown; fresh?: boolean } = {},
): Record<string, unknown> {
  const context = baseContext(data, fresh);
  if (type !== 'in_app' && type !== 'email') return context;
  context.branding = { logo: data.branding?.logo, color: data.branding?.color || DEFAULT_BRAND_COLOR };
  if (type === 'email') {
    context.preheader = preheader;
    context.blocks = [];
  }
  return context;
}

function same<T>(value: T): T {
  return value;
}

function deepCopy<T>(value: T): T {
  return value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T);
}
