/**
 * What the CLI tells the comment renderers about the run (src/cli reads the clock, `GITHUB_SHA` and git; the
 * renderers stay pure): the stamp line under a comment's title, and the `--target` to repeat in suggested commands.
 */
import { shellWord } from '../../plan/command-line.js';
import { inlineCode } from './markdown-text.js';
import { truncateText } from './text.js';

export interface ReportStamp {
  /** When the command ran, ISO 8601 (UTC). */
  time: string;
  /** The commit the definitions were read at (short SHA), when known. */
  commit?: string;
}

export interface CommentContext {
  stamp?: ReportStamp;
  /** The target the command was given (`--target`, else WFSYNC_TARGET): suggested commands repeat it. */
  targetFlag?: string;
}

/** `Commit \`abc1234\` · 2026-11-26 02:30 UTC · target \`production\``, or undefined without a stamp. */
export function renderStampLine(
  stamp: ReportStamp | undefined,
  target: string | undefined,
): string | undefined {
  if (stamp === undefined) return undefined;
  const parts: string[] = [];
  if (stamp.commit !== undefined) parts.push(`Commit ${inlineCode(stamp.commit)}`);
  parts.push(formatTime(stamp.time));
  if (target !== undefined) parts.push(`target ${inlineCode(truncateText(target, 100))}`);
  return `<sub>${parts.join(' · ')}</sub>`;
}

/** `2026-11-26T02:30:34.120Z` → `2026-11-26 02:30 UTC`; anything else as given, in a code span. */
function formatTime(iso: string): string {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso);
  return match ? `${match[1]} ${match[2]} UTC` : inlineCode(iso);
}

/** ` --target production` when the command was given one (quoted for a POSIX shell when it must be), else ``. */
export function targetArgument(context: CommentContext): string {
  const name = context.targetFlag;
  if (name === undefined || name === '') return '';
  return ` --target ${shellWord(name)}`;
}
