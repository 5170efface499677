/**
 * Fitting a Markdown report into a size limit (a PR comment holds 65,536 characters; a step summary 1 MiB). Detail
 * blocks lose their optional parts first, one kind at a time, from the last block back (each block's `steps`, in
 * order: its flowchart, then its rendered text), then their diff; then the in-sync list shrinks to a count; then
 * detail blocks are dropped from the end and a notice counts them. The head (title, summary table) and the footer
 * (next steps) always stay.
 */

export interface FitBlock {
  /** The block with everything. */
  full: string;
  /** The block without its diff (the same as `full` when it has none). */
  lite: string;
  /**
   * Forms between `full` and `lite`, each leaner than the one before (without the flowchart, then also without the
   * rendered text…); every block's first step is taken before any block's second.
   */
  steps?: readonly string[];
}

export interface FitInput {
  /** Always kept: markers, heading, summary. */
  head: string;
  /** One per workflow needing attention, in order. */
  details: readonly FitBlock[];
  /** The in-sync list: `full` names them, `lite` only counts them. */
  inSync?: FitBlock;
  /** Always kept, last: the next steps. */
  footer?: string;
  /** The notice for `omitted` dropped detail blocks. */
  notice: (omitted: number) => string;
  /** Budget for the whole text, in `measure` units. */
  limit: number;
  /** Size of a text: UTF-16 length or UTF-8 bytes. Must add up over concatenation. */
  measure: (text: string) => number;
}

/** Parts are joined by a blank line. */
const SEPARATOR = '\n\n';

/**
 * The parts joined by blank lines, ending with one newline, within `limit` whenever the head and the notice alone
 * fit. Sizes are computed once per part, so this is linear in the number of workflows.
 */
export function fitMarkdown(input: FitInput): string {
  const { measure, limit } = input;
  const sep = measure(SEPARATOR);
  // Each block's forms, fullest first: full, its steps, lite. `at[i]` is the form block i is written in; -1: dropped.
  const forms = input.details.map((b) => [b.full, ...(b.steps ?? []), b.lite]);
  const sizes = forms.map((list) => list.map(measure));
  const at = forms.map(() => 0);
  let inSyncForm: 'full' | 'lite' = 'full';
  const inSyncSize = input.inSync && { full: measure(input.inSync.full), lite: measure(input.inSync.lite) };

  // The text without any notice: head, each detail block, the in-sync list, separators and the final newline.
  let total = measure(input.head) + measure('\n');
  if (input.footer !== undefined) total += sep + measure(input.footer);
  for (const s of sizes) total += sep + s[0]!;
  if (inSyncSize) total += sep + inSyncSize.full;

  // Level by level: every block's first reduction (from the last block back) before any block's second.
  const levels = Math.max(0, ...sizes.map((s) => s.length - 1));
  for (let level = 1; level <= levels && total > limit; level++) {
    for (let i = sizes.length - 1; i >= 0 && total > limit; i--) {
      const s = sizes[i]!;
      const next = Math.min(level, s.length - 1);
      if (next <= at[i]!) continue;
      total += s[next]! - s[at[i]!]!;
      at[i] = next;
    }
  }
  if (total > limit && inSyncSize) {
    total += inSyncSize.lite - inSyncSize.full;
    inSyncForm = 'lite';
  }
  let omitted = 0;
  const withNotice = (n: number) => total + (n > 0 ? sep + measure(input.notice(n)) : 0);
  for (let i = sizes.length - 1; i >= 0 && withNotice(omitted) > limit; i--) {
    total -= sep + sizes[i]![at[i]!]!;
    at[i] = -1;
    omitted++;
  }

  const parts = [input.head];
  forms.forEach((list, i) => {
    if (at[i]! >= 0) parts.push(list[at[i]!]!);
  });
  if (input.inSync) parts.push(inSyncForm === 'full' ? input.inSync.full : input.inSync.lite);
  if (omitted > 0) parts.push(input.notice(omitted));
  if (input.footer !== undefined) parts.push(input.footer);
  return `${parts.join(SEPARATOR)}\n`;
}
