import { plural } from '../text.js';
import { neutralizeMarkdown } from './channel.js';
import { createStyle } from './style.js';
import { formatSummaryLines } from './summary.js';
import { sanitizeTerminalText } from './terminal-text.js';
import type { ValidateReport } from './validate-report.js';

/**
 * GitHub refuses a step summary over 1 MiB (and shows none of it). Stay under with room for anything
 * else the step writes.
 */
export const STEP_SUMMARY_MAX_BYTES = 1_000_000;

/**
 * Markdown for `$GITHUB_STEP_SUMMARY`: a heading, the summary line and every diagnostic in a table, so
 * nothing is lost when annotations hit GitHub's per-step cap. Rows that would break the byte budget are
 * left out and counted in a closing note. `maxBytes`: the budget for the whole text (UTF-8).
 */
export function renderGithubStepSummary(report: ValidateReport, options: { maxBytes?: number } = {}): string {
  const maxBytes = options.maxBytes ?? STEP_SUMMARY_MAX_BYTES;
  const head = ['## wfsync validate', ...formatSummaryLines(report, createStyle(false)).map(escapeMarkdown)];
  if (report.diagnostics.length === 0) return `${neutralizeMarkdown(head.join('\n\n'))}\n`;

  const lines = [
    head.join('\n\n'),
    '',
    '| File | Line | Severity | Code | Message |',
    '| --- | ---: | --- | --- | --- |',
  ];
  // The markdown channel (channel.ts) row by row, so the sizes measured are the sizes written.
  const rows = report.diagnostics.map((d) =>
    neutralizeMarkdown(
      `| ${escapeMarkdown(d.file)} | ${d.line} | ${d.severity} | ${escapeMarkdown(d.code)} | ${escapeMarkdown(d.message)} |`,
    ),
  );
  let bytes = utf8Length(lines.join('\n')) + 1;
  const total = rows.reduce((sum, row) => sum + utf8Length(row) + 1, bytes);
  // When not everything fits, keep room for the note (its count has at most as many digits as the total).
  const reserve = total <= maxBytes ? 0 : utf8Length(truncationNote(rows.length)) + 2;
  let listed = 0;
  for (const row of rows) {
    const rowBytes = utf8Length(row) + 1;
    if (bytes + rowBytes + reserve > maxBytes) break;
    lines.push(row);
    bytes += rowBytes;
    listed++;
  }
  if (listed < report.diagnostics.length) lines.push('', truncationNote(report.diagnostics.length - listed));
  return `${lines.join('\n')}\n`;
}

function truncationNote(omitted: number): string {
  return `_${plural(omitted, 'more problem')} not listed: a step summary is limited to 1 MiB. Run \`wfsync validate\` to see them all._`;
}

/**
 * Text safe in a Markdown table cell: Markdown punctuation is backslash-escaped, HTML is neutralized as
 * entities, `|` cannot end the cell and line breaks become `<br>`.
 */
export function escapeMarkdown(text: string): string {
  return sanitizeTerminalText(text, '\n\r\t')
    .replace(/[\\`*_[\]~|<>&]/g, (ch) =>
      ch === '&' ? '&amp;' : ch === '<' ? '&lt;' : ch === '>' ? '&gt;' : `\\${ch}`,
    )
    .replace(/\r\n|\r|\n/g, '<br>')
    .replace(/\t/g, ' ');
}

const UTF8 = new TextEncoder();

/** UTF-8 byte length (a lone surrogate counts 3 bytes, as the U+FFFD it is written as). */
export function utf8Length(text: string): number {
  return UTF8.encode(text).length;
}
