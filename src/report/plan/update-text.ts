/** An update's step matching, status change and notes (plan/update-body.ts) as the text formats list them. Pure. */
import type { StepMatch } from '../../plan/step-match.js';
import type { UpdateItem } from '../../plan/types.js';
import { oneLine, truncateText } from './text.js';

/** Longest step name or channel shown (characters): the service's may be of any length. */
export const MAX_STEP_TEXT = 60;

/** What an update item (or an `updated` outcome) carries for a reviewer. */
export type UpdateDetails = Partial<Pick<UpdateItem, 'steps' | 'notes' | 'active'>>;

/** `kept      email  "Send email"` per step, in the plan's order (the file's steps, then the removed ones). */
export function stepMatchLines(steps: readonly StepMatch[]): string[] {
  const width = Math.max(...steps.map((s) => s.match.length));
  return steps.map((step) => {
    const was = step.match === 'replaced' ? ` (was ${channelText(step.from ?? '')})` : '';
    return `${step.match.padEnd(width)}  ${channelText(step.channel)}  ${JSON.stringify(truncateText(step.name, MAX_STEP_TEXT))}${was}`;
  });
}

/** A step's channel: the service's `template.type` for a removed or replaced step, any string it holds. */
function channelText(channel: string): string {
  return oneLine(truncateText(channel, MAX_STEP_TEXT));
}

/** `active: false, through the status route`, when the update sets it. */
export function activeLine(active: boolean | undefined): string | undefined {
  return active === undefined ? undefined : `active → ${active} (the status route)`;
}

/** The lines the human format shows under an update: steps (file ← service), the status, the notes. */
export function updateLines(details: UpdateDetails): string[] {
  const out: string[] = [];
  if (details.steps !== undefined && details.steps.length > 0) {
    out.push('steps (matched to the service by name and channel, then position):');
    out.push(...stepMatchLines(details.steps).map((line) => `  ${line}`));
  }
  const active = activeLine(details.active);
  if (active !== undefined) out.push(active);
  for (const note of details.notes ?? []) out.push(`note: ${oneLine(note)}`);
  return out;
}
