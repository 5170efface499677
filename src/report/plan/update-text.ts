/** An update's step matching, status change and notes (plan/update-body.ts) as the text formats list them. Pure. */
import type { StepMatch } from '../../plan/step-match.js';
import { truncateText } from './text.js';

const MAX_NAME = 60;

/** What an update item (or an `updated` outcome) carries for a reviewer. */
export interface UpdateDetails {
  steps?: StepMatch[];
  notes?: string[];
  active?: boolean;
}

/** `kept      email  "Send email"` per step, in the plan's order (the file's steps, then the removed ones). */
export function stepMatchLines(steps: readonly StepMatch[]): string[] {
  const width = Math.max(...steps.map((s) => s.match.length));
  return steps.map((step) => {
    const was = step.match === 'replaced' ? ` (was ${step.from})` : '';
    return `${step.match.padEnd(width)}  ${step.channel}  ${JSON.stringify(truncateText(step.name, MAX_NAME))}${was}`;
  });
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
  for (const note of details.notes ?? []) out.push(`note: ${note}`);
  return out;
}
