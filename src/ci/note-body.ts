/**
 * What the relay writes on a pull or merge request, for every provider: the plan as wfsync printed it (its markers
 * kept, the rest through the Markdown channel), or, when wfsync printed no plan, a short failure that points at the
 * job's log under the target's markers. And the job summary's Markdown (GitHub). Pure.
 */
import { buildMarkdownDocument } from '../report/channel.js';
import { PR_COMMENT_MARKER, planCommentMarkers } from '../report/plan/markdown.js';

/** The marker lines the Markdown starts with (the plan's, then the target's), and the rest. */
function splitMarkers(markdown: string): { markers: string[]; rest: string } {
  const lines = markdown.split('\n');
  let count = 0;
  while (count < lines.length && /^<!-- wfsync-[a-z]+(?: target=\S*)? -->$/.test(lines[count] ?? '')) count++;
  return { markers: lines.slice(0, count), rest: lines.slice(count).join('\n') };
}

/** What wfsync printed as Markdown, through the Markdown channel (its own markers kept): the job summary. */
export function buildSummaryMarkdown(markdown: string): string {
  const { markers, rest } = splitMarkers(markdown);
  return buildMarkdownDocument(markers, rest);
}

/** What the relay writes a comment or note from: what wfsync printed as Markdown, its exit code, the target. */
export interface NoteInput {
  env: NodeJS.ProcessEnv;
  markdown: string;
  code: number;
  target: string | undefined;
}

/**
 * The comment's or note's body and the marker that finds the earlier one (the target's when the body has it).
 * `log`: the job's URL (jobUrl), for the failure's link.
 */
export function buildNoteBody(options: Omit<NoteInput, 'env'> & { log: string | undefined }): {
  marker: string;
  body: string;
} {
  const { markers, rest } = splitMarkers(options.markdown);
  if (markers.includes(PR_COMMENT_MARKER)) {
    const marker = markers.find((m) => m.includes(' target=')) ?? markers[0]!;
    return { marker, body: buildMarkdownDocument(markers, rest) };
  }
  const own = planCommentMarkers(options.target);
  const where = options.log === undefined ? "this job's log" : `[the job log](${options.log})`;
  const body = buildMarkdownDocument(
    own,
    `### wfsync plan failed\n\n\`wfsync plan\` exited ${options.code} without printing a plan: see ${where}.\n`,
  );
  return { marker: own[own.length - 1]!, body };
}

/** A job URL from the environment, only when it is one (it goes into a Markdown link). */
export function jobUrl(text: string | undefined): string | undefined {
  if (text === undefined || text === '') return undefined;
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:'
      ? url.href.replace(
          /[()\s]/g,
          (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
        )
      : undefined;
  } catch {
    return undefined;
  }
}
