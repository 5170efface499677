/**
 * `plan --format markdown` (and `sync`) when the command failed as a whole: one comment with the same markers as a
 * plan, so a recipe that posts stdout replaces the sticky comment instead of leaving a plan that may no longer hold.
 * It says that the plan failed, why (the error as stderr says it, through the markdown channel), and what to do.
 * Pure.
 */
import { buildMarkdownDocument } from '../channel.js';
import type { CommandFailure, FailureCode } from '../failure.js';
import { escapeMarkdown } from '../github-summary.js';
import { escapeProse, fencedBlock, inlineCode } from './markdown-text.js';
import { type CommentContext, renderStampLine, targetArgument } from './stamp.js';
import { messageLines, truncateText } from './text.js';

export interface FailureMarkdownOptions extends CommentContext {
  command: 'plan' | 'sync';
  /** The markers of the comment this one replaces (markdown.ts: commentMarkers). */
  markers: readonly string[];
  /** The target's name, when the command got far enough to know it (or was given `--target`). */
  target?: string;
}

const MAX_MESSAGE_LENGTH = 4_000;
const MAX_DIAGNOSTICS_LISTED = 20;

export function renderFailureMarkdown(failure: CommandFailure, options: FailureMarkdownOptions): string {
  const { command } = options;
  const title =
    options.target === undefined
      ? ''
      : ` · ${escapeMarkdown(truncateText(options.target, 100)).replace(/#/g, '\\#')}`;
  const lines = [`## ✖ wfsync ${command} failed${title}`, ''];
  const stamp = renderStampLine(options.stamp, options.target);
  if (stamp !== undefined) lines.push(stamp, '');
  lines.push(
    command === 'plan'
      ? `**No plan: the plan could not be made (exit ${failure.exitCode}, \`${failure.code}\`).** This comment replaces the earlier plan, which may no longer hold.`
      : `**The sync stopped before applying anything (exit ${failure.exitCode}, \`${failure.code}\`).**`,
    '',
    fencedBlock(messageLines(truncateText(failure.message, MAX_MESSAGE_LENGTH)), 'text'),
  );
  if (failure.diagnostics.length > 0) lines.push('', diagnosticList(failure));
  lines.push('', `**What to do:** ${escapeProse(whatToDo(failure.code, options))}`);
  if (command === 'plan')
    lines.push(
      '',
      '**Before merging:** the plan must succeed; until it does, nobody can tell what merging will do.',
    );
  return `${buildMarkdownDocument(options.markers, lines.join('\n'))}\n`;
}

function diagnosticList(failure: CommandFailure): string {
  const shown = failure.diagnostics.slice(0, MAX_DIAGNOSTICS_LISTED).map((d) => {
    const where = inlineCode(`${d.file}:${d.line}:${d.column}`);
    return `- ${where} **${d.severity}** ${escapeProse(truncateText(d.message, 2_000))} (${inlineCode(d.code)})`;
  });
  const more = failure.diagnostics.length - MAX_DIAGNOSTICS_LISTED;
  if (more > 0) shown.push(`- … and ${more} more problems`);
  return shown.join('\n');
}

/** One or two sentences for the reader of the comment, by failure code; commands quoted in backticks. */
function whatToDo(code: FailureCode, options: FailureMarkdownOptions): string {
  const target = targetArgument(options);
  const rerun = `\`wfsync ${options.command}${target}\``;
  const verbose = `\`wfsync ${options.command}${target} --verbose\``;
  switch (code) {
    case 'usage':
      return `the command line in the CI step is wrong: fix the step (see \`wfsync ${options.command} --help\`).`;
    case 'invalid':
      return 'fix the problems above (`wfsync validate` shows them with their lines), then push again.';
    case 'auth':
      return `fix the API key the job gives this target (the repository secret; the message says which and why), then re-run the job or ${rerun}.`;
    case 'rate-limited':
      return `the service kept rate-limiting the requests: re-run the job later.`;
    case 'stale-plan':
      return `make the plan again (\`wfsync plan${target} --out plan.json\`), review it, and sync with it.`;
    case 'internal':
      return 'this is a bug in wfsync: re-run the job, and report it with the job log if it happens again.';
    case 'failed':
      return `re-run the job; if it fails again, run ${verbose} locally to see why.`;
    default:
      return `the service could not be asked: re-run the job once it answers (check the target's baseUrl and the service's status).`;
  }
}
