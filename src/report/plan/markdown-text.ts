/**
 * Escaping for Markdown that GitHub renders (PR comments, step summaries). Workflow names, identifiers, messages and
 * diffs are untrusted: none may break a table, close a fence, or inject HTML.
 */
import { escapeMarkdown } from '../github-summary.js';
import { sanitizeTerminalText } from '../terminal-text.js';

/** Characters with a meaning in Markdown or HTML, written as numeric entities inside HTML (`<summary>`). */
const HTML_SPECIAL = /[&<>"'`*_~[\]\\|#]/g;

/**
 * Text for inside an HTML element (`<summary>…</summary>`), on one line. Entities, not backslashes: GitHub may or
 * may not apply Markdown there, and an entity reads the same either way.
 */
export function escapeHtml(text: string): string {
  return sanitizeTerminalText(text.replace(/\r\n|\r|\n|\t/g, ' ')).replace(
    HTML_SPECIAL,
    (ch) => `&#${ch.charCodeAt(0)};`,
  );
}

/** Longest run of backticks in `text` (0 when none). */
function longestBacktickRun(text: string): number {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return longest;
}

/**
 * A code span for any one-line text: delimited by more backticks than the text holds, padded with a space when it
 * starts or ends with a backtick or a space (CommonMark strips one space on each side). Code spans show `<`, `|`…
 * literally, except `|`, which still splits a table cell: use these outside tables.
 */
export function inlineCode(text: string): string {
  const body = sanitizeTerminalText(text.replace(/\r\n|\r|\n/g, ' '), '\t').replace(/\t/g, ' ');
  const ticks = '`'.repeat(longestBacktickRun(body) + 1);
  const pad = /^[` ]|[` ]$/.test(body) ? ' ' : '';
  return `${ticks}${pad}${body}${pad}${ticks}`;
}

/**
 * A fenced code block whose fence is longer than any backtick run inside, so content holding ``` cannot close it
 * early. Lines must already be terminal-safe.
 */
export function fencedBlock(lines: readonly string[], info: string): string {
  const fence = '`'.repeat(Math.max(3, longestBacktickRun(lines.join('\n')) + 1));
  return [`${fence}${info}`, ...lines, fence].join('\n');
}

/**
 * Prose that may quote commands in backticks (`run \`wfsync pull welcome\``): each backtick span becomes a code
 * span, everything else is escaped text. An unpaired backtick stays a literal backtick.
 */
export function escapeProse(text: string): string {
  let out = '';
  let last = 0;
  for (const match of text.matchAll(/`([^`\r\n]+)`/g)) {
    out += escapeMarkdown(text.slice(last, match.index)) + inlineCode(match[1] ?? '');
    last = match.index + match[0].length;
  }
  return out + escapeMarkdown(text.slice(last));
}
