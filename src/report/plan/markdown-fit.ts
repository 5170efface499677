/**
 * Fitting a Markdown report into a size limit (a PR comment holds 65,536 characters; a step summary 1 MiB). Detail
 * blocks lose their diff first, from the last one back; then the in-sync list shrinks to a count; then detail
 * blocks are dropped from the end and a notice counts them. The head (title, summary table) and the footer (next
 * steps) always stay.
 */

export interface FitBlock {
  /** The block with everything. */
  full: string;
  /** The block without its diff (the same as `full` when it has none). */
  lite: string;
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
  const sizes = input.details.map((b) => ({ full: measure(b.full), lite: measure(b.lite) }));
  const forms: Array<'full' | 'lite' | 'none'> = input.details.map(() => 'full');
  let inSyncForm: 'full' | 'lite' = 'full';
  const inSyncSize = input.inSync && { full: measure(input.inSync.full), lite: measure(input.inSync.lite) };

  // The text without any notice: head, each detail block, the in-sync list, separators and the final newline.
  let total = measure(input.head) + measure('\n');
  if (input.footer !== undefined) total += sep + measure(input.footer);
  for (const s of sizes) total += sep + s.full;
  if (inSyncSize) total += sep + inSyncSize.full;

  for (let i = sizes.length - 1; i >= 0 && total > limit; i--) {
    const s = sizes[i]!;
    total += s.lite - s.full;
    forms[i] = 'lite';
  }
  if (total > limit && inSyncSize) {
    total += inSyncSize.lite - inSyncSize.full;
    inSyncForm = 'lite';
  }
  let omitted = 0;
  const withNotice = (n: number) => total + (n > 0 ? sep + measure(input.notice(n)) : 0);
  for (let i = sizes.length - 1; i >= 0 && withNotice(omitted) > limit; i--) {
    total -= sep + sizes[i]!.lite;
    forms[i] = 'none';
    omitted++;
  }

  const parts = [input.head];
  input.details.forEach((block, i) => {
    const form = forms[i];
    if (form === 'full') parts.push(block.full);
    else if (form === 'lite') parts.push(block.lite);
  });
  if (input.inSync) parts.push(inSyncForm === 'full' ? input.inSync.full : input.inSync.lite);
  if (omitted > 0) parts.push(input.notice(omitted));
  if (input.footer !== undefined) parts.push(input.footer);
  return `${parts.join(SEPARATOR)}\n`;
}
