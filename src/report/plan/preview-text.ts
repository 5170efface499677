/** A create's preview (plan/preview.ts) as the plan formats show it: a few short labelled parts. */
import type { CreatePreview } from '../../plan/types.js';
import { sanitizeTerminalText } from '../terminal-text.js';
import { truncateText } from './text.js';

/** Items listed per preview line; the rest are counted. */
const MAX_PREVIEW_ITEMS = 12;
const MAX_PREVIEW_TEXT = 60;

/** A create's preview as labelled parts, each a list of short texts (not yet escaped for any format). */
export interface PreviewParts {
  trigger: string;
  steps: string[];
  payloadLabel: string;
  payload: string[];
  subscriber: string[];
  group: string;
}

export function previewParts(preview: CreatePreview): PreviewParts {
  const steps = preview.steps.map((step, i) => {
    const subject =
      step.subject === undefined ? '' : ` ${JSON.stringify(truncateText(step.subject, MAX_PREVIEW_TEXT))}`;
    const inactive = step.active === false ? ', inactive' : '';
    return `${i + 1}. ${truncateText(step.name, MAX_PREVIEW_TEXT)} (${step.type}${inactive})${subject}`;
  });
  const payload = preview.payload.map(({ name, type }) => (type === undefined ? name : `${name} (${type})`));
  const { group } = preview;
  const groupName =
    group.from === 'named'
      ? `group:${group.name ?? ''}`
      : group.from === 'default'
        ? "the target's default"
        : 'by id';
  return {
    trigger: preview.trigger,
    steps: capped(steps),
    payloadLabel: preview.payloadFrom === 'declared' ? 'payload' : 'payload (as the service derives it)',
    payload: payload.length === 0 ? ['(none)'] : capped(payload),
    subscriber: preview.subscriberVariables.length === 0 ? ['(none)'] : preview.subscriberVariables,
    group: `${groupName} ${group.id}`,
  };
}

/** The preview in a few plain lines (human and github formats): terminal-safe. */
export function previewLines(preview: CreatePreview): string[] {
  const parts = previewParts(preview);
  return [
    `trigger: ${parts.trigger} · group: ${parts.group}`,
    `${parts.payloadLabel}: ${parts.payload.join(', ')} · subscriber: ${parts.subscriber.join(', ')}`,
    `steps: ${parts.steps.join(' · ')}`,
  ].map((line) => sanitizeTerminalText(line));
}

function capped(items: readonly string[]): string[] {
  if (items.length <= MAX_PREVIEW_ITEMS) return [...items];
  return [...items.slice(0, MAX_PREVIEW_ITEMS), `… ${items.length - MAX_PREVIEW_ITEMS} more`];
}
